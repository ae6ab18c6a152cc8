import { createLocalJWKSet, type JWK, type JWTVerifyGetKey } from 'jose';

/** How the authorization server's key set is fetched and kept; see docs/operations.md. */
export const JWKS_TIMING = {
  /** The longest one fetch of the key set may take, body included. */
  fetchTimeoutMs: 3_000,
  /** The shortest time between two fetches, whatever asked for them (an unknown `kid`, a stale set). */
  cooldownMs: 5_000,
  /** How long a set is fresh when its response has no usable `Cache-Control: max-age`. */
  defaultMaxAgeSeconds: 600,
  /** The bounds a response's `max-age` is held to. */
  minMaxAgeSeconds: 30,
  maxMaxAgeSeconds: 86_400,
} as const;

/** What one key set may hold: a larger answer is refused unread, as a failed fetch. */
export const JWKS_LIMITS = {
  /** The most bytes of one answer read (a key set of many RSA keys is a few tens of KiB). */
  maxBodyBytes: 1024 * 1024,
  /** The most keys one set may list. */
  maxKeys: 100,
} as const;

/** The key set could not be fetched, so a token could not be checked: the token may well be good. */
export class KeySetUnavailable extends Error {
  readonly code = 'ERR_TOOLGATE_KEY_SET_UNAVAILABLE';
  constructor(
    message: string,
    /** When a new fetch may be tried, in whole seconds. */
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

interface FetchedSet {
  readonly keys: JWTVerifyGetKey;
  readonly freshUntil: number;
}

/**
 * An authorization server's JWKS, fetched once at a time (one fetch in flight however many requests
 * wait on it) with a timeout. A set stays fresh for its `Cache-Control: max-age` (bounded); a stale set
 * keeps verifying while it is refetched in the background, and when fetches fail or hang the last good
 * set keeps serving. A token whose key is not in the set triggers a refetch (at most one per cooldown)
 * so a newly published key works at once and a removed key stops working. `KeySetUnavailable` is thrown
 * only when no set was ever fetched, or the token's key is unknown and the refetch failed.
 */
export class JwksKeySet {
  readonly #url: URL;
  readonly #onFetchFailed: (error: unknown) => void;
  #set: FetchedSet | null = null;
  #inFlight: Promise<boolean> | null = null;
  #lastAttemptAt = Number.NEGATIVE_INFINITY;
  #lastAttemptOk = false;

  constructor(url: URL, onFetchFailed: (error: unknown) => void = () => {}) {
    this.#url = url;
    this.#onFetchFailed = onFetchFailed;
  }

  /** The key for a token's protected header, for `jwtVerify`. */
  readonly getKey: JWTVerifyGetKey = async (header, token) => {
    if (this.#set === null) await this.#refresh();
    else if (Date.now() >= this.#set.freshUntil) void this.#refresh();
    const set = this.#set;
    if (set === null) throw this.#unavailable('the issuer key set could not be fetched');
    try {
      return await set.keys(header, token);
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'ERR_JWKS_NO_MATCHING_KEY') throw error;
      const fetched = await this.#refresh();
      if (!fetched || this.#set === null) {
        throw this.#unavailable('the token names a key the issuer key set could not be refetched for');
      }
      return this.#set.keys(header, token);
    }
  };

  /**
   * Joins the fetch in flight, or starts one unless the last attempt is within the cooldown; answers
   * whether the latest attempt got a set.
   */
  #refresh(): Promise<boolean> {
    if (this.#inFlight) return this.#inFlight;
    if (Date.now() - this.#lastAttemptAt < JWKS_TIMING.cooldownMs)
      return Promise.resolve(this.#lastAttemptOk);
    this.#lastAttemptAt = Date.now();
    this.#inFlight = this.#fetch().finally(() => {
      this.#inFlight = null;
    });
    return this.#inFlight;
  }

  async #fetch(): Promise<boolean> {
    try {
      const response = await fetch(this.#url, {
        headers: { accept: 'application/json' },
        redirect: 'manual',
        signal: AbortSignal.timeout(JWKS_TIMING.fetchTimeoutMs),
      });
      if (response.status !== 200) {
        await response.body?.cancel();
        throw new Error(`the JWKS answered HTTP ${response.status}`);
      }
      const keys = createLocalJWKSet(keySetOf(await boundedText(response)));
      const maxAge = freshForSeconds(response.headers.get('cache-control'), response.headers.get('age'));
      this.#set = { keys, freshUntil: Date.now() + maxAge * 1000 };
      this.#lastAttemptOk = true;
    } catch (error) {
      this.#lastAttemptOk = false;
      this.#onFetchFailed(error);
    }
    return this.#lastAttemptOk;
  }

  #unavailable(message: string): KeySetUnavailable {
    const waitMs = this.#lastAttemptAt + JWKS_TIMING.cooldownMs - Date.now();
    return new KeySetUnavailable(message, Math.max(1, Math.ceil(waitMs / 1000)));
  }
}

/** The answer's body, read only up to JWKS_LIMITS.maxBodyBytes: a larger one is refused before it is parsed. */
async function boundedText(response: Response): Promise<string> {
  const limit = JWKS_LIMITS.maxBodyBytes;
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (declared > limit) {
    await response.body?.cancel();
    throw new Error(`the JWKS answer is ${declared} bytes, more than the ${limit} a key set may take`);
  }
  const chunks: Uint8Array[] = [];
  let length = 0;
  for await (const chunk of response.body ?? []) {
    length += chunk.byteLength;
    if (length > limit) throw new Error(`the JWKS answer exceeds the ${limit} bytes a key set may take`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The parsed key set, refused when it is not a JWKS or lists more keys than JWKS_LIMITS.maxKeys. */
function keySetOf(text: string): { keys: JWK[] } {
  const parsed = JSON.parse(text) as { keys?: unknown };
  if (!Array.isArray(parsed?.keys)) throw new Error('the JWKS answer has no keys array');
  if (parsed.keys.length > JWKS_LIMITS.maxKeys) {
    throw new Error(
      `the JWKS lists ${parsed.keys.length} keys, more than the ${JWKS_LIMITS.maxKeys} a set may hold`,
    );
  }
  return { keys: parsed.keys as JWK[] };
}

/** Seconds a fetched set stays fresh: `max-age` less `Age`, `no-cache`/`no-store` as zero, within bounds. */
function freshForSeconds(cacheControl: string | null, age: string | null): number {
  const { minMaxAgeSeconds, maxMaxAgeSeconds, defaultMaxAgeSeconds } = JWKS_TIMING;
  const directives = (cacheControl ?? '')
    .toLowerCase()
    .split(',')
    .map((d) => d.trim());
  let seconds: number = defaultMaxAgeSeconds;
  const maxAge = directives.find((d) => d.startsWith('max-age='));
  if (maxAge !== undefined && /^max-age="?\d+"?$/.test(maxAge)) {
    seconds = Number(maxAge.replace(/\D/g, '')) - (age !== null && /^\d+$/.test(age) ? Number(age) : 0);
  }
  if (directives.includes('no-cache') || directives.includes('no-store')) seconds = 0;
  return Math.min(maxMaxAgeSeconds, Math.max(minMaxAgeSeconds, seconds));
}
