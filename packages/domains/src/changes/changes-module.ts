import { simulationMigrations, withSimulation, withSimulationHooks } from '@toolgate/simulation';
import type { ToolgateModule } from 'toolgate';
import { withHonouredExceptions, withPolicyResource } from '../policy-hooks.ts';
import { CreationClaims } from './change-create-claims.ts';
import { changeServiceResource } from './change-policy-resource.ts';
import { ChangeService } from './change-service.ts';
import { changesCatalogMigration, changesCreateClaimsMigration } from './changes-migration.ts';
import { changesPrincipals } from './demo-catalog.ts';
import { changesFixtures, seedChangesWorld, simulateChangePlatform } from './demo-world.ts';
import { honouredMaintenanceWindow, maintenanceWindowException } from './maintenance-window-exception.ts';
import { ServiceCatalog } from './service-catalog.ts';
import { ChangePlatform } from './systems/change-platform/change-platform.ts';
import { changePlatformMigration } from './systems/change-platform/change-platform-migration.ts';
import { ChangePlatformWorld } from './systems/change-platform/change-platform-world.ts';
import { CHANGE_PLATFORM } from './systems/change-platform/change-record.ts';
import { changeCreateTool } from './tools/change-create-tool.ts';
import { changeGetTool } from './tools/change-get-tool.ts';
import { changeSearchTool } from './tools/change-search-tool.ts';
import { cmdbServiceResolveTool } from './tools/cmdb-service-resolve-tool.ts';

/** Change management (seed 003): a governed, dry-run-first create over a multi-step change platform. */
export const changesDomain: ToolgateModule = {
  name: 'changes',
  migrations: [
    ...simulationMigrations,
    changesCatalogMigration,
    changePlatformMigration,
    changesCreateClaimsMigration,
  ],
  create(moduleContext) {
    const context = withSimulation(moduleContext);
    const platform = new ChangePlatform(context);
    const world = new ChangePlatformWorld(context);
    const catalog = new ServiceCatalog(context.db);
    const maintenanceWindow = maintenanceWindowException(catalog);
    const service = new ChangeService(catalog, platform, context.clock, context.exceptions);
    const claims = new CreationClaims(context.db, context.clock, context.exceptions);
    const deps = { catalog, platform, world, clock: context.clock };
    return withSimulationHooks(
      {
        tools: [
          withHonouredExceptions(
            withPolicyResource(changeCreateTool(service, claims), changeServiceResource(catalog)),
            [honouredMaintenanceWindow(maintenanceWindow)],
          ),
          changeGetTool(service),
          changeSearchTool(service),
          cmdbServiceResolveTool(service),
        ],
        exceptions: [maintenanceWindow],
      },
      {
        principals: changesPrincipals,
        async seed() {
          const [present] = await context.db.query('SELECT service_id FROM changes_services LIMIT 1');
          if (!present) await seedChangesWorld(deps);
        },
        async reset() {
          context.faults.clear(CHANGE_PLATFORM);
          await context.ledger.clear([CHANGE_PLATFORM]);
          await world.reset();
          await claims.clear();
          await catalog.clear();
        },
        fixtures: () => changesFixtures(deps),
        introduction: () => ({
          principal: 'changes_engineer',
          ids: [
            'services of acme for change_create (as changes_engineer): payments-api, checkout-web, ledger-db',
          ],
        }),
        async simulate(target, action, params) {
          return target === CHANGE_PLATFORM ? simulateChangePlatform(deps, action, params) : null;
        },
      },
    );
  },
};
