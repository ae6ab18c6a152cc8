import { join } from 'node:path';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, type JWK } from 'jose';
import { publishOnce, readSecretFile } from './secret-file.ts';

/** The algorithm of the dev signing key; the dev verifier accepts nothing else. */
export const DEV_ALGORITHM = 'ES256';
/** Issuer of dev tokens; production tokens come from a real authorization server. */
export const DEV_ISSUER = 'urn:toolgate:dev';
export const DEV_KEY_FILE = 'dev-signing-key.jwk.json';

export interface DevKeys {
  readonly kid: string;
  readonly privateKey: CryptoKey;
  readonly publicKey: CryptoKey;
}

/**
 * Loads the dev ES256 key pair from the data dir, creating it once. The file holds the private JWK,
 * readable by the owner only; concurrent first starts agree on one key because the file is
 * published with a hard link, which fails when another process got there first.
 */
export async function loadOrCreateDevKeys(dataDir: string): Promise<DevKeys> {
  const path = join(dataDir, DEV_KEY_FILE);
  let jwk = readKeyFile(path);
  if (!jwk) {
    const pair = await generateKeyPair(DEV_ALGORITHM, { extractable: true });
    const created = await exportJWK(pair.privateKey);
    created.kid = await calculateJwkThumbprint(created);
    created.alg = DEV_ALGORITHM;
    publishOnce(dataDir, path, `${JSON.stringify(created)}\n`);
    jwk = readKeyFile(path);
    if (!jwk) throw new Error(`dev signing key ${path} could not be created`);
  }
  const { d: _private, ...publicJwk } = jwk;
  return {
    kid: jwk.kid ?? (await calculateJwkThumbprint(publicJwk)),
    privateKey: (await importJWK(jwk, DEV_ALGORITHM)) as CryptoKey,
    publicKey: (await importJWK(publicJwk, DEV_ALGORITHM)) as CryptoKey,
  };
}

function readKeyFile(path: string): JWK | null {
  const text = readSecretFile(path);
  if (text === null) return null;
  const jwk = JSON.parse(text) as JWK;
  if (jwk.kty !== 'EC' || jwk.crv !== 'P-256' || typeof jwk.d !== 'string') {
    throw new Error(`${path} is not an ES256 private key; delete it to create a new one`);
  }
  return jwk;
}
