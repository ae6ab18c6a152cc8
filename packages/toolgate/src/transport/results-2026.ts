import packageJson from '../../package.json' with { type: 'json' };
import type { ListingForm } from './serialized-listings.ts';

/** The revision this file shapes results for. */
export const REVISION_2026 = '2026-07-28';

/** Who answers, as every 2026-07-28 result names it. */
export const SERVER_INFO = { name: 'toolgate', version: packageJson.version } as const;

/** How long a client may reuse a tools/list page or a discovery answer: the listing is fixed per process. */
export const LISTING_TTL_MS = 300_000;

const RESULT_META = { 'io.modelcontextprotocol/serverInfo': SERVER_INFO };
/** What opens every complete 2026-07-28 result the gateway writes itself, before the result's own fields. */
const COMPLETE_RESULT_HEAD = `{"resultType":"complete","_meta":${JSON.stringify(RESULT_META)},`;

/** `execution.taskSupport` is 2025-11-25 vocabulary: on 2026-07-28 tasks are an extension. */
export function withoutTaskSupport(tool: Record<string, unknown>): Record<string, unknown> {
  if (!('execution' in tool)) return tool;
  const { execution: _, ...rest } = tool;
  return rest;
}

/**
 * A result object's JSON text as a complete 2026-07-28 result: stamped the way the SDK stamps what it
 * answers itself (`resultType`, the server's identity in `_meta`). The text must be a JSON object
 * without `_meta` of its own.
 */
export function asCompleteResult(resultJson: string): string {
  return resultJson === '{}'
    ? `${COMPLETE_RESULT_HEAD.slice(0, -1)}}`
    : COMPLETE_RESULT_HEAD + resultJson.slice(1);
}

/**
 * tools/list pages of 2026-07-28: no task vocabulary, and cache hints: reusable for a while, but only
 * by the caller (a listing holds only the tools the caller's scopes allow).
 */
export const LISTING_FORM_2026: ListingForm = {
  name: '2026-07-28',
  tool: withoutTaskSupport,
  result: (page) => ({
    ...page,
    resultType: 'complete',
    ttlMs: LISTING_TTL_MS,
    cacheScope: 'private',
    _meta: RESULT_META,
  }),
};

/** True when a message carries the 2026-07-28 per-request envelope claim. */
export function claimsEnvelope2026(message: unknown): boolean {
  const params = (message as { params?: unknown } | null)?.params;
  if (typeof params !== 'object' || params === null) return false;
  const meta = (params as { _meta?: unknown })._meta;
  return typeof meta === 'object' && meta !== null && 'io.modelcontextprotocol/protocolVersion' in meta;
}
