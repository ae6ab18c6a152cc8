import type { Principal, SqlExecutor } from 'toolgate';
import { outcome, type ToolOutcome } from 'toolgate';

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
  /**
   * `invisible`: the caller may not even read the project (or it does not exist); `denied`: the
   * caller reads it but may not write to it.
   */
  | { readonly ok: false; readonly reason: 'invisible' | 'denied'; readonly refusal: ToolOutcome<never> };

/**
 * Projects and memberships as held server-side. The caller's identity comes from the verified token.
 * A project the caller may not read (another tenant's, or a restricted one without membership) is
 * indistinguishable from one that does not exist: same code, same message, same list of projects.
 */
export class ProjectDirectory {
  constructor(private readonly db: SqlExecutor) {}

  // The lookups below CAST their parameters: with plain `?` SQLite (STAT4) re-prepares them on every call.

  async access(principal: Principal, projectId: string, needed: Permission): Promise<ProjectAccess> {
    const [row] = await this.db.query<{
      name: string;
      visibility: Visibility;
      permission: Permission | null;
    }>(
      `SELECT p.name, p.visibility, m.permission FROM workitems_projects p
       LEFT JOIN workitems_members m
         ON m.tenant = p.tenant AND m.project_id = p.project_id AND m.subject = CAST(? AS TEXT)
       WHERE p.tenant = CAST(? AS TEXT) AND p.project_id = CAST(? AS TEXT)`,
      [principal.subject, principal.tenant, projectId],
    );
    const permission = row ? effectivePermission(row.visibility, row.permission) : null;
    if (!row || !permission)
      return { ok: false, reason: 'invisible', refusal: await this.#notFound(principal, projectId) };
    const project: Project = {
      tenant: principal.tenant,
      projectId,
      name: row.name,
      visibility: row.visibility,
    };
    // Reading is all a visible project can be short of, so a refusal here is about writing.
    if (!allows(permission, needed)) {
      return {
        ok: false,
        reason: 'denied',
        refusal: outcome.failed(
          'PROJECT_ACCESS_DENIED',
          `You are not allowed to create or commit work items in project ${projectId}.`,
          {
            resolution: `Ask an administrator of ${projectId} (${row.name}) for write access, or use a project you may write to; nothing was changed.`,
          },
        ),
      };
    }
    return { ok: true, project, permission };
  }

  async #notFound(principal: Principal, projectId: string): Promise<ToolOutcome<never>> {
    const readable = await this.readableBy(principal);
    return outcome.rejected('PROJECT_NOT_FOUND', `There is no project ${projectId}.`, {
      resolution: readable.length
        ? `Projects you can read: ${readable.join(', ')}. Ask the user which one they mean; do not guess.`
        : 'You cannot read any project; ask an administrator for access.',
    });
  }

  /** Project ids the principal may read, sorted; used to point a caller at real ids. */
  async readableBy(principal: Principal): Promise<string[]> {
    const rows = await this.db.query<{
      project_id: string;
      visibility: Visibility;
      permission: Permission | null;
    }>(
      `SELECT p.project_id, p.visibility, m.permission FROM workitems_projects p
       LEFT JOIN workitems_members m
         ON m.tenant = p.tenant AND m.project_id = p.project_id AND m.subject = CAST(? AS TEXT)
       WHERE p.tenant = CAST(? AS TEXT) ORDER BY p.project_id`,
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
