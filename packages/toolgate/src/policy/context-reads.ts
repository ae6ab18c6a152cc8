/** The `context` attributes a policy reads: per record (`input`, `facts`), the names, or all of it. */
export interface ContextReads {
  /** Records read whole (compared, passed on): everything in them is needed. */
  readonly whole: ReadonlySet<string>;
  /** Attributes read one by one: record -> names. */
  readonly attributes: ReadonlyMap<string, ReadonlySet<string>>;
}

type Node = unknown;

const isVarContext = (node: Node): boolean =>
  typeof node === 'object' && node !== null && (node as { Var?: unknown }).Var === 'context';

/** `context.<record>` as an expression: the record's name, else null. */
function contextRecord(node: Node): string | null {
  if (typeof node !== 'object' || node === null) return null;
  const access = (node as { '.'?: { left: Node; attr: string } })['.'];
  return access && isVarContext(access.left) ? access.attr : null;
}

/**
 * Which parts of `context` a policy's conditions read (its JSON form), so that a decision is given only
 * those: `context.input.environment` names `environment` of `input`; `context.input` used any other way
 * (or `context` itself) needs all of it.
 */
export function contextReadsOf(conditions: unknown): ContextReads {
  const whole = new Set<string>();
  const attributes = new Map<string, Set<string>>();
  const visit = (node: Node): void => {
    if (Array.isArray(node)) {
      for (const item of node) visit(item);
      return;
    }
    if (typeof node !== 'object' || node === null) return;
    if (isVarContext(node)) {
      whole.add('*');
      return;
    }
    const record = contextRecord(node);
    if (record !== null) {
      whole.add(record);
      return;
    }
    for (const key of ['.', 'has'] as const) {
      const access = (node as Record<string, { left: Node; attr: string | string[] } | undefined>)[key];
      const inner = access ? contextRecord(access.left) : null;
      if (access && inner !== null) {
        const names = attributes.get(inner) ?? new Set<string>();
        names.add(Array.isArray(access.attr) ? (access.attr[0] ?? '') : access.attr);
        attributes.set(inner, names);
        return;
      }
    }
    for (const value of Object.values(node)) visit(value);
  };
  visit(conditions);
  return { whole, attributes };
}
