/** The path parameters a route's pattern names, as they appear in the path (not decoded). */
export type RouteParams = Readonly<Record<string, string>>;

/**
 * The handler of the first route whose method and pattern match a request. A router finds no more than
 * that: each surface answers a miss (404) and a method it refuses (405, as an ANY_METHOD route after its
 * others) in its own words.
 */
export interface RouteMatch<H> {
  readonly handler: H;
  readonly params: RouteParams;
}

interface Route<H> {
  readonly method: string;
  readonly path: RegExp;
  readonly handler: H;
}

/** Any method: a route that answers every method itself (or refuses them in its own words). */
export const ANY_METHOD = '*';

// `:name` (one segment), `:name(regex)` (a segment the regex matches), a trailing `*` (the rest, maybe empty).
const TOKEN = /:([A-Za-z_][A-Za-z0-9_]*)(?:\(([^)]+)\))?|\*$/g;

function compile(pattern: string): RegExp {
  let source = '';
  let last = 0;
  for (const token of pattern.matchAll(TOKEN)) {
    source += literally(pattern.slice(last, token.index));
    source += token[0] === '*' ? '(?<rest>.*)' : `(?<${token[1]}>${token[2] ?? '[^/]+'})`;
    last = token.index + token[0].length;
  }
  return new RegExp(`^${source}${literally(pattern.slice(last))}$`);
}

function literally(literal: string): string {
  return literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Routes requests by method and path pattern, in the order the routes were added: the table of one
 * HTTP surface (the gateway's, the operator API, the console, the test API), read top to bottom.
 */
export class HttpRouter<H> {
  readonly #routes: Route<H>[] = [];

  /** Adds a route; `method` is an HTTP method or ANY_METHOD, `pattern` a path as described at TOKEN. */
  on(method: string, pattern: string, handler: H): this {
    this.#routes.push({ method, path: compile(pattern), handler });
    return this;
  }

  match(method: string, path: string): RouteMatch<H> | undefined {
    for (const route of this.#routes) {
      if (route.method !== ANY_METHOD && route.method !== method) continue;
      const matched = route.path.exec(path);
      if (matched) return { handler: route.handler, params: { ...matched.groups } };
    }
    return undefined;
  }
}
