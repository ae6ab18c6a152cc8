import { canonicalJson } from '../contract/canonical-json.ts';
import { type ChangeClass, type ContractChange, severityOf } from './change-classes.ts';
import type { ContractDocument, ContractTool } from './contract-document.ts';
import { compareText } from './contract-export.ts';
import { diffSchemas } from './schema-diff.ts';

/** Whether one tool's breaking changes are answered by its version. */
export interface ToolVerdict {
  readonly tool: string;
  readonly oldVersion: string | null;
  readonly newVersion: string | null;
  readonly breaking: number;
  readonly compatible: number;
  /** True when the tool has no breaking change, or its major version went up. */
  readonly accepted: boolean;
  readonly reason: string;
}

export interface ContractDiff {
  readonly changes: ContractChange[];
  readonly verdicts: ToolVerdict[];
  /** False when some breaking change is not matched by a major version bump: the release gate fails. */
  readonly ok: boolean;
}

export interface DiffOptions {
  /** Tools whose removal (or rename) is intended, e.g. after a deprecation period. */
  readonly allowRemoved?: readonly string[];
}

/** Server-side operation policy published in the contract; changes are reported, never breaking. */
const POLICY_FIELDS = [
  'idempotency',
  'rollout',
  'duplicate_suspicion',
  'confirmation',
  'supports_dry_run',
  'external_systems',
] as const;

const same = (a: unknown, b: unknown): boolean =>
  a === undefined || b === undefined ? a === b : canonicalJson(a) === canonicalJson(b);

function major(version: string | null): number {
  const match = version === null ? null : /^(\d+)\./.exec(version);
  return match ? Number(match[1]) : Number.NaN;
}

function toolChange(tool: string, change: ChangeClass, pointer: string, message: string): ContractChange {
  return { tool, change, severity: severityOf(change), pointer, message };
}

function diffErrors(before: ContractTool, after: ContractTool): ContractChange[] {
  const changes: ContractChange[] = [];
  const newErrors = new Map(after.errors.map((e) => [e.code, e]));
  const oldCodes = new Set(before.errors.map((e) => e.code));
  const at = (code: string) => `/errors/${after.errors.findIndex((e) => e.code === code)}`;
  for (const was of before.errors) {
    const now = newErrors.get(was.code);
    const name = before.name;
    if (!now) {
      const index = before.errors.indexOf(was);
      changes.push(toolChange(name, 'error_removed', `/errors/${index}`, `error ${was.code} removed`));
      continue;
    }
    if (was.category !== now.category) {
      const message = `error ${was.code} category ${was.category} -> ${now.category}`;
      changes.push(toolChange(name, 'error_category_changed', `${at(was.code)}/category`, message));
    }
    if (was.retryable !== now.retryable) {
      const message = `error ${was.code} retryable ${was.retryable} -> ${now.retryable}`;
      changes.push(toolChange(name, 'error_retryable_changed', `${at(was.code)}/retryable`, message));
    }
    if (was.description !== now.description) {
      const message = `error ${was.code} description reworded`;
      changes.push(toolChange(name, 'error_description_changed', `${at(was.code)}/description`, message));
    }
  }
  for (const now of after.errors.filter((e) => !oldCodes.has(e.code))) {
    changes.push(toolChange(after.name, 'error_added', at(now.code), `error ${now.code} added`));
  }
  return changes;
}

/** Every classified change between two versions of the same tool. */
export function diffTool(before: ContractTool, after: ContractTool): ContractChange[] {
  const name = after.name;
  const changes: ContractChange[] = [];
  const note = (change: ChangeClass, pointer: string, message: string) =>
    changes.push(toolChange(name, change, pointer, message));
  if (before.kind !== after.kind) note('kind_changed', '/kind', `kind ${before.kind} -> ${after.kind}`);
  if (before.mutation !== after.mutation) {
    note('mutation_changed', '/mutation', `mutation ${before.mutation} -> ${after.mutation}`);
  }
  for (const scope of after.scopes.filter((s) => !before.scopes.includes(s))) {
    note('scope_added', `/scopes/${after.scopes.indexOf(scope)}`, `scope ${scope} now required`);
  }
  for (const scope of before.scopes.filter((s) => !after.scopes.includes(s))) {
    note('scope_removed', '/scopes', `scope ${scope} no longer required`);
  }
  changes.push(...diffErrors(before, after));
  changes.push(...diffSchemas(name, 'input', before.input_schema, after.input_schema));
  changes.push(...diffSchemas(name, 'output', before.output_schema, after.output_schema));
  if (before.title !== after.title)
    note('title_changed', '/title', `title "${before.title}" -> "${after.title}"`);
  if (before.description !== after.description)
    note('description_changed', '/description', 'description reworded');
  if (!same(before.examples, after.examples)) {
    note(
      'examples_changed',
      '/examples',
      `examples changed (${before.examples.length} -> ${after.examples.length})`,
    );
  }
  if (!same(before.annotations, after.annotations))
    note('annotations_changed', '/annotations', 'annotations changed');
  // A contract exported before tasks were served has no task_support: for MCP that means "forbidden".
  const tasksBefore = (before.task_support ?? 'forbidden') !== 'forbidden';
  const tasksAfter = (after.task_support ?? 'forbidden') !== 'forbidden';
  if (tasksBefore !== tasksAfter) {
    note(
      tasksAfter ? 'task_support_added' : 'task_support_removed',
      '/task_support',
      `taskSupport ${before.task_support ?? 'absent'} -> ${after.task_support ?? 'absent'}`,
    );
  }
  if (before.timeout_ms !== after.timeout_ms) {
    note('timeout_changed', '/timeout_ms', `timeout ${before.timeout_ms} ms -> ${after.timeout_ms} ms`);
  }
  for (const field of POLICY_FIELDS) {
    if (same(before[field], after[field])) continue;
    note(
      'policy_changed',
      `/${field}`,
      `${field} ${JSON.stringify(before[field])} -> ${JSON.stringify(after[field])}`,
    );
  }
  if (!same(before.notes, after.notes)) note('notes_changed', '/notes', 'documented limits changed');
  if (before.version !== after.version)
    note('version_changed', '/version', `version ${before.version} -> ${after.version}`);
  return changes;
}

function verdictFor(
  tool: string,
  before: ContractTool | undefined,
  after: ContractTool | undefined,
  changes: ContractChange[],
  options: DiffOptions,
): ToolVerdict {
  const breaking = changes.filter((c) => c.severity === 'breaking').length;
  const base = {
    tool,
    oldVersion: before?.version ?? null,
    newVersion: after?.version ?? null,
    breaking,
    compatible: changes.length - breaking,
  };
  if (breaking === 0) return { ...base, accepted: true, reason: 'no breaking change' };
  if (!after) {
    const allowed = options.allowRemoved?.includes(tool) ?? false;
    return {
      ...base,
      accepted: allowed,
      reason: allowed ? 'removal allowed' : 'removed without --allow-removed',
    };
  }
  const bumped = major(after.version) > major(before?.version ?? null);
  const wanted = `${major(before?.version ?? null) + 1}.0.0`;
  return {
    ...base,
    accepted: bumped,
    reason: bumped ? 'major version bumped' : `needs major version ${wanted}`,
  };
}

/**
 * Each contract's tools by the key they are paired under: the name, or `name@major` for a name either
 * contract holds in more than one version, so the versions served side by side are compared major by
 * major (and the one a migration retires shows as removed).
 */
function pairingKeys(
  before: ContractDocument,
  after: ContractDocument,
): { readonly old: Map<string, ContractTool>; readonly now: Map<string, ContractTool> } {
  const several = (document: ContractDocument, name: string) =>
    document.tools.filter((t) => t.name === name).length > 1;
  const keyOf = (tool: ContractTool) =>
    several(before, tool.name) || several(after, tool.name)
      ? `${tool.name}@${major(tool.version)}`
      : tool.name;
  return {
    old: new Map(before.tools.map((t) => [keyOf(t), t])),
    now: new Map(after.tools.map((t) => [keyOf(t), t])),
  };
}

/**
 * Compares two contracts tool by tool. A tool that disappears while another appears with the same
 * input and output schemas and kind is reported as a rename (breaking for every caller of the old name).
 * A name served in two versions is compared major by major, each reported as `name@major`.
 */
export function diffContracts(
  before: ContractDocument,
  after: ContractDocument,
  options: DiffOptions = {},
): ContractDiff {
  const { old: oldTools, now: newTools } = pairingKeys(before, after);
  const added = [...newTools].filter(([key]) => !oldTools.has(key)).map(([, t]) => t);
  const renamedTo = new Map<string, ContractTool>();
  for (const [key, gone] of [...oldTools].filter(([k]) => !newTools.has(k))) {
    const twin = added.find(
      (t) =>
        t.name !== gone.name &&
        t.kind === gone.kind &&
        same(t.input_schema, gone.input_schema) &&
        same(t.output_schema, gone.output_schema) &&
        ![...renamedTo.values()].includes(t),
    );
    if (twin) renamedTo.set(key, twin);
  }
  const changes: ContractChange[] = [];
  const verdicts: ToolVerdict[] = [];
  const keys = [...new Set([...oldTools.keys(), ...newTools.keys()])].sort(compareText);
  for (const key of keys) {
    const was = oldTools.get(key);
    const now = newTools.get(key);
    let own: ContractChange[];
    if (was && now) own = diffTool(was, now).map((change) => ({ ...change, tool: key }));
    else if (was) {
      const twin = renamedTo.get(key);
      own = [
        twin
          ? toolChange(key, 'tool_renamed', '', `renamed to ${twin.name}`)
          : toolChange(key, 'tool_removed', '', `version ${was.version} is gone`),
      ];
    } else {
      const origin = [...renamedTo.entries()].find(([, t]) => t === now)?.[0];
      const version = `version ${now?.version ?? '?'}`;
      own = [toolChange(key, 'tool_added', '', origin ? `${version}, renamed from ${origin}` : version)];
    }
    changes.push(...own);
    verdicts.push(verdictFor(key, was, now, own, options));
  }
  return { changes, verdicts, ok: verdicts.every((v) => v.accepted) };
}

/**
 * Compares the versions of one name served side by side in one contract, each with the next major:
 * what a principal moved to the newer version meets. Throws when the contract serves fewer than two.
 */
export function diffVersions(document: ContractDocument, name: string): ContractDiff {
  const versions = document.tools
    .filter((t) => t.name === name)
    .sort((a, b) => major(a.version) - major(b.version));
  if (versions.length < 2) {
    throw new Error(
      `${name} is served in ${versions.length} version(s) in this contract; --versions compares two majors of one name`,
    );
  }
  const changes: ContractChange[] = [];
  const verdicts: ToolVerdict[] = [];
  for (let index = 1; index < versions.length; index += 1) {
    const older = versions[index - 1]!;
    const newer = versions[index]!;
    const label = versions.length === 2 ? name : `${name}@${major(newer.version)}`;
    const own = diffTool(older, newer).map((change) => ({ ...change, tool: label }));
    changes.push(...own);
    verdicts.push(verdictFor(label, older, newer, own, {}));
  }
  return { changes, verdicts, ok: verdicts.every((v) => v.accepted) };
}
