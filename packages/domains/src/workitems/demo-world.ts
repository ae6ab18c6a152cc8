import type { DemoPrincipal } from '@toolgate/simulation';
import type { Permission, Visibility } from './project-access.ts';
import type { ItemFields, ItemState, TrackerMode } from './systems/tracker/tracker-model.ts';

const MEMBER = 'usr_wi_alice';
const VIEWER = 'usr_wi_bob';
const SECURITY_LEAD = 'usr_wi_sam';
const OTHER_TENANT_MEMBER = 'usr_wi_gina';

export const workitemsPrincipals: readonly DemoPrincipal[] = [
  {
    name: 'workitems_member',
    subject: MEMBER,
    tenant: 'acme',
    actor: 'support_agent',
    scopes: ['workitems:read', 'workitems:write', 'operations:read'],
    description: 'Writes to WEB and OPS; may read the restricted SEC project but not write to it.',
  },
  {
    name: 'workitems_viewer',
    subject: VIEWER,
    tenant: 'acme',
    actor: 'support_agent',
    scopes: ['workitems:read', 'operations:read'],
    description:
      'No memberships: reads the tenant-visible projects WEB and OPS, nothing of SEC; cannot write.',
  },
  {
    name: 'workitems_other_tenant',
    subject: OTHER_TENANT_MEMBER,
    tenant: 'globex',
    actor: 'support_agent',
    scopes: ['workitems:read', 'workitems:write', 'operations:read'],
    description: "Writes to globex's APP project; sees nothing of tenant acme.",
  },
];

export interface DemoProject {
  readonly tenant: string;
  readonly projectId: string;
  readonly name: string;
  readonly visibility: Visibility;
  readonly trackerMode: TrackerMode;
  /** The project's role in tests and scenarios. */
  readonly role: string;
  readonly members: Readonly<Record<string, Permission>>;
  readonly items: readonly (Partial<ItemFields> & { title: string; state?: ItemState })[];
}

export const demoProjects: readonly DemoProject[] = [
  {
    tenant: 'acme',
    projectId: 'WEB',
    name: 'Web shop',
    visibility: 'tenant',
    trackerMode: 'idempotent',
    role: 'writable_idempotent',
    members: { [MEMBER]: 'write' },
    items: [
      { title: 'Checkout button misaligned on mobile Safari', type: 'bug', priority: 'high' },
      { title: 'Export order history as CSV', type: 'story', state: 'in_progress' },
      { title: 'Update the cookie banner wording', state: 'resolved' },
    ],
  },
  {
    tenant: 'acme',
    projectId: 'OPS',
    name: 'Operations (legacy tracker)',
    visibility: 'tenant',
    trackerMode: 'unprotected',
    role: 'writable_unprotected',
    members: { [MEMBER]: 'write' },
    items: [
      { title: 'Rotate TLS certificates on the edge proxies' },
      { title: 'Nightly backup job exceeds its window', type: 'bug', priority: 'high' },
    ],
  },
  {
    tenant: 'acme',
    projectId: 'SEC',
    name: 'Security incidents',
    visibility: 'restricted',
    trackerMode: 'idempotent',
    role: 'restricted_read_only',
    members: { [MEMBER]: 'read', [SECURITY_LEAD]: 'write' },
    items: [{ title: 'Review who can download payroll exports', priority: 'urgent' }],
  },
  {
    tenant: 'globex',
    projectId: 'APP',
    name: 'Mobile app',
    visibility: 'tenant',
    trackerMode: 'idempotent',
    role: 'other_tenant',
    members: { [OTHER_TENANT_MEMBER]: 'write' },
    items: [{ title: 'Push notifications arrive twice on Android', type: 'bug' }],
  },
];

/** The full fields of a seeded item; seeded items are filed by the project's first member. */
export function seedItemFields(item: DemoProject['items'][number]): ItemFields {
  return {
    title: item.title,
    description: item.description ?? `${item.title}. Filed before the gateway existed.`,
    type: item.type ?? 'task',
    priority: item.priority ?? 'medium',
    labels: item.labels ?? [],
  };
}
