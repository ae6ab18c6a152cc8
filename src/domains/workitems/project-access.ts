import type { Principal } from '../../auth/principal.ts';
import { outcome, type ToolOutcome } from '../../contract/outcome.ts';
import type { SqlExecutor } from '../../store/sql-database.ts';

export type Permission = 'read' | 'write';
/** tenant: everyone in the tenant may read; restricted: only members may read. Writing always needs membership. */
export type Visibility = 'tenant' | 'restricted';

export interface Project {
  readonly tenant: string;
  readonly projectId: string;
  readonly name: string;
  readonly visibility: Visibility;
}

/** The rule, as a pure function: an explicit membership decides; otherwise visibility grants read or nothing. */
export function effectivePermission(
  visibility: Visibility,
  membership: Permission | null,
): Permission | null {
  if (membership) return membership;
  return visibility === 'tenant' ? 'read' : null;
}

export function allows(held: Permission | null, needed: Permission): boolean {
  return held === 'write' || (held === 'read' && needed === 'read');
}

export type ProjectAccess =
  | { readonly ok: true; readonly project: Project; readonly permission: Permission }
  | { readonly ok: false; readonly refusal: ToolOutcome<never> };

/**
 * Projects and memberships as held server-side. The caller's identity comes from the verified token;
 * a project of another tenant is indistinguishable from one that does not exist.
 */
export class ProjectDirectory {
  constructor(private readonly db: SqlExecutor) {}

  async access(principal: Principal, projectId: string, needed: Permission): Promise<ProjectAccess> {
    const [row] = await this.db.query<{
      name: string;
      visibility: Visibility;
      permission: Permission | null;
    }>(
      `SELECT p.name, p.visibility, m.permission FROM workitems_projects p
       LEFT JOIN workitems_members m ON m.tenant = p.tenant AND m.project_id = p.project_id AND m.subject = ?
       WHERE p.tenant = ? AND p.project_id = ?`,
      [principal.subject, principal.tenant, projectId],
    );
    if (!row) {
      const readable = await this.readableBy(principal);
      return {
        ok: false,
        refusal: outcome.rejected('PROJECT_NOT_FOUND', `There is no project ${projectId}.`, {
          resolution: readable.length
            ? `Projects you can read: ${readable.join(', ')}. Ask the user which one they mean; do not guess.`
            : 'You cannot read any project; ask an administrator for access.',
        }),
      };
    }
    const project: Project = {
      tenant: principal.tenant,
      projectId,
      name: row.name,
      visibility: row.visibility,
    };
    const permission = effectivePermission(row.visibility, row.permission);
    if (!permission || !allows(permission, needed)) {
      const what = needed === 'write' ? 'create or commit work items in' : 'read';
      return {
        ok: false,
        refusal: outcome.failed(
          'PROJECT_ACCESS_DENIED',
          `You are not allowed to ${what} project ${projectId}.`,
          {
            resolution: `Ask an administrator of ${projectId} (${row.name}) for ${needed} access, or use a project you may ${needed}; nothing was changed.`,
          },
        ),
      };
    }
    return { ok: true, project, permission };
  }

  /** Project ids the principal may read, sorted; used to point a caller at real ids. */
  async readableBy(principal: Principal): Promise<string[]> {
    const rows = await this.db.query<{
      project_id: string;
      visibility: Visibility;
      permission: Permission | null;
    }>(
      `SELECT p.project_id, p.visibility, m.permission FROM workitems_projects p
       LEFT JOIN workitems_members m ON m.tenant = p.tenant AND m.project_id = p.project_id AND m.subject = ?
       WHERE p.tenant = ? ORDER BY p.project_id`,
      [principal.subject, principal.tenant],
    );
    return rows.filter((r) => effectivePermission(r.visibility, r.permission)).map((r) => r.project_id);
  }

  async define(project: Project, members: Readonly<Record<string, Permission>>): Promise<void> {
    await this.db.execute(
      'INSERT INTO workitems_projects (tenant, project_id, name, visibility) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING',
      [project.tenant, project.projectId, project.name, project.visibility],
    );
    for (const [subject, permission] of Object.entries(members)) {
      await this.db.execute(
        'INSERT INTO workitems_members (tenant, project_id, subject, permission) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING',
        [project.tenant, project.projectId, subject, permission],
      );
    }
  }
}
