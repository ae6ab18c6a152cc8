import type { z } from 'zod';
import {
  CONTRACT_BOUNDS,
  propertiesProblem,
  REPLY_LIMIT_BYTES,
  schemaBoundsProblem,
} from './contract-bounds.ts';
import type { AnyToolDefinition } from './define-tool.ts';
import { type ErrorCodeSpec, gatewayErrors, statusOfCode } from './error-catalog.ts';
import { inputJsonSchema, type JsonSchema, openObjectPointers, outputJsonSchema } from './json-schema.ts';
import { type ParamHeader, withParamHeaders } from './param-headers.ts';
import { taskNotesOf, taskSupportOf } from './task-support.ts';
import { ToolContractError, type ToolContractProblem } from './tool-contract-error.ts';

export interface RegistryOptions {
  /** How long operation records are kept, published in every write/request tool's contract. */
  readonly retentionSeconds: number;
}

/** A tool as the gateway serves it: the definition plus everything derived from it once. */
export interface RegisteredTool {
  readonly definition: AnyToolDefinition;
  readonly inputSchema: JsonSchema;
  readonly outputSchema: JsonSchema;
  /** Input fields mirrored into `Mcp-Param-*` headers, checked against each 2026-07-28 call. */
  readonly paramHeaders: readonly ParamHeader[];
  /** Declared codes plus the gateway's own, by code. */
  readonly errors: ReadonlyMap<string, ErrorCodeSpec>;
  /** Contract metadata published in tools/list `_meta`. */
  readonly meta: Record<string, unknown>;
  /** The tools/list entry, built once. */
  readonly listing: Record<string, unknown>;
}

export const CONTRACT_META_KEY = 'io.toolgate/contract';

/** The version of each multi-version name one principal is served (see tool-versions.ts). */
export interface ServedVersions {
  /** Names with more than one version and the major chosen, e.g. "notes_get@2"; empty without any. */
  readonly key: string;
  /** The version of `name` served, or undefined to serve its only version. */
  of(name: string): RegisteredTool | undefined;
}
const MAX_VIEWS = 256;
/**
 * The key of the view of every tool (a transport that knows no principal). A scope set's key is its
 * scopes joined by spaces, which hold no whitespace, and a policy class's starts with "policy\n".
 */
const ALL_TOOLS = '\n';

/**
 * Holds the registered tools. Registration is where contracts are checked as a whole: closed input
 * objects, examples valid against the input schema, one meaning per error code across all tools. A
 * broken tool is refused with a ToolContractError naming every rule it breaks.
 */
/** Which tools a policy set could permit a class of principals (`key` names the class). */
export interface ListingPolicy {
  readonly key: string;
  permits(tool: string): boolean;
}

export class ToolRegistry {
  /** The served versions of each name, oldest major first. */
  readonly #tools = new Map<string, RegisteredTool[]>();
  /**
   * The one listing cache: tools/list payloads by the class of principals that sees them (every tool,
   * a scope set, a policy class) and the versions they are served; few distinct classes exist, so few
   * entries.
   */
  readonly #views = new Map<string, Record<string, unknown>[]>();
  /** Serialized forms of each cached view (page bytes by form and cursor), dropped with their view. */
  readonly #serialized = new WeakMap<readonly Record<string, unknown>[], Map<string, Buffer>>();
  readonly #catalog = new Map<string, ErrorCodeSpec>(Object.values(gatewayErrors).map((e) => [e.code, e]));
  /** Bytes of every registered tool's tools/list entry as JSON, with the separators of one array. */
  #listingBytes = 0;
  /** Names served in more than one version, sorted. */
  #versioned: readonly string[] = [];

  constructor(readonly options: RegistryOptions) {}

  /**
   * Registers the tools; two majors of one name are served side by side when exactly one of them has
   * no rollout (docs/versions.md). The versions of every name are checked once the batch is in.
   */
  register(...definitions: AnyToolDefinition[]): this {
    for (const definition of definitions) this.#registerOne(definition);
    const problems = [...new Set(definitions.map((d) => d.name))].flatMap((name) =>
      servedVersionsProblems(name, this.versionsOf(name)),
    );
    if (problems.length > 0) throw new ToolContractError(problems);
    return this;
  }

  /**
   * The tool of this name: of the major `version` names (a semver or a bare major) when given, else
   * the version served to principals no rollout admits.
   */
  get(name: string, version?: string): RegisteredTool | undefined {
    const versions = this.#tools.get(name);
    if (!versions) return undefined;
    if (version === undefined) return versions.find((tool) => !tool.definition.rollout) ?? versions[0];
    const major = majorOf(version);
    return versions.find((tool) => tool.definition.majorVersion === major);
  }

  /** Every served version of this name, oldest major first; empty for a name not served. */
  versionsOf(name: string): readonly RegisteredTool[] {
    return this.#tools.get(name) ?? [];
  }

  /** The names served in more than one version, sorted. */
  versionedNames(): readonly string[] {
    return this.#versioned;
  }

  /** Every served tool version, sorted by name, then major. */
  all(): RegisteredTool[] {
    return [...this.#tools.keys()].sort().flatMap((name) => this.#tools.get(name)!);
  }

  /** The tools/list payload a transport that knows no principal serves: each name's unrolled version. */
  listing(): Record<string, unknown>[] {
    return (
      this.#views.get(ALL_TOOLS) ??
      this.#keepView(
        ALL_TOOLS,
        this.all()
          .filter((tool) => tool === this.get(tool.definition.name))
          .map((tool) => tool.listing),
      )
    );
  }

  /**
   * The tools/list payload a holder of these scopes sees: the tools whose scopes it holds, each name
   * in the version `served` chose for it (the unrolled one without `served`). Calls to the others
   * still answer FORBIDDEN; hiding them only keeps an agent from choosing them.
   */
  listingFor(
    scopes: ReadonlySet<string>,
    policy?: ListingPolicy,
    served?: ServedVersions,
  ): Record<string, unknown>[] {
    const classKey = policy ? `policy\n${policy.key}` : JSON.stringify([...scopes].sort());
    const key = served && served.key.length > 0 ? `${classKey}\nversions\n${served.key}` : classKey;
    const chosen = (tool: RegisteredTool) =>
      tool === (served?.of(tool.definition.name) ?? this.get(tool.definition.name));
    return (
      this.#views.get(key) ??
      this.#keepView(
        key,
        this.all()
          .filter(chosen)
          .filter((tool) => tool.definition.scopes.every((scope) => scopes.has(scope)))
          .filter((tool) => !policy || policy.permits(tool.definition.name))
          .map((tool) => tool.listing),
      )
    );
  }

  /** The serialized form `key` (a page as one transport words it) of a listing, if one was kept. */
  serializedListing(listing: readonly Record<string, unknown>[], key: string): Buffer | undefined {
    return this.#serialized.get(listing)?.get(key);
  }

  /**
   * Keeps a serialized form of a listing this registry handed out next to that listing, so it is
   * bounded and dropped as the listing is; a listing it did not hand out keeps nothing.
   */
  keepSerializedListing(listing: readonly Record<string, unknown>[], key: string, bytes: Buffer): void {
    this.#serialized.get(listing)?.set(key, bytes);
  }

  #keepView(key: string, view: Record<string, unknown>[]): Record<string, unknown>[] {
    // Scope sets come from tokens: bound the cache so that odd combinations cannot grow it forever.
    if (this.#views.size >= MAX_VIEWS) this.#views.delete(this.#views.keys().next().value!);
    this.#views.set(key, view);
    this.#serialized.set(view, new Map());
    return view;
  }

  /** The shared error catalog: every code any registered tool (or the gateway) may answer with. */
  catalog(): ReadonlyMap<string, ErrorCodeSpec> {
    return this.#catalog;
  }

  #registerOne(definition: AnyToolDefinition): void {
    const { name } = definition;
    const problems: ToolContractProblem[] = [];
    const broken = (rule: string, message: string) => problems.push({ tool: name, rule, message });
    const twin = this.get(name, String(definition.majorVersion));
    if (twin)
      broken('unique-name', `tool ${name} is registered twice (both major ${definition.majorVersion})`);
    // The top-level object is counted before conversion, which is what takes long for a huge one.
    const wide = propertiesProblem('input', Object.keys(definition.input.shape).length, '/');
    if (wide) {
      broken('schema-bounds', wide);
      throw new ToolContractError(problems);
    }
    const converted = jsonSchemasOf(definition);
    if (!converted.ok) {
      broken('schema-bounds', converted.problem);
      throw new ToolContractError(problems);
    }
    const mirrored = withParamHeaders(converted.input, definition.headers ?? {});
    for (const problem of mirrored.problems) broken('headers', problem);
    const inputSchema = mirrored.schema;
    const outputSchema = converted.output;
    const oversized =
      schemaBoundsProblem(inputSchema, 'input') ?? schemaBoundsProblem(outputSchema, 'output');
    // A schema past the bounds is not parsed against, not even for its examples: that is what fails.
    if (oversized) {
      broken('schema-bounds', oversized);
      throw new ToolContractError(problems);
    }
    const open = openObjectPointers(inputSchema);
    if (open.length > 0) broken('closed-input', `input objects must be closed (strictObject) at ${open}`);
    for (const example of definition.examples) {
      const parsed = definition.input.safeParse(example.input);
      if (!parsed.success) {
        broken('valid-examples', `example "${example.title}" is invalid: ${issueList(parsed.error.issues)}`);
      }
    }
    const errors = new Map<string, ErrorCodeSpec>(Object.values(gatewayErrors).map((e) => [e.code, e]));
    for (const spec of definition.errors) {
      const known = this.#catalog.get(spec.code);
      const differs =
        known &&
        (known.category !== spec.category ||
          known.retryable !== spec.retryable ||
          statusOfCode(known) !== statusOfCode(spec));
      if (differs) {
        broken(
          'error-code-meaning',
          `error ${spec.code} is declared with another category, retryability or status`,
        );
      }
      errors.set(spec.code, spec);
    }
    if (problems.length > 0) throw new ToolContractError(problems);

    const meta: Record<string, unknown> = {
      version: definition.version,
      kind: definition.kind,
      scopes: [...definition.scopes],
      timeout_ms: definition.timeoutMs,
      error_codes: [...errors.keys()].sort(),
    };
    if (definition.kind !== 'read') {
      meta.idempotency = {
        key: 'idempotency_key argument (or _meta["io.toolgate/idempotency-key"])',
        scope: 'tenant, subject, key',
        retention_seconds: this.options.retentionSeconds,
        dry_run_reserves_key: false,
      };
    }
    const notes = [...(definition.notes ?? []), ...taskNotesOf(definition.kind)];
    if (notes.length > 0) meta.notes = notes;
    const listing = {
      name,
      title: definition.title,
      description: definition.description,
      inputSchema,
      outputSchema,
      annotations: definition.annotations,
      execution: { taskSupport: taskSupportOf(definition.kind) },
      _meta: { [CONTRACT_META_KEY]: meta },
    };
    const entryBytes = Buffer.byteLength(JSON.stringify(listing)) + 1;
    if (this.#listingBytes + entryBytes > CONTRACT_BOUNDS.listingBytes) {
      const which =
        entryBytes > CONTRACT_BOUNDS.listingBytes
          ? `its tools/list entry is ${entryBytes} bytes`
          : `with its ${entryBytes}-byte entry the tools/list listing would be ${this.#listingBytes + entryBytes} bytes`;
      broken(
        'listing-size',
        `${which}; a listing must fit the ${REPLY_LIMIT_BYTES}-byte reply cap (at most ${CONTRACT_BOUNDS.listingBytes} bytes of entries)`,
      );
      throw new ToolContractError(problems);
    }
    this.#listingBytes += entryBytes;
    for (const spec of definition.errors) this.#catalog.set(spec.code, spec);
    const versions = [
      ...this.versionsOf(name),
      { definition, inputSchema, outputSchema, paramHeaders: mirrored.declarations, errors, meta, listing },
    ].sort((a, b) => a.definition.majorVersion - b.definition.majorVersion);
    this.#tools.set(name, versions);
    if (versions.length === 2) this.#versioned = [...this.#versioned, name].sort();
    this.#views.clear();
  }
}

/** The major of a semver (`2.1.0`) or a bare major (`2`); NaN for anything else. */
function majorOf(version: string): number {
  const match = /^(0|[1-9]\d*)(?:\.(0|[1-9]\d*)\.(0|[1-9]\d*))?$/.exec(version);
  return match ? Number(match[1]) : Number.NaN;
}

/** Exactly one served version of a name has no rollout: the one everyone else is served. */
function servedVersionsProblems(name: string, versions: readonly RegisteredTool[]): ToolContractProblem[] {
  const unrolled = versions.filter((tool) => !tool.definition.rollout);
  if (unrolled.length === 1) return [];
  const listed = versions.map((tool) => tool.definition.version).join(', ');
  const message =
    unrolled.length === 0
      ? `every served version (${listed}) has a rollout; the version served to everyone else must have none`
      : `versions ${unrolled.map((tool) => tool.definition.version).join(' and ')} both lack a rollout; all but one served version must name who sees it`;
  return [{ tool: name, rule: 'rollout', message }];
}

type ConvertedSchemas =
  | { readonly ok: true; readonly input: JsonSchema; readonly output: JsonSchema }
  | { readonly ok: false; readonly problem: string };

/** The tool's JSON schemas; a schema too deep for the converter to walk is a broken bound, not a crash. */
function jsonSchemasOf(definition: AnyToolDefinition): ConvertedSchemas {
  try {
    return {
      ok: true,
      input: inputJsonSchema(definition.input),
      output: outputJsonSchema(definition.output),
    };
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return {
      ok: false,
      problem: `a schema nests too deeply to be converted to JSON Schema (at most ${CONTRACT_BOUNDS.schemaDepth} levels are allowed)`,
    };
  }
}

/** Zod issues in one line, each at its field: `note_id: Invalid input: expected string, received number`. */
function issueList(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .map((issue) => `${issue.path.map(String).join('.') || '(input)'}: ${issue.message}`)
    .join('; ');
}
