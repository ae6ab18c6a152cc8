import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { Principal } from '../auth/principal.ts';

/**
 * The identity layer. Transports verify the bearer token before any tool code runs (HTTP answers 401);
 * this layer only refuses a call that somehow arrived without a verified principal.
 */
export function requirePrincipal(principal: Principal | null | undefined): Principal {
  if (!principal)
    throw new ProtocolError(ProtocolErrorCode.InvalidRequest, 'No verified principal for this call');
  return principal;
}
