import { SignJWT } from 'jose';
import { DEV_ALGORITHM, DEV_ISSUER, type DevKeys } from './dev-keys.ts';
import type { TokenSubject } from './token-claims.ts';

import { DEFAULT_TOKEN_TTL_SECONDS } from './token-defaults.ts';

export interface MintOptions {
  /** The resource URL of the server that will accept the token (its `aud`). */
  readonly audience: string;
  readonly ttlSeconds?: number;
  readonly issuer?: string;
  /** Seconds from now before which the token is not valid (tests of `nbf`). */
  readonly notBeforeSeconds?: number;
}

/** Signs a dev token with the data dir's key; the server using the same data dir accepts it. */
export async function mintToken(keys: DevKeys, subject: TokenSubject, options: MintOptions): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const jwt = new SignJWT({
    tenant: subject.tenant,
    actor: subject.actor,
    scope: subject.scopes.join(' '),
    ...(subject.groups && subject.groups.length > 0 ? { groups: [...subject.groups] } : {}),
    ...(subject.application ? { azp: subject.application } : {}),
  })
    .setProtectedHeader({ alg: DEV_ALGORITHM, kid: keys.kid, typ: 'at+jwt' })
    .setSubject(subject.sub)
    .setIssuer(options.issuer ?? DEV_ISSUER)
    .setAudience(options.audience)
    .setIssuedAt(now)
    .setExpirationTime(now + (options.ttlSeconds ?? DEFAULT_TOKEN_TTL_SECONDS))
    .setJti(crypto.randomUUID());
  if (options.notBeforeSeconds !== undefined) jwt.setNotBefore(now + options.notBeforeSeconds);
  return jwt.sign(keys.privateKey);
}
