import type { ExceptionDefinition } from '../contract/define-exception.ts';

/**
 * The exception kinds one gateway serves: every kind its modules (and its config) declare, each once.
 * The operator API grants only these, each with its own scope; nothing else of a kind is known here.
 */
export class ExceptionCatalog {
  readonly #byKind = new Map<string, ExceptionDefinition>();

  /** Throws naming a kind declared twice by different declarations (the same one twice is one). */
  constructor(definitions: readonly ExceptionDefinition[]) {
    for (const definition of definitions) {
      const known = this.#byKind.get(definition.kind);
      if (known && known !== definition)
        throw new Error(`exception kind ${definition.kind} is declared twice`);
      this.#byKind.set(definition.kind, definition);
    }
  }

  get(kind: string): ExceptionDefinition | undefined {
    return this.#byKind.get(kind);
  }

  /** Every declared kind, in declaration order. */
  all(): readonly ExceptionDefinition[] {
    return [...this.#byKind.values()];
  }

  kinds(): string[] {
    return [...this.#byKind.keys()];
  }

  /** The scopes that grant some kind, each once. */
  grantScopes(): string[] {
    return [...new Set(this.all().map((d) => d.grantScope))];
  }

  /** The kinds a token's scopes may grant and revoke. */
  grantableBy(scopes: ReadonlySet<string>): ExceptionDefinition[] {
    return this.all().filter((d) => scopes.has(d.grantScope));
  }
}
