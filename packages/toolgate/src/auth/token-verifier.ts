import { type JWTVerifyResult, jwtVerify } from 'jose';
import type { Logger } from 'pino';
import { DEV_ALGORITHM, DEV_ISSUER, loadOrCreateDevKeys } from './dev-keys.ts';
import { JwksKeySet, KeySetUnavailable } from './jwks-key-set.ts';
import { type ClaimsVerdict, principalFromClaims } from './token-claims.ts';
import { DEFAULT_MAX_TOKEN_LIFETIME_SECONDS } from './token-defaults.ts';
import { VerifiedTokenCache } from './verified-token-cache.ts';

/** Asymmetric algorithms only: never `none`, never HS* (a public key must not double as an HMAC secret). */
const ASYMMETRIC_ALGORITHMS = [
  'ES256',
  'ES384',
  'ES512',
  'PS256',
  'PS384',
  'PS512',
  'RS256',
  'RS384',
  'RS512',
  'EdDSA',
] as const;

/**
 * Where verification keys come from: the data dir's dev key, or an authorization server's JWKS. Tokens
 * must carry the JWT header `typ: at+jwt` (RFC 9068): always for dev tokens, and for an external issuer
 * unless `requireTokenType` is false (for issuers that cannot set it).
 */
export type KeySource =
  | { readonly kind: 'dev'; readonly dataDir: string }
  | {
      readonly kind: 'jwks';
      readonly jwksUrl: string;
      readonly issuer: string;
      readonly requireTokenType?: boolean;
    };

/**
 * What a check of a token concluded: a principal, a refusal of the token (`401 invalid_token`), or,
 * with `retryAfterSeconds`, that the token could not be checked now (the issuer's keys are out of
 * reach) and says nothing about the token.
 */
export type TokenVerdict = ClaimsVerdict | { ok: false; detail: string; retryAfterSeconds: number };

export interface TokenVerifier {
  readonly issuer: string;
  /** The resource URL tokens must name in `aud`. */
  readonly audience: string;
  verify(token: string): Promise<TokenVerdict>;
  /** Whether the token was verified recently and is still remembered (so it is a well-formed token). */
  knows(token: string): boolean;
}

const CLOCK_TOLERANCE_SECONDS = 5;

/** Checks beyond the signature that bound how long a token is good for. */
export interface TokenPolicy {
  /** The longest a token may live, `exp` minus `iat` (or minus now, without `iat`); default 24 h. */
  readonly maxLifetimeSeconds: number;
  /**
   * Dev keys only: accept any `aud`. A stdio server has no address for a token to name; its data
   * dir's key alone binds a token to it, so the token an HTTP banner printed works there too.
   */
  readonly anyDevAudience: boolean;
}

export { DEFAULT_MAX_TOKEN_LIFETIME_SECONDS };

/**
 * Verifies bearer tokens: signature, issuer, audience, exp, nbf, the algorithm allow-list, an `iat`
 * not in the future, a lifetime within the policy, and `typ: at+jwt` (see KeySource). Then maps the
 * claims to a Principal. Verified tokens are remembered briefly so a busy client does not pay for a
 * signature check on every call. A JWKS that cannot be reached never turns a token into a refusal:
 * the verdict then carries `retryAfterSeconds` (see JwksKeySet).
 */
export async function createTokenVerifier(
  source: KeySource,
  audience: string,
  policy: Partial<TokenPolicy> = {},
  log?: Logger,
): Promise<TokenVerifier> {
  const issuer = source.kind === 'dev' ? DEV_ISSUER : source.issuer;
  const maxLifetimeSeconds = policy.maxLifetimeSeconds ?? DEFAULT_MAX_TOKEN_LIFETIME_SECONDS;
  const checkAudience = !(source.kind === 'dev' && policy.anyDevAudience === true);
  const options = {
    issuer,
    ...(checkAudience ? { audience } : {}),
    algorithms: source.kind === 'dev' ? [DEV_ALGORITHM] : [...ASYMMETRIC_ALGORITHMS],
    requiredClaims: ['exp', 'sub'],
    clockTolerance: CLOCK_TOLERANCE_SECONDS,
    ...(source.kind === 'dev' || source.requireTokenType !== false ? { typ: 'at+jwt' } : {}),
  };
  let checkSignature: (token: string) => Promise<JWTVerifyResult>;
  if (source.kind === 'dev') {
    const publicKey = (await loadOrCreateDevKeys(source.dataDir)).publicKey;
    checkSignature = (token) => jwtVerify(token, publicKey, options);
  } else {
    const jwks = new JwksKeySet(new URL(source.jwksUrl), (error) =>
      log?.warn(
        { err: error, jwksUrl: source.jwksUrl },
        'issuer key set could not be fetched; tokens are checked with the last good set, if any',
      ),
    );
    checkSignature = (token) => jwtVerify(token, jwks.getKey, options);
  }
  const cache = new VerifiedTokenCache();
  return {
    issuer,
    audience,
    knows: (token) => cache.get(token) !== null,
    async verify(token) {
      const cached = cache.get(token);
      if (cached) return { ok: true, principal: cached };
      try {
        const { payload } = await checkSignature(token);
        const now = Math.floor(Date.now() / 1000);
        if (payload.iat !== undefined && payload.iat > now + CLOCK_TOLERANCE_SECONDS) {
          return { ok: false, detail: 'token issued in the future (iat)' };
        }
        const lifetime = (payload.exp ?? 0) - (payload.iat ?? now);
        if (lifetime > maxLifetimeSeconds) {
          return { ok: false, detail: `token lifetime exceeds ${maxLifetimeSeconds} seconds` };
        }
        const verdict = principalFromClaims(payload);
        if (verdict.ok) cache.put(token, verdict.principal, (payload.exp ?? 0) * 1000);
        return verdict;
      } catch (error) {
        if (error instanceof KeySetUnavailable) {
          return {
            ok: false,
            detail: `token cannot be checked now: ${error.message}`,
            retryAfterSeconds: error.retryAfterSeconds,
          };
        }
        return { ok: false, detail: describeRejection(error, audience, source.kind) };
      }
    },
  };
}

/** A short reason for the 401 and the log; never the token itself. */
function describeRejection(error: unknown, audience: string, keys: 'dev' | 'jwks'): string {
  const code = (error as { code?: unknown }).code;
  switch (code) {
    case 'ERR_JWT_EXPIRED':
      return 'token expired';
    case 'ERR_JWT_CLAIM_VALIDATION_FAILED': {
      const claim = (error as { claim?: string }).claim ?? 'claim';
      if (claim === 'typ') return 'token type must be at+jwt (JWT header typ, RFC 9068)';
      // The resource URL is public (it is in the metadata document): naming it saves a guess.
      if (claim === 'aud') return `token audience does not match: this server expects aud ${audience}`;
      return `token claim check failed: ${claim}`;
    }
    case 'ERR_JOSE_ALG_NOT_ALLOWED':
      return 'token algorithm not allowed';
    case 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED':
      // With dev keys the usual cause is a token minted next to another data dir (another key).
      return keys === 'dev'
        ? "token signature invalid: this server's dev key did not sign it; mint it with `toolgate token` and the same --data-dir (or TOOLGATE_DATA_DIR) as serve"
        : 'token signature invalid';
    case 'ERR_JWKS_NO_MATCHING_KEY':
      return 'no key matches the token';
    default:
      return 'token malformed or not verifiable';
  }
}
