import type { DemoPrincipal } from '@toolgate/simulation';

const CUSTOMER_SCOPES = ['orders:read', 'orders:write', 'operations:read'];
const SUPPORT_SCOPES = ['orders:read', 'shipments:read', 'shipments:redirect', 'operations:read'];
const OPERATOR_SCOPES = ['operations:read', 'operations:review'];

/** The demo identities of the orders world; their subjects own the demo orders. */
export const ORDER_PRINCIPALS: readonly DemoPrincipal[] = [
  {
    name: 'acme-customer-alice',
    subject: 'cus_acme_alice',
    tenant: 'acme',
    actor: 'customer',
    scopes: CUSTOMER_SCOPES,
    description: 'Acme customer with orders in every fulfilment state (US addresses).',
  },
  {
    name: 'acme-customer-bob',
    subject: 'cus_acme_bob',
    tenant: 'acme',
    actor: 'customer',
    scopes: CUSTOMER_SCOPES,
    description: 'Acme customer in the UK; one parcel in transit is not eligible for redirects.',
  },
  {
    name: 'acme-customer-carol',
    subject: 'cus_acme_carol',
    tenant: 'acme',
    actor: 'customer',
    scopes: CUSTOMER_SCOPES,
    description: 'Acme customer in Germany.',
  },
  {
    name: 'acme-support-sam',
    subject: 'agt_acme_sam',
    tenant: 'acme',
    actor: 'support_agent',
    scopes: SUPPORT_SCOPES,
    groups: ['support'],
    description: "Acme support agent: reads the tenant's orders and requests carrier redirects.",
  },
  {
    name: 'acme-operator-olivia',
    subject: 'opr_acme_olivia',
    tenant: 'acme',
    actor: 'operator',
    scopes: OPERATOR_SCOPES,
    groups: ['operations'],
    description: 'Acme operator: reviews operations whose outcome stayed unknown.',
  },
  {
    name: 'globex-customer-gina',
    subject: 'cus_globex_gina',
    tenant: 'globex',
    actor: 'customer',
    scopes: CUSTOMER_SCOPES,
    description: 'Customer of the second tenant, globex; her orders are invisible to acme.',
  },
  {
    name: 'globex-support-gus',
    subject: 'agt_globex_gus',
    tenant: 'globex',
    actor: 'support_agent',
    scopes: SUPPORT_SCOPES,
    groups: ['support'],
    description: 'Globex support agent.',
  },
];

/** The demo principal name of a subject, for fixtures. */
export function principalNameOf(tenant: string, subject: string): string | null {
  return ORDER_PRINCIPALS.find((p) => p.tenant === tenant && p.subject === subject)?.name ?? null;
}
