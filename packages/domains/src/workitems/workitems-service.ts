import { randomBytes } from 'node:crypto';
import type {
  Clock,
  OperationHandle,
  OperationSnapshot,
  Principal,
  ReconcileVerdict,
  SqlDatabase,
  SqlExecutor,
} from 'toolgate';
import { outcome, type ToolOutcome } from 'toolgate';
import { type Draft, draftStore } from './draft-store.ts';
import { contentHash } from './duplicate-policy.ts';
import type { ProjectDirectory } from './project-access.ts';
import { decodeCursor, encodeCursor } from './search-cursor.ts';
import type { SimulatedTracker } from './systems/tracker/simulated-tracker.ts';
import type { ItemFields, TrackerMode } from './systems/tracker/tracker-model.ts';
import type { CreateDraftResult, GetResult, SearchResult } from './workitems-results.ts';
import { DRAFT_ID_PATTERN, ITEM_ID_PATTERN } from './workitems-schemas.ts';
import { draftView, itemView } from './workitems-views.ts';

export interface WorkItemsDeps {
  readonly db: SqlDatabase;
  readonly tracker: SimulatedTracker;
  readonly projects: ProjectDirectory;
  readonly clock: Clock;
}

export interface SearchQuery {
  readonly projectId: string;
  readonly text: string | null;
  readonly pageSize: number;
  readonly cursor: string | null;
}

/** Preparing, reading and finding work items. Committing lives in DraftCommitter. */
export class WorkItemsService {
  constructor(private readonly deps: WorkItemsDeps) {}

  /** Stores a draft in our store only; the tracker is not contacted. Needs write access to the project. */
  async createDraft(
    principal: Principal,
    projectId: string,
    fields: ItemFields,
    operation: OperationHandle | null,
  ): Promise<ToolOutcome<CreateDraftResult>> {
    const access = await this.deps.projects.access(principal, projectId, 'write');
    if (!access.ok) return access.refusal;
    const mode = await this.#trackerMode(principal.tenant, projectId);
    const draft: Draft = {
      draftId: `drf_${randomBytes(12).toString('hex')}`,
      tenant: principal.tenant,
      projectId,
      fields,
      contentHash: contentHash(projectId, fields),
      state: 'draft',
      createdBy: principal.subject,
      createdAt: this.deps.clock.now(),
      commitOperationId: null,
      commitStartedAt: null,
      itemId: null,
      committedAt: null,
    };
    const prepare = async (via: SqlExecutor) => {
      await draftStore.insert(via, draft, operation?.id ?? null);
      return outcome.completed(
        { draft: draftView(draft), tracker_mode: mode },
        {
          message: `Draft ${draft.draftId} is prepared in project ${projectId}; nothing was sent to the tracker yet.`,
        },
      );
    };
    // The draft and the operation that created it commit together: no crash can leave one without the other.
    return operation ? operation.commit(prepare) : prepare(this.deps.db);
  }

  /** A draft insert is one local transaction: the draft is there, or it never will be. */
  async reconcileDraftCreation(operation: OperationSnapshot): Promise<ReconcileVerdict<CreateDraftResult>> {
    const draft = await draftStore.findByCreateOperation(this.deps.db, operation.tenant, operation.id);
    if (!draft) {
      return {
        settled: true,
        outcome: outcome.rejected('DRAFT_NOT_CREATED', 'The draft was never stored; nothing changed.', {
          resolution: 'Create the draft again with a new idempotency_key.',
        }),
      };
    }
    const mode = await this.#trackerMode(draft.tenant, draft.projectId);
    return { settled: true, outcome: outcome.completed({ draft: draftView(draft), tracker_mode: mode }) };
  }

  /** A draft (with its item once committed) or a tracker item, if the caller may read its project. */
  async get(principal: Principal, id: string): Promise<ToolOutcome<GetResult>> {
    const notFound = outcome.rejected(
      'WORKITEM_NOT_FOUND',
      `No draft or work item ${id} is visible to you.`,
      {
        resolution: 'Check the id, or find the item with workitems_search.',
      },
    );
    let draft: Draft | null = null;
    let itemId: string | null = id;
    let projectId: string;
    if (DRAFT_ID_PATTERN.test(id)) {
      draft = await draftStore.find(this.deps.db, principal.tenant, id);
      if (!draft) return notFound;
      projectId = draft.projectId;
      itemId = draft.itemId;
    } else {
      const match = ITEM_ID_PATTERN.exec(id);
      if (!match) return notFound;
      projectId = match[1]!;
    }
    // A project the caller may not read hides its items and drafts: they answer as if they did not exist.
    const access = await this.deps.projects.access(principal, projectId, 'read');
    if (!access.ok) return notFound;
    const item = itemId ? await this.deps.tracker.getItem(principal.tenant, itemId) : null;
    if (!draft && !item) return notFound;
    draft ??= item ? await draftStore.findByItem(this.deps.db, principal.tenant, item.itemId) : null;
    const mode = await this.#trackerMode(principal.tenant, projectId);
    const pending =
      draft?.state === 'committing'
        ? ` Its commit (operation ${draft.commitOperationId}) has no established outcome yet; poll operations_get.`
        : '';
    return outcome.completed(
      {
        found: DRAFT_ID_PATTERN.test(id) ? 'draft' : 'item',
        draft: draft ? draftView(draft) : null,
        item: item ? itemView(item) : null,
        tracker_mode: mode,
      },
      { message: `Found ${id}.${pending}` },
    );
  }

  /** Tracker items of one project matching the text, newest first, one bounded page at a time. */
  async search(principal: Principal, query: SearchQuery): Promise<ToolOutcome<SearchResult>> {
    const access = await this.deps.projects.access(principal, query.projectId, 'read');
    if (!access.ok) return access.refusal;
    const position = query.cursor ? decodeCursor(query.cursor, query.projectId, query.text) : null;
    if (query.cursor && !position) {
      return outcome.failed('INVALID_ARGUMENT', 'The cursor does not belong to this search.', {
        field_errors: [
          {
            field: 'cursor',
            code: 'INVALID_CURSOR',
            message: 'Use next_cursor from a previous page of the same project_id and text, or omit it.',
          },
        ],
      });
    }
    const found = await this.deps.tracker.searchItems({
      tenant: principal.tenant,
      projectKey: query.projectId,
      text: query.text,
      beforeSeq: position?.beforeSeq ?? null,
      limit: query.pageSize + 1,
    });
    const page = found.slice(0, query.pageSize);
    const last = page.at(-1);
    const more = found.length > query.pageSize && last !== undefined;
    return outcome.completed({
      project_id: query.projectId,
      items: page.map((item) => ({
        item_id: item.itemId,
        title: item.title,
        type: item.type,
        priority: item.priority,
        state: item.state,
        created_at: new Date(item.createdAt).toISOString(),
        description_excerpt: item.description.slice(0, 160),
      })),
      next_cursor: more ? encodeCursor(query.projectId, query.text, { beforeSeq: last.seq }) : null,
    });
  }

  async #trackerMode(tenant: string, projectId: string): Promise<TrackerMode> {
    const mode = await this.deps.tracker.mode(tenant, projectId);
    // Every project of ours is defined in the tracker by the same seed; a gap is a setup error.
    if (!mode) throw new Error(`project ${tenant}/${projectId} has no tracker project`);
    return mode;
  }
}
