/**
 * `{{path}}` templates in scenario values. A string that is exactly one template takes the raw
 * value (numbers and objects stay typed); templates inside longer strings are interpolated.
 * Paths are dotted with `[n]` indexes: `fixtures.orders.pending[0].id`, `steps.read.result.version`.
 * Functions: `keys.NAME` (an idempotency key stable within one trial), `now_plus_hours(N)`
 * (an RFC 3339 UTC time N hours from the scope's `now`).
 */
export interface TemplateScope {
  readonly values: Record<string, unknown>;
  /** The idempotency key for a name, the same for every use within one trial. */
  key(name: string): string;
  /** World time in epoch milliseconds; a trial's scope answers the same time throughout. */
  now(): number;
}

const WHOLE = /^\{\{\s*([^{}]+?)\s*\}\}$/;
const INNER = /\{\{\s*([^{}]+?)\s*\}\}/g;

export class TemplateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TemplateError';
  }
}

/** Renders every template in a JSON-like value; throws TemplateError for a path that leads nowhere. */
export function renderTemplates(value: unknown, scope: TemplateScope): unknown {
  if (typeof value === 'string') return renderString(value, scope);
  if (Array.isArray(value)) return value.map((item) => renderTemplates(item, scope));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, renderTemplates(v, scope)]),
    );
  }
  return value;
}

function renderString(text: string, scope: TemplateScope): unknown {
  const whole = WHOLE.exec(text);
  if (whole) return evaluate(whole[1]!, scope);
  return text.replace(INNER, (_match, expr: string) => {
    const value = evaluate(expr, scope);
    return typeof value === 'string' ? value : JSON.stringify(value);
  });
}

function evaluate(expr: string, scope: TemplateScope): unknown {
  const call = /^([a-z_]+)\((-?\d+(?:\.\d+)?)\)$/.exec(expr);
  if (call) {
    if (call[1] === 'now_plus_hours') {
      return new Date(scope.now() + Number(call[2]) * 3_600_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    }
    throw new TemplateError(`unknown template function ${call[1]}`);
  }
  if (expr.startsWith('keys.')) return scope.key(expr.slice(5));
  const value = lookupPath(scope.values, expr);
  if (value === undefined) throw new TemplateError(`template {{${expr}}} does not resolve`);
  return value;
}

/**
 * Reads `a.b[0].c` from a value; `[field=value]` picks the first array element whose field equals
 * the value (`orders.all[label=alice-editable].order_id`). Undefined when any step is missing.
 */
export function lookupPath(root: unknown, path: string): unknown {
  let node: unknown = root;
  for (const part of path.match(/[^.[\]]+|\[[^\]]*\]/g) ?? []) {
    if (part.startsWith('[')) {
      if (!Array.isArray(node)) return undefined;
      const inner = part.slice(1, -1);
      const eq = inner.indexOf('=');
      if (eq < 0) node = node[Number(inner)];
      else {
        const [field, value] = [inner.slice(0, eq), inner.slice(eq + 1)];
        node = node.find(
          (item) =>
            item !== null &&
            typeof item === 'object' &&
            String((item as Record<string, unknown>)[field]) === value,
        );
      }
      continue;
    }
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}
