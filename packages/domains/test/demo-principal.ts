import type { DemoPrincipal } from '@toolgate/simulation';
import type { Principal } from 'toolgate';

/**
 * The principal a verified token of the named demo principal would carry; a Principal passes through,
 * so a test can also call as someone the demo world does not list.
 */
export function demoPrincipalNamed(principals: readonly DemoPrincipal[], who: string | Principal): Principal {
  if (typeof who !== 'string') return who;
  const demo = principals.find((p) => p.name === who);
  if (!demo) throw new Error(`no demo principal ${who}`);
  return {
    subject: demo.subject,
    tenant: demo.tenant,
    actor: demo.actor,
    scopes: new Set(demo.scopes),
    ...(demo.groups ? { groups: [...new Set(demo.groups)].sort() } : {}),
  };
}
