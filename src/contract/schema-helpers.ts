import { z } from 'zod';

/** DESIGN.md section 4: the key every write/request tool requires. */
export const idempotencyKeySchema = z
  .string()
  .min(16)
  .max(128)
  .regex(/^[A-Za-z0-9._:-]+$/)
  .describe(
    'Unique key for this logical operation, 16-128 characters of A-Z a-z 0-9 . _ : -. ' +
      'Reuse it only when retrying the same request (for example after a timeout or an outcome_unknown); ' +
      'a new request needs a new key.',
  );

/** Bounded page size for search tools. */
export function pageSizeSchema(max: number, fallback: number) {
  return z
    .number()
    .int()
    .min(1)
    .max(max)
    .default(fallback)
    .describe(`How many items to return, 1-${max} (default ${fallback}).`);
}

export const cursorSchema = z
  .string()
  .max(200)
  .regex(/^[A-Za-z0-9_-]+$/)
  .describe('Opaque cursor from next_cursor of the previous page; omit for the first page.');
