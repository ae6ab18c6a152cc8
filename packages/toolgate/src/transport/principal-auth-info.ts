import type { AuthInfo } from '@modelcontextprotocol/server';
import type { Principal } from '../auth/principal.ts';

/**
 * The SDK hands request handlers an `AuthInfo`; the principal behind it is kept here rather than in
 * `extra`, so a handler can only ever see a principal this process verified. The token itself is
 * not carried: nothing past the transport needs it, and it must never be forwarded.
 */
const principals = new WeakMap<AuthInfo, Principal>();

export function authInfoFor(principal: Principal): AuthInfo {
  const info: AuthInfo = {
    token: '',
    clientId: principal.subject,
    scopes: [...principal.scopes],
    extra: { tenant: principal.tenant, actor: principal.actor },
  };
  principals.set(info, principal);
  return info;
}

export function principalFromAuthInfo(info: AuthInfo | undefined): Principal | null {
  return info ? (principals.get(info) ?? null) : null;
}
