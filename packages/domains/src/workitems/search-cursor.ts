import { canonicalJson, sha256Hex } from 'toolgate';

/**
 * Opaque pagination cursor: the last item number returned, bound to the query it came from so a
 * cursor reused with another project or text is refused instead of returning a confusing page.
 */
export interface SearchPosition {
  readonly beforeSeq: number;
}

const queryTag = (projectId: string, text: string | null) =>
  sha256Hex(canonicalJson({ project: projectId, text })).slice(0, 12);

export function encodeCursor(projectId: string, text: string | null, position: SearchPosition): string {
  const payload = JSON.stringify({ b: position.beforeSeq, q: queryTag(projectId, text) });
  return Buffer.from(payload, 'utf8').toString('base64url');
}

/** The position, or null when the cursor is malformed or belongs to another query. */
export function decodeCursor(cursor: string, projectId: string, text: string | null): SearchPosition | null {
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as {
      b?: unknown;
      q?: unknown;
    };
    if (typeof parsed.b !== 'number' || !Number.isSafeInteger(parsed.b) || parsed.b < 1) return null;
    if (parsed.q !== queryTag(projectId, text)) return null;
    return { beforeSeq: parsed.b };
  } catch {
    return null;
  }
}
