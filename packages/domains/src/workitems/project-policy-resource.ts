import type { SqlExecutor } from 'toolgate';
import type { PolicyResourceHook } from '../policy-hooks.ts';
import { draftStore } from './draft-store.ts';
import { effectivePermission, type Permission, type Visibility } from './project-access.ts';

/**
 * The project a call writes to, as its policies see it: `Project::"tenant/id"` with its visibility and
 * its members by permission (`writers`, `readers`). A project the caller cannot read (another
 * tenant's, or restricted without membership) is null, like a missing one. `workitems_commit` names
 * a draft: its project is the draft's.
 */
export function projectResource(db: SqlExecutor): PolicyResourceHook {
  return async (input, { principal }) => {
    let projectId = typeof input.project_id === 'string' ? input.project_id : null;
    if (projectId === null && typeof input.draft_id === 'string') {
      projectId = (await draftStore.find(db, principal.tenant, input.draft_id))?.projectId ?? null;
    }
    if (projectId === null) return null;
    const rows = await db.query<{
      visibility: Visibility;
      subject: string | null;
      permission: Permission | null;
    }>(
      `SELECT p.visibility, m.subject, m.permission FROM workitems_projects p
       LEFT JOIN workitems_members m ON m.tenant = p.tenant AND m.project_id = p.project_id
       WHERE p.tenant = ? AND p.project_id = ?`,
      [principal.tenant, projectId],
    );
    const first = rows[0];
    if (!first) return null;
    const own = rows.find((r) => r.subject === principal.subject)?.permission ?? null;
    if (!effectivePermission(first.visibility, own)) return null;
    const members = (wanted: Permission) =>
      rows.filter((r) => r.subject !== null && r.permission === wanted).map((r) => r.subject as string);
    return {
      type: 'Project',
      id: `${principal.tenant}/${projectId}`,
      attributes: {
        tenant: principal.tenant,
        project_id: projectId,
        visibility: first.visibility,
        writers: members('write'),
        readers: members('read'),
      },
    };
  };
}
