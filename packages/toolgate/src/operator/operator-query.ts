import { OPERATION_STATUSES, type OperationStatus } from '../operations/operation-record.ts';
import { controlCharacterProblem } from './operator-text.ts';

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 200;

/** A query parameter the API cannot use: named, with what it accepts. */
export interface QueryProblem {
  readonly parameter: string;
  readonly message: string;
}

export type Parsed<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly problems: QueryProblem[] };

export interface OperationsFilter {
  readonly status?: OperationStatus;
  readonly tool?: string;
  readonly since?: number;
  readonly afterId?: string;
  readonly limit: number;
}

export interface AuditFilter {
  readonly operationId?: string;
  readonly subject?: string;
  readonly since?: number;
  readonly afterSeq?: number;
  readonly limit: number;
}

/** Cursors are opaque to clients: base64url of the last row's key. */
export function encodeCursor(key: string | number): string {
  return Buffer.from(String(key)).toString('base64url');
}

/** The key a cursor encodes; undefined (a problem named) when it is not one this API gave out. */
function decodeCursor(raw: string | undefined, problems: QueryProblem[]): string | undefined {
  if (raw === undefined) return undefined;
  const key = Buffer.from(raw, 'base64url').toString('utf8');
  if (controlCharacterProblem(key) === null) return key;
  problems.push({ parameter: 'cursor', message: 'is not a cursor this API gave out' });
  return undefined;
}

/** `since` is an ISO 8601 time or epoch milliseconds. */
function parseSince(raw: string | null, problems: QueryProblem[]): number | undefined {
  if (raw === null || raw === '') return undefined;
  const ms = /^\d+$/.test(raw) ? Number(raw) : Date.parse(raw);
  if (Number.isFinite(ms)) return ms;
  problems.push({ parameter: 'since', message: 'must be an ISO 8601 time or epoch milliseconds' });
  return undefined;
}

function parseLimit(raw: string | null, problems: QueryProblem[]): number {
  if (raw === null || raw === '') return DEFAULT_PAGE_SIZE;
  const n = Number(raw);
  if (Number.isInteger(n) && n >= 1 && n <= MAX_PAGE_SIZE) return n;
  problems.push({ parameter: 'limit', message: `must be an integer from 1 to ${MAX_PAGE_SIZE}` });
  return DEFAULT_PAGE_SIZE;
}

/** A text parameter, cut to 200 characters; one with a control character is a problem, not a filter. */
function text(params: URLSearchParams, name: string, problems: QueryProblem[]): string | undefined {
  const value = params.get(name);
  if (value === null || value === '') return undefined;
  const problem = controlCharacterProblem(value);
  if (problem === null) return value.slice(0, 200);
  problems.push({ parameter: name, message: problem });
  return undefined;
}

export function parseOperationsFilter(params: URLSearchParams): Parsed<OperationsFilter> {
  const problems: QueryProblem[] = [];
  const status = text(params, 'status', problems);
  if (status !== undefined && !(OPERATION_STATUSES as readonly string[]).includes(status)) {
    problems.push({ parameter: 'status', message: `must be one of ${OPERATION_STATUSES.join(', ')}` });
  }
  const since = parseSince(params.get('since'), problems);
  const limit = parseLimit(params.get('limit'), problems);
  const afterId = decodeCursor(text(params, 'cursor', problems), problems);
  const tool = text(params, 'tool', problems);
  if (problems.length > 0) return { ok: false, problems };
  return {
    ok: true,
    value: {
      ...(status !== undefined ? { status: status as OperationStatus } : {}),
      ...(tool !== undefined ? { tool } : {}),
      ...(since !== undefined ? { since } : {}),
      ...(afterId !== undefined ? { afterId } : {}),
      limit,
    },
  };
}

export function parseAuditFilter(params: URLSearchParams): Parsed<AuditFilter> {
  const problems: QueryProblem[] = [];
  const since = parseSince(params.get('since'), problems);
  const limit = parseLimit(params.get('limit'), problems);
  const cursor = decodeCursor(text(params, 'cursor', problems), problems);
  const afterSeq = cursor === undefined ? undefined : Number(cursor);
  if (afterSeq !== undefined && !Number.isInteger(afterSeq)) {
    problems.push({ parameter: 'cursor', message: 'is not a cursor this API gave out' });
  }
  const operationId = text(params, 'operation_id', problems);
  const subject = text(params, 'subject', problems);
  if (problems.length > 0) return { ok: false, problems };
  return {
    ok: true,
    value: {
      ...(operationId !== undefined ? { operationId } : {}),
      ...(subject !== undefined ? { subject } : {}),
      ...(since !== undefined ? { since } : {}),
      ...(afterSeq !== undefined ? { afterSeq } : {}),
      limit,
    },
  };
}

export interface ExceptionsFilter {
  /** Only exceptions neither revoked nor ended. */
  readonly active: boolean;
  /** Only exceptions of this declared kind. */
  readonly kind: string | undefined;
  readonly limit: number;
}

/** `?kind=&active=&limit=`; a kind must be one of `kinds` (named in the problem when it is not). */
export function parseExceptionsFilter(
  params: URLSearchParams,
  kinds: readonly string[],
): Parsed<ExceptionsFilter> {
  const problems: QueryProblem[] = [];
  const active = text(params, 'active', problems);
  if (active !== undefined && active !== 'true' && active !== 'false') {
    problems.push({ parameter: 'active', message: 'must be true or false' });
  }
  const kind = text(params, 'kind', problems);
  if (kind !== undefined && !kinds.includes(kind)) {
    problems.push({
      parameter: 'kind',
      message: kinds.length === 0 ? 'names no kind: none is declared' : `must be one of ${kinds.join(', ')}`,
    });
  }
  const limit = parseLimit(params.get('limit'), problems);
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, value: { active: active === 'true', kind, limit } };
}
