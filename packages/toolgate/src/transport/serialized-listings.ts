import type { Principal } from '../auth/principal.ts';
import type { Gateway } from '../gateway/gateway.ts';

/** Tools per tools/list page unless configured: every reference domain fits in one page. */
export const DEFAULT_TOOLS_PAGE_SIZE = 100;

/** One page of a tools/list answer, or why the cursor cannot be followed. */
export type ToolsPage<T> =
  | { readonly ok: true; readonly page: T }
  | { readonly ok: false; readonly reason: string };

/**
 * Splits a listing into MCP pages: each page holds up to `pageSize` tools and, unless it is the last,
 * a `nextCursor` naming the next one. Cursors are opaque to clients; a cursor this server did not hand
 * out (or one past the end) is refused rather than read as the first page.
 */
export function pageOfTools<T>(
  tools: readonly T[],
  cursor: unknown,
  pageSize: number,
): ToolsPage<{ tools: T[]; nextCursor?: string }> {
  const index = cursor === undefined ? 0 : pageIndexOf(cursor);
  if (index === null || (index > 0 && index * pageSize >= tools.length)) {
    return { ok: false, reason: 'the cursor is not one this server handed out; list again without a cursor' };
  }
  const start = index * pageSize;
  const page: { tools: T[]; nextCursor?: string } = { tools: tools.slice(start, start + pageSize) };
  if (start + pageSize < tools.length) page.nextCursor = cursorOf(index + 1);
  return { ok: true, page };
}

const CURSOR_PREFIX = 'tools-page:';

function cursorOf(index: number): string {
  return Buffer.from(`${CURSOR_PREFIX}${index}`).toString('base64url');
}

function pageIndexOf(cursor: unknown): number | null {
  if (typeof cursor !== 'string' || cursor.length > 64) return null;
  const text = Buffer.from(cursor, 'base64url').toString();
  if (!text.startsWith(CURSOR_PREFIX)) return null;
  const digits = text.slice(CURSOR_PREFIX.length);
  if (!/^[1-9][0-9]{0,5}$/.test(digits)) return null;
  return Number(digits);
}

/**
 * How a protocol revision words a tools/list result around the page: what each tool entry holds and
 * which fields the result carries besides `tools` and `nextCursor`. The 2025 form is the page as it is.
 */
export interface ListingForm {
  /** Names the form among those serialized from one registry (its pages are kept apart). */
  readonly name: string;
  readonly tool: (tool: Record<string, unknown>) => Record<string, unknown>;
  readonly result: (page: {
    tools: Record<string, unknown>[];
    nextCursor?: string;
  }) => Record<string, unknown>;
}

const PAGE_AS_IT_IS: ListingForm = { name: 'page', tool: (tool) => tool, result: (page) => page };

/**
 * The serialized `tools/list` results of one transport, page by page, as UTF-8 bytes. The listing never
 * changes while the process runs, so each page is serialized once per class of principals and written
 * to every later caller as it is: no re-serialization, no re-encoding, no copy. The bytes are kept by
 * the tool registry next to the listing they serialize (the one listing cache).
 */
export class SerializedListings {
  readonly #gateway: Gateway;
  readonly #pageSize: number;
  readonly #form: ListingForm;
  /** What names this transport's pages among a listing's serialized forms; the cursor follows it. */
  readonly #keyPrefix: string;

  constructor(gateway: Gateway, pageSize = DEFAULT_TOOLS_PAGE_SIZE, form: ListingForm = PAGE_AS_IT_IS) {
    if (!Number.isSafeInteger(pageSize) || pageSize < 1) {
      throw new Error(`the tools/list page size must be a positive integer, got ${pageSize}`);
    }
    this.#gateway = gateway;
    this.#pageSize = pageSize;
    this.#form = form;
    this.#keyPrefix = `${form.name}\n${pageSize}\n`;
  }

  /** The JSON bytes of this principal's page at `cursor` (`{ tools, nextCursor? }`), or why there is none. */
  resultFor(principal: Principal, cursor: unknown): ToolsPage<Buffer> {
    const { registry } = this.#gateway;
    const listing = this.#gateway.listTools(principal);
    const key = cursor === undefined ? this.#keyPrefix : this.#keyPrefix + String(cursor);
    const kept = registry.serializedListing(listing, key);
    if (kept) return { ok: true, page: kept };
    const page = pageOfTools(listing.map(this.#form.tool), cursor, this.#pageSize);
    if (!page.ok) return page;
    const bytes = Buffer.from(JSON.stringify(this.#form.result(page.page)));
    registry.keepSerializedListing(listing, key, bytes);
    return { ok: true, page: bytes };
  }
}
