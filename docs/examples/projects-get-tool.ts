import { defineErrorCodes, defineTool, outcome } from 'toolgate';
import { z } from 'zod';

const projectErrors = defineErrorCodes({
  PROJECT_NOT_FOUND: {
    category: 'not_found',
    retryable: false,
    description: 'No project with this id is visible to the caller; search instead of guessing ids.',
  },
});

const projects = new Map([['prj_0a1b2c3d', { project_id: 'prj_0a1b2c3d', name: 'Billing', tenant: 'acme' }]]);

export const projectsGet = defineTool({
  name: 'projects_get',
  title: 'Read a project',
  description:
    'Returns one project the caller may see: its id and name. Use it before changing a project; ' +
    'do not use it to search (use projects_search). Unknown or foreign ids answer PROJECT_NOT_FOUND.',
  kind: 'read',
  version: '1.0.0',
  input: z.strictObject({
    project_id: z
      .string()
      .regex(/^prj_[0-9a-z]{8}$/)
      .describe('Project id: prj_ and 8 characters.'),
  }),
  output: z.strictObject({ project_id: z.string(), name: z.string() }),
  errors: [projectErrors.PROJECT_NOT_FOUND],
  scopes: ['projects:read'],
  timeoutMs: 2_000,
  examples: [{ title: 'Read one project', input: { project_id: 'prj_0a1b2c3d' } }],
  async handler(input, ctx) {
    const project = projects.get(input.project_id);
    // Another tenant's project answers exactly like a missing one: no existence leak.
    if (!project || project.tenant !== ctx.principal.tenant) {
      return outcome.rejected('PROJECT_NOT_FOUND', 'No such project is visible to you.');
    }
    return outcome.completed({ project_id: project.project_id, name: project.name });
  },
});
