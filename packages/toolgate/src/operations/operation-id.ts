import { randomFillSync } from 'node:crypto';

/** Crockford base32: no I, L, O or U, so ids survive being read aloud or retyped. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const TIME_CHARS = 10;
const RANDOM_CHARS = 16;

export const OPERATION_ID_PATTERN = /^op_[0-9A-HJKMNP-TV-Z]{26}$/;

/**
 * Random bytes drawn from the system's CSPRNG a few kilobytes at a time, as node:crypto's randomUUID
 * does: one call into it per 256 ids instead of one per id. Each byte is used once.
 */
const POOL = Buffer.alloc(RANDOM_CHARS * 256);
let poolOffset = POOL.length;

function randomChars(): string {
  if (poolOffset + RANDOM_CHARS > POOL.length) {
    randomFillSync(POOL);
    poolOffset = 0;
  }
  let random = '';
  for (let i = poolOffset; i < poolOffset + RANDOM_CHARS; i += 1) random += ALPHABET[POOL[i]! & 31]!;
  poolOffset += RANDOM_CHARS;
  return random;
}

/**
 * `op_` + a ULID-style id: 48 bits of milliseconds then 80 random bits, both base32. Ids sort by
 * creation time, so listings and the review queue read in order without another column.
 */
export function newOperationId(nowMs: number): string {
  let time = '';
  let t = Math.max(0, Math.floor(nowMs));
  for (let i = 0; i < TIME_CHARS; i += 1) {
    time = ALPHABET[t % 32]! + time;
    t = Math.floor(t / 32);
  }
  return `op_${time}${randomChars()}`;
}

/**
 * The least id an operation created at or after `ms` can have (its time prefix alone): a lower bound on
 * `id` that lets a time filter ride the id order of an index instead of reading older rows to skip them.
 */
export function operationIdFloor(ms: number): string {
  return newOperationId(ms).slice(0, 'op_'.length + TIME_CHARS);
}
