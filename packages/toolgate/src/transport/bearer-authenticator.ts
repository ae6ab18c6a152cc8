import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { Principal } from '../auth/principal.ts';
import { bearerChallenge } from '../auth/resource-metadata.ts';
import type { TokenVerifier } from '../auth/token-verifier.ts';
import type { GatewayMetrics } from '../telemetry/metrics.ts';
import { sendJson } from './http-replies.ts';

/** A refusal; with `retryAfterSeconds`, the token could not be checked (answered 503, not 401). */
export type Authentication =
  | { ok: true; principal: Principal }
  | { ok: false; tokenPresent: boolean; detail: string; retryAfterSeconds?: number };

const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

/**
 * The token of an `Authorization: Bearer <token68>` header, or null when the header is not one. The
 * common spelling ("Bearer " and the token, nothing after it) is read without the regular expression,
 * whose run over a long token costs more than the rest of the check; the token still has to pass the
 * token68 alphabet, checked by the verifier's cache or by the expression.
 */
export function bearerToken(header: string, known: (token: string) => boolean): string | null {
  if (header.startsWith('Bearer ') && header.charCodeAt(7) !== 32) {
    const token = header.slice(7);
    // A token the cache holds was read from a well-formed header before.
    if (known(token)) return token;
  }
  return BEARER.exec(header)?.[1] ?? null;
}

/**
 * The identity layer at the HTTP edge: every request to a protected path carries a verified bearer token, or
 * (only when configured, on loopback) acts as the local principal. Tokens are never logged.
 */
export class BearerAuthenticator {
  readonly #verifier: TokenVerifier;
  readonly #localPrincipalToken: string | null;
  readonly #metadataUrl: string;
  readonly #log: Logger;
  readonly #metrics: GatewayMetrics;

  constructor(
    verifier: TokenVerifier,
    localPrincipalToken: string | null,
    metadataUrl: string,
    log: Logger,
    metrics: GatewayMetrics,
  ) {
    this.#verifier = verifier;
    this.#localPrincipalToken = localPrincipalToken;
    this.#metadataUrl = metadataUrl;
    this.#log = log;
    this.#metrics = metrics;
  }

  async authenticate(req: IncomingMessage): Promise<Authentication> {
    const header = req.headers.authorization;
    if (header === undefined) {
      if (this.#localPrincipalToken === null) {
        return { ok: false, tokenPresent: false, detail: 'bearer token required' };
      }
      // Verified on every request (from the cache) so the local principal ends when its token does.
      const verdict = await this.#verifier.verify(this.#localPrincipalToken);
      return verdict.ok
        ? verdict
        : { ...verdict, tokenPresent: false, detail: `local principal: ${verdict.detail}` };
    }
    const token = bearerToken(header, (candidate) => this.#verifier.knows(candidate));
    if (token === null)
      return { ok: false, tokenPresent: true, detail: 'Authorization is not a Bearer token' };
    const verdict = await this.#verifier.verify(token);
    return verdict.ok ? verdict : { ...verdict, tokenPresent: true };
  }

  /**
   * Answers 401 with the challenge that points clients at the protected-resource metadata; or, when
   * the token could not be checked, 503 with `Retry-After` and no challenge, so a client keeps its
   * token and does not go back to an authorization server that is struggling already.
   */
  refuse(res: ServerResponse, failure: Extract<Authentication, { ok: false }>): void {
    if (failure.retryAfterSeconds !== undefined) {
      // Counted by toolgate_http_requests_total with status 503; the unauthenticated counter is for 401s.
      this.#log.warn({ reason: failure.detail }, 'request refused: token cannot be checked now');
      sendJson(
        res,
        503,
        { error: 'temporarily_unavailable', error_description: failure.detail },
        { 'retry-after': String(failure.retryAfterSeconds) },
      );
      return;
    }
    this.#log.info({ reason: failure.detail }, 'request refused: not authenticated');
    this.#metrics.unauthenticated.inc({ token: failure.tokenPresent ? 'invalid' : 'missing' });
    sendJson(
      res,
      401,
      { error: failure.tokenPresent ? 'invalid_token' : 'unauthorized', error_description: failure.detail },
      { 'www-authenticate': bearerChallenge(this.#metadataUrl, failure.tokenPresent) },
    );
  }
}
