import type { Migration } from 'toolgate';

/**
 * Projects, per-member permissions and drafts, in our own store. Members and permissions live only
 * here (never in tool arguments); drafts remember which operation created and which committed them,
 * so a reconciler can find them from an operation id alone.
 */
export const workitemsMigration: Migration = {
  id: 'workitems_0002_projects_drafts',
  sql: `CREATE TABLE workitems_projects (
      tenant TEXT NOT NULL,
      project_id TEXT NOT NULL,
      name TEXT NOT NULL,
      visibility TEXT NOT NULL,
      PRIMARY KEY (tenant, project_id));
    CREATE TABLE workitems_members (
      tenant TEXT NOT NULL,
      project_id TEXT NOT NULL,
      subject TEXT NOT NULL,
      permission TEXT NOT NULL,
      PRIMARY KEY (tenant, project_id, subject));
    CREATE TABLE workitems_drafts (
      draft_id TEXT PRIMARY KEY,
      tenant TEXT NOT NULL,
      project_id TEXT NOT NULL,
      title TEXT NOT NULL,
      description TEXT NOT NULL,
      type TEXT NOT NULL,
      priority TEXT NOT NULL,
      labels TEXT NOT NULL,
      content_hash TEXT NOT NULL,
      state TEXT NOT NULL,
      created_by TEXT NOT NULL,
      created_at BIGINT NOT NULL,
      create_operation_id TEXT UNIQUE,
      commit_operation_id TEXT UNIQUE,
      commit_started_at BIGINT,
      item_id TEXT,
      committed_at BIGINT);
    CREATE INDEX workitems_drafts_by_content ON workitems_drafts (tenant, project_id, content_hash)`,
};
