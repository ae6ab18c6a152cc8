import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { publishOnce, readSecretFile } from './secret-file.ts';

export const CONSENT_KEY_FILE = 'consent-state.key';
/** The environment variable that gives every gateway of a fleet the same consent key. */
export const CONSENT_KEY_ENV = 'TOOLGATE_CONSENT_KEY';
/** The HMAC key must be at least this long (the SDK's codec refuses shorter ones). */
export const CONSENT_KEY_MIN_BYTES = 32;

/**
 * The key that integrity-protects confirmation state (`requestState`) while it travels through the
 * client. Every gateway that may receive the retry needs the same one, so it is never per process:
 * `TOOLGATE_CONSENT_KEY` (at least 32 bytes) when set, else a random key created once in the data
 * dir and shared by every gateway started on it.
 */
export function loadConsentKey(dataDir: string, env: NodeJS.ProcessEnv = process.env): string {
  const given = env[CONSENT_KEY_ENV];
  if (given !== undefined && given !== '') {
    if (Buffer.byteLength(given) < CONSENT_KEY_MIN_BYTES) {
      throw new Error(`${CONSENT_KEY_ENV} must be at least ${CONSENT_KEY_MIN_BYTES} bytes long`);
    }
    return given;
  }
  const path = join(dataDir, CONSENT_KEY_FILE);
  let key = readSecretFile(path)?.trim() ?? null;
  if (key === null) {
    publishOnce(dataDir, path, `${randomBytes(32).toString('base64url')}\n`);
    key = readSecretFile(path)?.trim() ?? null;
  }
  if (key === null || Buffer.byteLength(key) < CONSENT_KEY_MIN_BYTES) {
    throw new Error(`${path} holds no usable consent key; delete it to create a new one`);
  }
  return key;
}
