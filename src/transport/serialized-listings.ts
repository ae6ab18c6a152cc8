import type { Principal } from '../auth/principal.ts';
import type { Gateway } from '../gateway/gateway.ts';

/** Distinct scope sets remembered; past this the cache starts over (scope sets are few in practice). */
const MAX_SCOPE_SETS = 256;
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
  readonly tool: (tool: Record<string, unknown>) => Record<string, unknown>;
  readonly result: (page: {
    tools: Record<string, unknown>[];
    nextCursor?: string;
  }) => Record<string, unknown>;
}

const PAGE_AS_IT_IS: ListingForm = { tool: (tool) => tool, result: (page) => page };

/**
 * The serialized `tools/list` results per scope set, page by page, as UTF-8 bytes. The listing never
 * changes while the process runs, so each page is serialized once per scope set and written to every
 * later caller as it is: no re-serialization, no re-encoding, no copy.
 */
export class SerializedListings {
  readonly #gateway: Gateway;
  readonly #pageSize: number;
  readonly #form: ListingForm;
  readonly #byScopes = new Map<string, Map<string, Buffer>>();

  constructor(gateway: Gateway, pageSize = DEFAULT_TOOLS_PAGE_SIZE, form: ListingForm = PAGE_AS_IT_IS) {
    if (!Number.isSafeInteger(pageSize) || pageSize < 1) {
      throw new Error(`the tools/list page size must be a positive integer, got ${pageSize}`);
    }
    this.#gateway = gateway;
    this.#pageSize = pageSize;
    this.#form = form;
  }

  /** The JSON bytes of this principal's page at `cursor` (`{ tools, nextCursor? }`), or why there is none. */
  resultFor(principal: Principal, cursor: unknown): ToolsPage<Buffer> {
    const scopes = this.#gateway.listingClass(principal);
    let pages = this.#byScopes.get(scopes);
    if (pages === undefined) {
      if (this.#byScopes.size >= MAX_SCOPE_SETS) this.#byScopes.clear();
      pages = new Map();
      this.#byScopes.set(scopes, pages);
    }
    const key = cursor === undefined ? '' : String(cursor);
    const cached = pages.get(key);
    if (cached) return { ok: true, page: cached };
    const page = pageOfTools(this.#gateway.listTools(principal).map(this.#form.tool), cursor, this.#pageSize);
    if (!page.ok) return page;
    const bytes = Buffer.from(JSON.stringify(this.#form.result(page.page)));
    pages.set(key, bytes);
    return { ok: true, page: bytes };
  }
}
