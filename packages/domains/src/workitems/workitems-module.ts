import { simulationMigrations, withSimulation, withSimulationHooks } from '@toolgate/simulation';
import type { ModuleContext, ModuleInstance, ToolgateModule } from 'toolgate';
import { withPolicyResource } from '../policy-hooks.ts';
import { commitTool } from './commit-tool.ts';
import { createDraftTool } from './create-draft-tool.ts';
import { demoProjects, seedItemFields, workitemsPrincipals } from './demo-world.ts';
import { DraftCommitter } from './draft-commit.ts';
import { draftStore } from './draft-store.ts';
import { getTool } from './get-tool.ts';
import { ProjectDirectory } from './project-access.ts';
import { projectResource } from './project-policy-resource.ts';
import { searchTool } from './search-tool.ts';
import { SimulatedTracker } from './systems/tracker/simulated-tracker.ts';
import { trackerMigration } from './systems/tracker/tracker-migration.ts';
import { TRACKER_SYSTEM } from './systems/tracker/tracker-model.ts';
import { TrackerWorld } from './systems/tracker/tracker-world.ts';
import { workitemsMigration } from './workitems-migration.ts';
import { WorkItemsService } from './workitems-service.ts';

/** Seed 002: work items prepared as drafts and committed to a tracker that may or may not deduplicate. */
export const workitemsDomain: ToolgateModule = {
  name: 'workitems',
  migrations: [...simulationMigrations, trackerMigration, workitemsMigration],
  create(moduleContext: ModuleContext): ModuleInstance {
    const context = withSimulation(moduleContext);
    const { db, clock } = context;
    const tracker = new SimulatedTracker(context);
    const world = new TrackerWorld(context);
    const projects = new ProjectDirectory(db);
    const deps = { db, tracker, projects, clock };
    const service = new WorkItemsService(deps);
    const committer = new DraftCommitter(deps);

    return withSimulationHooks(
      {
        tools: [
          withPolicyResource(createDraftTool(service), projectResource(db)),
          withPolicyResource(commitTool(committer), projectResource(db)),
          getTool(service),
          searchTool(service),
        ],
      },
      {
        principals: workitemsPrincipals,
        async seed() {
          const [present] = await db.query('SELECT project_id FROM workitems_projects LIMIT 1');
          if (present) return;
          for (const project of demoProjects) {
            const { tenant, projectId, name, visibility } = project;
            await projects.define({ tenant, projectId, name, visibility }, project.members);
            await world.defineProject(tenant, projectId, name, project.trackerMode);
            const filer = Object.keys(project.members)[0] ?? 'tracker-user';
            for (const item of project.items) {
              const created = await world.addItem(tenant, projectId, filer, seedItemFields(item), false);
              if (item.state && item.state !== 'open')
                await world.setItemState(tenant, created.itemId, item.state);
            }
          }
        },
        async reset() {
          context.faults.clear(TRACKER_SYSTEM);
          await context.ledger.clear([TRACKER_SYSTEM]);
          await draftStore.clear(db);
          await db.execute('DELETE FROM workitems_members');
          await db.execute('DELETE FROM workitems_projects');
          await world.reset();
        },
        async fixtures() {
          const items: Record<string, unknown>[] = [];
          for (const project of demoProjects) {
            const found = await tracker.searchItems({
              tenant: project.tenant,
              projectKey: project.projectId,
              text: null,
              beforeSeq: null,
              limit: 50,
            });
            for (const item of found) {
              items.push({ tenant: item.tenant, item_id: item.itemId, title: item.title, state: item.state });
            }
          }
          return {
            workitems: {
              principals: Object.fromEntries(workitemsPrincipals.map((p) => [p.name, p.description])),
              projects: demoProjects.map((p) => ({
                tenant: p.tenant,
                project_id: p.projectId,
                name: p.name,
                visibility: p.visibility,
                tracker_mode: p.trackerMode,
                role: p.role,
                members: p.members,
              })),
              projects_by_role: Object.fromEntries(demoProjects.map((p) => [p.role, p.projectId])),
              items,
            },
          };
        },
        async simulate(target, action, params) {
          return target === TRACKER_SYSTEM ? world.simulate(action, params) : null;
        },
        introduction: () => ({
          principal: 'workitems_member',
          ids: [
            'work-item projects of acme (as workitems_member): WEB (deduplicating tracker), OPS (no duplicate protection)',
          ],
        }),
      },
    );
  },
};
