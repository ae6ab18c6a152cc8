import type { App } from '../app/create-app.ts';
import type { KeySource } from '../auth/token-verifier.ts';
import type {
  NamedPrincipal,
  ServedEndpoint,
  ServeExtension,
  ToolgateExtension,
} from '../config/toolgate-extension.ts';
import type { HttpRouteFamily } from '../transport/http-server.ts';

/**
 * The serve hooks of a config's (or a test gateway's) extensions, run in their order: what `serve`,
 * `demo tokens` and `startTestGateway` do with them, in one place.
 */
export class ServeHooks {
  readonly #hooks: readonly ServeExtension[];

  constructor(extensions: readonly ToolgateExtension[] = []) {
    this.#hooks = extensions.flatMap((extension) => (extension.serve ? [extension.serve] : []));
  }

  /** Some extension can mount a test API (whether it has one for the app is `testApiRoutes`'). */
  get offersTestApi(): boolean {
    return this.#hooks.some((hook) => hook.testApi !== undefined);
  }

  async seed(app: App): Promise<void> {
    for (const hook of this.#hooks) await hook.seed?.(app);
  }

  principals(app: App): NamedPrincipal[] {
    return this.#hooks.flatMap((hook) => hook.principals?.(app) ?? []);
  }

  /** The test API route families the extensions have for this app (empty: none). */
  testApiRoutes(app: App, options: { readonly keys: KeySource }): HttpRouteFamily[] {
    return this.#hooks.flatMap((hook) => hook.testApi?.(app, options) ?? []);
  }

  /** The banner lines of every extension that has some; null when none has. */
  async welcome(app: App, endpoint: ServedEndpoint): Promise<string[] | null> {
    const lines: string[] = [];
    for (const hook of this.#hooks) lines.push(...((await hook.welcome?.(app, endpoint)) ?? []));
    return lines.length > 0 ? lines : null;
  }

  /** The token lists of every extension that has one; null when none has. */
  async tokenList(app: App, endpoint: Omit<ServedEndpoint, 'dataDirOption'>): Promise<string | null> {
    const lists: string[] = [];
    for (const hook of this.#hooks) {
      const list = await hook.tokenList?.(app, endpoint);
      if (list !== null && list !== undefined) lists.push(list);
    }
    return lists.length > 0 ? lists.join('\n') : null;
  }
}
