import { Client, StreamableHTTPClientTransport, type Tool } from '@modelcontextprotocol/client';
import type { EffectFilter, FaultSpec } from '@toolgate/simulation';
import {
  type BackendFaultKind,
  backendFaults,
  interceptGlobalFetch,
  resetSimulation,
  simulationOf,
  simulationWorld,
} from '@toolgate/simulation';
import { pino } from 'pino';
import type { OperationsTuning, Principal, ToolgateModule, ToolKind } from 'toolgate';
import { REVISION_2026 } from 'toolgate';
import {
  type App,
  createApp,
  type DevKeys,
  type HttpTransport,
  loadOrCreateDevKeys,
  mintToken,
  type RateLimitSettings,
  ShiftableClock,
  startHttpTransport,
} from 'toolgate/server';
import type { EvalWorld, Fixtures } from './eval-world.ts';
import type { Person } from './scripted-person.ts';
import { type TrialIsolation, trialIsolation } from './trial-isolation.ts';

export interface InProcessWorldOptions {
  readonly modules: readonly ToolgateModule[];
  /** SQLite lives here unless a database URL is given. */
  readonly dataDir: string;
  readonly databaseUrl?: string;
  /** The Cedar policy directory the gateway decides calls by (absent: none). */
  readonly policyDir?: string;
}

/**
 * Reconciliation runs within a scenario's time: an outcome lost in a trigger settles in a fraction of
 * a second instead of the production back-off of seconds.
 */
export const EVAL_OPERATIONS_TUNING: Partial<OperationsTuning> = {
  reconcileIntervalMs: 25,
  reconcileBackoffMs: 50,
  reconcileBackoffMaxMs: 400,
};

/**
 * The gateway's per-principal limits as the evaluation drives them: no rate at all until a scenario's
 * `rate_limit` action sets one for a class of tools, cleared on reset. The limiter reads its settings
 * on every call, so setting a rate here takes effect on the next call. No cap on writes in flight: a
 * scenario's concurrent deliveries are not refused for it.
 */
class EvalRateLimits implements RateLimitSettings {
  byKind: Partial<Record<ToolKind, number>> | undefined;
  readonly writesInFlightPerPrincipal = 1_000_000;

  get perPrincipalByKind(): Partial<Record<ToolKind, number>> | undefined {
    return this.byKind;
  }
}

/** A rate so low its burst is a sliver of one call: one take spends it and leaves the bucket in debt. */
const SPENDING_RATE = 0.001;

/** A fault target naming a real service: a host with a port, or an http(s) base URL. */
const REAL_SERVICE = /^(https?:\/\/|[\w.-]+:\d+$)/;
const BACKEND_KIT_FAULTS: ReadonlySet<string> = new Set([
  'drop_response_after_apply',
  'delay_ms',
  'unavailable',
]);

const dismiss: Person = async () => ({ action: 'cancel' });

/**
 * One gateway for a whole evaluation run, served over MCP Streamable HTTP on a free loopback port;
 * agents reach it only through MCP clients holding dev tokens: the official client on MCP 2026-07-28,
 * declaring form elicitation, so the gateway's confirmations reach the scenario's person. Scenarios reset the world between
 * them instead of starting a gateway each, which keeps a full reference run to seconds.
 */
export class InProcessWorld implements EvalWorld {
  readonly #clients = new Map<string, Client>();
  /** Who answers each client's questions in the current trial. */
  readonly #people = new Map<string, Person>();

  private constructor(
    readonly app: App,
    private readonly http: HttpTransport,
    private readonly keys: DevKeys,
    private readonly limits: EvalRateLimits,
    /** Whether every module's systems are reset between trials, and which are not. */
    readonly isolation: TrialIsolation,
  ) {}

  static async start(options: InProcessWorldOptions): Promise<InProcessWorld> {
    const limits = new EvalRateLimits();
    // A scenario's faults at real services reach the modules' backends through the global fetch.
    interceptGlobalFetch();
    const app = await createApp({
      limits,
      dataDir: options.dataDir,
      databaseUrl: options.databaseUrl,
      logger: pino({ level: 'silent' }),
      modules: options.modules,
      clock: new ShiftableClock(),
      operations: EVAL_OPERATIONS_TUNING,
      ...(options.policyDir === undefined ? {} : { policyDir: options.policyDir }),
    });
    try {
      await simulationOf(app).seed();
      const http = await startHttpTransport(app, {
        port: 0,
        keys: { kind: 'dev', dataDir: options.dataDir },
      });
      const keys = await loadOrCreateDevKeys(options.dataDir);
      // createApp creates the modules in the order given, so instance i is module i.
      const isolation = trialIsolation(
        app.modules.map((instance, i) => ({ name: options.modules[i]?.name ?? `#${i}`, instance })),
      );
      return new InProcessWorld(app, http, keys, limits, isolation);
    } catch (error) {
      await app.close();
      throw error;
    }
  }

  /** The MCP endpoint agents connect to. */
  get url(): string {
    return this.http.url;
  }

  /** Some module simulates its external systems (and so keeps the effects ledger and faults). */
  get simulated(): boolean {
    return simulationOf(this.app).hooks.length > 0;
  }

  async reset(): Promise<void> {
    this.#people.clear();
    this.limits.byKind = undefined;
    backendFaults.clear();
    // A config of tools over real services has no simulated world: the gateway's own state resets, and
    // each module's reset hook puts the real systems it calls back (the gateway first, so no operation
    // of the last trial is still reconciling against a system just reset).
    await (this.simulated ? resetSimulation(this.app) : simulationOf(this.app).resetWorld());
    for (const module of this.app.modules) await module.reset?.();
  }

  async fixtures(): Promise<Fixtures> {
    const principals: Fixtures['principals'] = {};
    for (const p of simulationOf(this.app).principals) {
      principals[p.name] = {
        name: p.name,
        subject: p.subject,
        tenant: p.tenant,
        actor: p.actor,
        scopes: new Set(p.scopes),
        groups: [...(p.groups ?? [])],
      };
    }
    // Merged the way GET /test-api/fixtures merges them: each module answers under its own key.
    return { ...(await simulationOf(this.app).fixtures()), principals };
  }

  async connect(principal: Principal, person?: Person): Promise<Client> {
    const id = `${principal.tenant}/${principal.subject}/${principal.actor}/${[...principal.scopes].sort().join(' ')}/${(principal.groups ?? []).join(' ')}`;
    if (person) this.#people.set(id, person);
    let client = this.#clients.get(id);
    if (!client) {
      const token = await mintToken(
        this.keys,
        {
          sub: principal.subject,
          tenant: principal.tenant,
          actor: principal.actor,
          scopes: [...principal.scopes],
          groups: principal.groups ?? [],
        },
        { audience: this.http.resource },
      );
      const transport = new StreamableHTTPClientTransport(new URL(this.http.url), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      });
      client = new Client(
        { name: 'toolgate-eval', version: '0.1.0' },
        {
          capabilities: { elicitation: { form: {} } },
          versionNegotiation: { mode: { pin: REVISION_2026 } },
        },
      );
      client.setRequestHandler('elicitation/create', async (request) => {
        const answer = this.#people.get(id) ?? dismiss;
        return answer(request.params as { message: string; requestedSchema?: Record<string, unknown> });
      });
      await client.connect(transport);
      this.#clients.set(id, client);
    }
    return client;
  }

  async armFault(spec: FaultSpec): Promise<void> {
    // A host (`127.0.0.1:4100`) or a base URL names a real service the backend kit reaches.
    if (REAL_SERVICE.test(spec.target)) {
      if (!BACKEND_KIT_FAULTS.has(spec.fault)) {
        throw new Error(
          `fault ${spec.fault} cannot be applied at the backend kit (${[...BACKEND_KIT_FAULTS].join(', ')} can)`,
        );
      }
      backendFaults.arm({
        target: spec.target,
        fault: spec.fault as BackendFaultKind,
        times: spec.times,
        skip: spec.skip,
        ...(spec.match ? { match: spec.match } : {}),
        ...(spec.params?.ms === undefined ? {} : { params: { ms: spec.params.ms } }),
      });
      return;
    }
    if (!this.simulated) {
      throw new Error(
        `fault ${spec.fault} on ${spec.target} targets nothing: no module simulates external systems`,
      );
    }
    simulationWorld(this.app.db).faults.arm(spec);
  }

  async simulate(target: string, action: string, params: Record<string, unknown>) {
    const answer = await simulationOf(this.app).simulate(target, action, params);
    if (answer) return answer;
    throw new Error(`no module simulates ${target}.${action}`);
  }

  async shiftClock(ms: number): Promise<void> {
    if (!(this.app.clock instanceof ShiftableClock)) throw new Error('the world clock cannot be shifted');
    this.app.clock.shift(ms);
  }

  async limitRate(principal: Principal, kind: ToolKind, perSecond: number): Promise<void> {
    const limiter = this.app.gateway.limits;
    if (!limiter) throw new Error('the gateway has no rate limiter');
    // Draw the bucket into debt whatever it held: at a vanishing rate its burst is a sliver, so the
    // first take empties it and leaves it about one call short; the next take is refused.
    this.limits.byKind = { ...this.limits.byKind, [kind]: SPENDING_RATE };
    let refused = false;
    for (let taken = 0; taken < 3 && !refused; taken += 1)
      refused = limiter.takeToken(principal, kind) !== null;
    this.limits.byKind = { ...this.limits.byKind, [kind]: perSecond };
    if (!refused) throw new Error(`the rate limit of ${perSecond} per second for ${kind} tools did not take`);
  }

  unappliedFaults(): string[] {
    return backendFaults
      .unapplied()
      .map(
        (f) => `fault ${f.fault} on ${f.target} targets nothing: no request through the backend kit met it`,
      );
  }

  servedTools(): readonly Tool[] {
    return this.app.registry.listing() as unknown as Tool[];
  }

  async effects(filter: EffectFilter = {}) {
    // No simulated system, no ledger: the services' own state is judged through `query` and probes.
    if (!this.simulated) return [];
    return simulationWorld(this.app.db).ledger.list(filter);
  }

  query(sql: string, params: readonly unknown[]) {
    return this.app.db.query(sql, params);
  }

  now(): number {
    return this.app.clock.now();
  }

  async close(): Promise<void> {
    for (const client of this.#clients.values()) await client.close();
    this.#clients.clear();
    await this.http.close();
    await this.app.close();
  }
}
