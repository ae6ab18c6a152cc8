import type { Draft } from './draft-store.ts';
import type { TrackerItem } from './systems/tracker/tracker-model.ts';
import type { DraftView, ItemView } from './workitems-schemas.ts';

const iso = (ms: number) => new Date(ms).toISOString();

export function draftView(draft: Draft): DraftView {
  return {
    draft_id: draft.draftId,
    project_id: draft.projectId,
    ...draft.fields,
    state: draft.state,
    created_by: draft.createdBy,
    created_at: iso(draft.createdAt),
    commit_operation_id: draft.commitOperationId,
    item_id: draft.itemId,
  };
}

export function itemView(item: TrackerItem): ItemView {
  return {
    item_id: item.itemId,
    project_id: item.projectKey,
    title: item.title,
    description: item.description,
    type: item.type,
    priority: item.priority,
    labels: item.labels,
    state: item.state,
    created_at: iso(item.createdAt),
    updated_at: iso(item.updatedAt),
  };
}
