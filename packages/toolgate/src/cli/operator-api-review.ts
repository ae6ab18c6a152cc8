import { DEFAULT_HOST, DEFAULT_PORT } from '../transport/endpoint-defaults.ts';

export interface ApiReviewInput {
  readonly url?: string;
  readonly token?: string;
  readonly json?: boolean;
  readonly resolve?: string;
  readonly as?: string;
  readonly note?: string;
  readonly reference?: string;
}

interface ListedOperation {
  readonly operation_id: string;
  readonly caller: string;
  readonly tool: string;
  readonly created_at: string;
  readonly reconcile_attempts: number;
  readonly last_finding: string | null;
  readonly request: Record<string, unknown> | null;
}

/**
 * `toolgate operations review` over the operator API: lists the operations awaiting review, or records
 * a decision under the token's subject. Returns the exit code: 0 done, 1 refused or not resolvable,
 * 2 invalid arguments.
 */
export async function reviewOverApi(
  input: ApiReviewInput,
  out: (line: string) => void,
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  const token = input.token ?? env.TOOLGATE_OPERATOR_TOKEN;
  if (!token) {
    out('--token (or TOOLGATE_OPERATOR_TOKEN): an operator bearer token is required');
    return 2;
  }
  let origin: string;
  try {
    origin = new URL(input.url ?? env.TOOLGATE_URL ?? `http://${DEFAULT_HOST}:${DEFAULT_PORT}`).origin;
  } catch {
    out('--url: must be the gateway URL, e.g. http://127.0.0.1:8787');
    return 2;
  }
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(new URL(path, origin), {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    let data: Record<string, unknown> = {};
    try {
      data = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    } catch {
      data = { message: text.slice(0, 200) };
    }
    return { status: response.status, data };
  };
  const refused = (status: number, data: Record<string, unknown>) => {
    if (status === 401)
      out('The gateway did not accept the token (missing, expired or for another audience).');
    else if (status === 403) out(`Refused: ${String(data.message ?? 'this token may not do that')}`);
    else out(`The gateway answered ${status}: ${String(data.message ?? data.error ?? '')}`);
    return 1;
  };

  if (input.resolve === undefined) {
    const pending: ListedOperation[] = [];
    let cursor: string | null = null;
    do {
      const query: string = `?status=needs_review&limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const { status, data } = await call('GET', `/operator/v1/operations${query}`);
      if (status !== 200) return refused(status, data);
      pending.push(...(data.operations as ListedOperation[]));
      cursor = (data.next_cursor as string | null) ?? null;
    } while (cursor);
    if (input.json) out(JSON.stringify(pending, null, 2));
    else if (pending.length === 0) out('No operations need review.');
    else for (const o of pending) out(lineOf(o));
    return 0;
  }
  const problems: string[] = [];
  if (input.as !== 'completed' && input.as !== 'rejected') problems.push('--as: completed or rejected');
  if (!input.note || input.note.trim().length < 3)
    problems.push('--note: say what you established (3 characters or more)');
  if (problems.length > 0) {
    for (const p of problems) out(p);
    return 2;
  }
  const { status, data } = await call(
    'POST',
    `/operator/v1/operations/${encodeURIComponent(input.resolve)}/resolve`,
    {
      outcome: input.as,
      note: input.note,
      ...(input.reference ? { reference: input.reference } : {}),
    },
  );
  if (status === 200) {
    const decision = data.decision as { operator: string; outcome: string };
    if (input.json) out(JSON.stringify(data, null, 2));
    else if (data.replayed)
      out(`${input.resolve} was already resolved as ${decision.outcome} by ${decision.operator}.`);
    else out(`Resolved ${input.resolve} as ${decision.outcome}.`);
    return 0;
  }
  if (status === 404) {
    out(`No operation ${input.resolve} in this token's tenant.`);
    return 1;
  }
  if (status === 409) {
    out(String(data.message));
    return 1;
  }
  if (status === 400) {
    for (const p of (data.problems as { parameter: string; message: string }[] | undefined) ?? []) {
      out(`${p.parameter}: ${p.message}`);
    }
    return 2;
  }
  return refused(status, data);
}

function lineOf(o: ListedOperation): string {
  const request = o.request
    ? Object.entries(o.request)
        .map(([k, v]) => `${k}=${Array.isArray(v) ? `(${v.join(',')} withheld)` : String(v)}`)
        .join(' ')
    : '';
  return `${o.operation_id}  ${o.caller}  ${o.tool}  ${o.created_at}  attempts=${o.reconcile_attempts}  ${o.last_finding ?? ''}  ${request}`.trimEnd();
}
