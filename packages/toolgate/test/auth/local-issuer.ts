import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWK, type JWTHeaderParameters, SignJWT } from 'jose';

/**
 * An authorization server's JWKS on a loopback port: keys can be published and removed, the answer can
 * carry a Cache-Control, and the endpoint can hang (accept and never answer). It counts fetches and the
 * most it had in flight at once.
 */
export interface LocalIssuer {
  readonly issuer: string;
  readonly jwksUrl: string;
  /** Adds an RS256 key under this kid. */
  publish(kid: string): Promise<void>;
  remove(kid: string): void;
  /** A token signed with the kid's key (published now or before); `header` overrides the protected header (typ at+jwt unless set). */
  sign(kid: string, audience: string, header?: Partial<JWTHeaderParameters>): Promise<string>;
  hang: boolean;
  cacheControl: string | null;
  /** Answers this body instead of the published keys (null: the keys). */
  body: string | null;
  readonly stats: { fetches: number; inFlight: number; maxInFlight: number };
  close(): Promise<void>;
}

export async function startLocalIssuer(): Promise<LocalIssuer> {
  const published = new Map<string, JWK>();
  // Kept after a key is removed from the set, so tests can sign with a key the issuer withdrew.
  const signers = new Map<string, CryptoKey>();
  const hanging = new Set<ServerResponse>();
  const stats = { fetches: 0, inFlight: 0, maxInFlight: 0 };
  const state = { hang: false, cacheControl: null as string | null, body: null as string | null };
  const server = createServer((_req, res) => {
    stats.fetches += 1;
    stats.inFlight += 1;
    stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight);
    res.once('close', () => {
      stats.inFlight -= 1;
      hanging.delete(res);
    });
    if (state.hang) {
      hanging.add(res);
      return;
    }
    res.writeHead(200, {
      'content-type': 'application/json',
      ...(state.cacheControl === null ? {} : { 'cache-control': state.cacheControl }),
    });
    res.end(state.body ?? JSON.stringify({ keys: [...published.values()] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const issuer = 'https://login.example.com/';
  return {
    issuer,
    jwksUrl: `http://127.0.0.1:${port}/jwks.json`,
    stats,
    get hang() {
      return state.hang;
    },
    set hang(value: boolean) {
      state.hang = value;
    },
    get body() {
      return state.body;
    },
    set body(value: string | null) {
      state.body = value;
    },
    get cacheControl() {
      return state.cacheControl;
    },
    set cacheControl(value: string | null) {
      state.cacheControl = value;
    },
    async publish(kid) {
      const pair = await generateKeyPair('RS256');
      const jwk = { ...(await exportJWK(pair.publicKey)), kid, alg: 'RS256', use: 'sig' };
      published.set(kid, jwk);
      signers.set(kid, pair.privateKey);
    },
    remove(kid) {
      published.delete(kid);
    },
    async sign(kid, audience, header = {}) {
      const key = signers.get(kid);
      if (!key) throw new Error(`no key ${kid} was published`);
      return new SignJWT({ tenant: 'tenant_probe', actor: 'customer', scope: 'probe:read' })
        .setProtectedHeader({ alg: 'RS256', kid, typ: 'at+jwt', ...header })
        .setSubject('user_probe_reader')
        .setIssuer(issuer)
        .setAudience(audience)
        .setIssuedAt()
        .setExpirationTime('10m')
        .setJti(crypto.randomUUID())
        .sign(key);
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
