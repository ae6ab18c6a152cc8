import { randomUUID } from 'node:crypto';
import { chmodSync, linkSync, mkdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';

/**
 * Publishes `text` at `path` unless the file exists: written to a private temp file, then hard-linked
 * into place, which fails when another process got there first (concurrent first starts agree on
 * one secret). Readable by the owner only.
 */
export function publishOnce(dataDir: string, path: string, text: string): void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const temp = `${path}.${process.pid}.${randomUUID()}.tmp`;
  writeFileSync(temp, text, { mode: 0o600 });
  try {
    linkSync(temp, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    unlinkSync(temp);
  }
}

/**
 * The text of a secret file, or null when there is none. A secret others can read is no secret:
 * its mode is tightened rather than served exposed.
 */
export function readSecretFile(path: string): string | null {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  if ((statSync(path).mode & 0o077) !== 0) chmodSync(path, 0o600);
  return text;
}
