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
    // Two lookups by key rather than one LEFT JOIN of the two tables, which SQLite ran in 30 µs
    // against 4 µs for both (it was the costliest statement of a draft).
    const [project] = await db.query<{ visibility: Visibility }>(
      'SELECT visibility FROM workitems_projects WHERE tenant = ? AND project_id = ?',
      [principal.tenant, projectId],
    );
    if (!project) return null;
    const rows = await db.query<{ subject: string; permission: Permission }>(
      'SELECT subject, permission FROM workitems_members WHERE tenant = ? AND project_id = ?',
      [principal.tenant, projectId],
    );
    const own = rows.find((r) => r.subject === principal.subject)?.permission ?? null;
    if (!effectivePermission(project.visibility, own)) return null;
    const members = (wanted: Permission) => rows.filter((r) => r.permission === wanted).map((r) => r.subject);
    return {
      type: 'Project',
      id: `${principal.tenant}/${projectId}`,
      attributes: {
        tenant: principal.tenant,
        project_id: projectId,
        visibility: project.visibility,
        writers: members('write'),
        readers: members('read'),
      },
    };
  };
}
