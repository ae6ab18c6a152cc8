import { describe, expect, it } from 'vitest';
import { nextBatch, PURGE_BATCH_LIMITS, PURGE_STATEMENT_TARGET_MS } from '../../src/operations/retention.ts';

describe('purge batches follow the time their statements take', () => {
  it('a statement over the target makes the next batch smaller in proportion', () => {
    expect(nextBatch(100, 4 * PURGE_STATEMENT_TARGET_MS)).toBe(25);
    expect(nextBatch(100, 1000)).toBe(PURGE_BATCH_LIMITS.least);
  });

  it('a quick statement makes the next one larger, at most twice as large and never past the most', () => {
    expect(nextBatch(100, PURGE_STATEMENT_TARGET_MS / 1.25)).toBe(125);
    expect(nextBatch(100, 0)).toBe(200);
    expect(nextBatch(PURGE_BATCH_LIMITS.most, 0)).toBe(PURGE_BATCH_LIMITS.most);
  });

  it('a statement on target keeps the batch', () => {
    expect(nextBatch(80, PURGE_STATEMENT_TARGET_MS)).toBe(80);
  });
});
