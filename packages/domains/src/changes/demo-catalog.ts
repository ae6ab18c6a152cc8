import type { DemoPrincipal } from '@toolgate/simulation';
import type { CatalogService, ServiceWindows } from './service-catalog.ts';

const READ = ['changes:read', 'cmdb:read', 'operations:read'];

/** Demo identities of the change-management domain. */
export const changesPrincipals: readonly DemoPrincipal[] = [
  {
    name: 'changes_engineer',
    subject: 'eng.rivera',
    tenant: 'acme',
    actor: 'support_agent',
    scopes: [...READ, 'changes:create', 'changes:create:production'],
    groups: ['team-discovery', 'team-payments', 'team-storefront'],
    description:
      'Change engineer of acme in team-payments, team-storefront and team-discovery: creates changes for their services in every environment, production included (not ledger-db, which team-ledger owns).',
  },
  {
    name: 'changes_engineer_nonprod',
    subject: 'eng.okafor',
    tenant: 'acme',
    actor: 'support_agent',
    scopes: [...READ, 'changes:create'],
    groups: ['team-discovery', 'team-payments'],
    description: 'Change engineer of acme without production scope: production changes are FORBIDDEN.',
  },
  {
    name: 'changes_other_tenant',
    subject: 'eng.lindqvist',
    tenant: 'globex',
    actor: 'support_agent',
    scopes: [...READ, 'changes:create', 'changes:create:production'],
    groups: ['globex-ops', 'globex-web'],
    description: "Change engineer of globex: sees globex's catalog and changes only, nothing of acme.",
  },
  {
    name: 'changes_approver',
    subject: 'appr.chen',
    tenant: 'acme',
    actor: 'operator',
    scopes: [...READ, 'changes:approve'],
    description:
      'Change approver of acme: grants and revokes maintenance-window exceptions in the operator console.',
  },
];

export interface DemoService {
  readonly service: CatalogService;
  readonly windows: readonly Omit<ServiceWindows, 'serviceId'>[];
}

const SAT = 6;
const SUN = 0;
const weekdays = (startMinute: number, lengthMinutes: number) =>
  [1, 2, 3, 4, 5].map((weekday) => ({ weekday, startMinute, lengthMinutes }));

/**
 * The demo catalogs. payments-api's production windows (Saturdays and Sundays 06:00-10:00 UTC,
 * i.e. 01:00-05:00 at -05:00) are the ones seed 003's examples are written against.
 */
export const demoServices: readonly DemoService[] = [
  service(
    'acme',
    'payments-api',
    'Payments API',
    ['payments service', 'payment gateway api'],
    'team-payments',
    'critical',
    [
      { weekday: SAT, startMinute: 360, lengthMinutes: 240 },
      { weekday: SUN, startMinute: 360, lengthMinutes: 240 },
    ],
  ),
  service(
    'acme',
    'checkout-web',
    'Checkout Web',
    ['checkout site', 'checkout frontend'],
    'team-storefront',
    'high',
    [
      { weekday: 2, startMinute: 1260, lengthMinutes: 120 },
      { weekday: 4, startMinute: 1260, lengthMinutes: 120 },
    ],
  ),
  service(
    'acme',
    'ledger-db',
    'Ledger Database',
    ['ledger postgres', 'accounting database'],
    'team-ledger',
    'critical',
    [{ weekday: SUN, startMinute: 120, lengthMinutes: 180 }],
  ),
  service(
    'acme',
    'payments-reporting',
    'Payments Reporting',
    ['payment reports'],
    'team-finance-data',
    'medium',
    [{ weekday: 3, startMinute: 1080, lengthMinutes: 120 }],
  ),
  service(
    'acme',
    'notifications-worker',
    'Notifications Worker',
    ['email sender', 'notification service'],
    'team-messaging',
    'medium',
    weekdays(840, 120),
  ),
  service(
    'acme',
    'search-indexer',
    'Search Indexer',
    ['product search indexing'],
    'team-discovery',
    'low',
    [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, startMinute: 0, lengthMinutes: 360 })),
  ),
  service(
    'acme',
    'legacy-billing',
    'Legacy Billing',
    ['old billing system'],
    'team-payments',
    'high',
    [],
    'retired',
  ),
  service('globex', 'storefront-api', 'Storefront API', ['shop api'], 'globex-web', 'critical', [
    { weekday: SAT, startMinute: 120, lengthMinutes: 240 },
  ]),
  service(
    'globex',
    'inventory-sync',
    'Inventory Sync',
    ['stock sync'],
    'globex-ops',
    'medium',
    weekdays(600, 120),
  ),
];

function service(
  tenant: string,
  serviceId: string,
  name: string,
  aliases: string[],
  ownerGroup: string,
  criticality: CatalogService['criticality'],
  productionWindows: ServiceWindows['rules'],
  status: CatalogService['status'] = 'active',
): DemoService {
  return {
    service: { tenant, serviceId, name, aliases, ownerGroup, criticality, status },
    windows: [{ environment: 'production', rules: productionWindows }],
  };
}
