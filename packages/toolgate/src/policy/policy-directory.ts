import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import * as cedar from '@cedar-policy/cedar-wasm/nodejs';
import { type ContextReads, contextReadsOf } from './context-reads.ts';
import { lineAndColumn, type PolicyProblem } from './policy-problem.ts';

/** What the engine needs to know of one policy besides its text. */
export interface PolicyMeta {
  readonly id: string;
  readonly file: string;
  readonly line: number;
  readonly effect: 'permit' | 'forbid';
  /** The public reason a deny by this policy gives (its `@reason` annotation). */
  readonly reason: string | null;
  /** The policy's condition reads `context` (the input or the module's facts). */
  readonly readsContext: boolean;
  /** Which parts of `context` it reads. */
  readonly contextReads: ContextReads;
  readonly principal: cedar.PrincipalConstraint;
  readonly action: cedar.ActionConstraint;
}

/** A policy directory that parsed and validated against its schema. */
export interface PolicyDirectory {
  readonly dir: string;
  /** First 12 hex characters of the SHA-256 of the schema and policy files, in file-name order. */
  readonly version: string;
  /** The schema and policy files the version is made of, in that order, each with the SHA-256 of its text. */
  readonly files: readonly PolicyFile[];
  readonly schema: string;
  readonly policies: Readonly<Record<string, string>>;
  readonly meta: ReadonlyMap<string, PolicyMeta>;
  /** Per action the schema declares, the action groups it is in (transitively). */
  readonly actionGroups: ReadonlyMap<string, ReadonlySet<string>>;
}

/** One file of a policy set, named as it sits in the directory. */
export interface PolicyFile {
  readonly name: string;
  readonly sha256: string;
}

export type PolicyDirectoryLoad =
  | { readonly ok: true; readonly directory: PolicyDirectory }
  | { readonly ok: false; readonly problems: readonly PolicyProblem[] };

const wholeFile = (file: string, message: string): PolicyProblem => ({ file, line: 1, column: 1, message });
const ofDirectory = (dir: string, message: string): PolicyProblem => ({
  file: dir,
  line: 0,
  column: 0,
  message,
});

/** Why a policy directory cannot be listed, in words: a missing path is the usual one. */
function unreadable(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  if (code === 'ENOENT')
    return 'no such policy directory; give the folder holding the *.cedar files and the schema';
  if (code === 'ENOTDIR') return 'not a directory; give the folder holding the *.cedar files and the schema';
  return `cannot read the policy directory (${(error as Error).message})`;
}

function located(file: string, text: string, error: cedar.DetailedError, offset = 0): PolicyProblem {
  const start = error.sourceLocations?.[0]?.start;
  const at = start === undefined ? { line: 1, column: 1 } : lineAndColumn(text, offset + start);
  const label = error.sourceLocations?.[0]?.label;
  const help = error.help ? ` (${error.help})` : '';
  return { file, ...at, message: `${error.message}${label ? `: ${label}` : ''}${help}` };
}

export interface PolicyLoadOptions {
  /**
   * The longest loading may take (start-up's bound): past it, loading stops with PolicySetTimeout
   * between two files or two policies. Unbounded when absent.
   */
  readonly timeoutMs?: number;
}

/** Loading a policy set ran past its bound: the gateway does not start on half a set. */
export class PolicySetTimeout extends Error {
  readonly dir: string;
  readonly timeoutMs: number;
  constructor(dir: string, timeoutMs: number) {
    super(`loading the policy set ${dir} took longer than ${timeoutMs} ms`);
    this.name = 'PolicySetTimeout';
    this.dir = dir;
    this.timeoutMs = timeoutMs;
  }
}

interface LoadDeadline {
  check(): void;
}

function loadDeadline(dir: string, timeoutMs: number): LoadDeadline {
  const until = performance.now() + timeoutMs;
  return {
    check() {
      if (performance.now() > until) throw new PolicySetTimeout(dir, timeoutMs);
    },
  };
}

/**
 * Reads a policy directory: every `*.cedar` file and exactly one `*.cedarschema` file at its top
 * level. Each policy file is parsed and validated against the schema (strict mode); every problem is
 * named by file, line and column. The version changes whenever any of these files does.
 */
export function loadPolicyDirectory(dir: string, options: PolicyLoadOptions = {}): PolicyDirectoryLoad {
  const deadline = options.timeoutMs === undefined ? undefined : loadDeadline(dir, options.timeoutMs);
  let names: string[];
  try {
    names = readdirSync(dir)
      .filter((name) => statSync(join(dir, name)).isFile())
      .sort();
  } catch (error) {
    return {
      ok: false,
      problems: [ofDirectory(dir, unreadable(error))],
    };
  }
  const schemaFiles = names.filter((name) => name.endsWith('.cedarschema'));
  const policyFiles = names.filter((name) => name.endsWith('.cedar'));
  const problems: PolicyProblem[] = [];
  if (schemaFiles.length !== 1) {
    problems.push(
      (schemaFiles[1] === undefined ? ofDirectory : wholeFile)(
        schemaFiles[1] ?? dir,
        `a policy directory needs exactly one *.cedarschema file (found ${schemaFiles.length})`,
      ),
    );
  }
  if (policyFiles.length === 0) problems.push(ofDirectory(dir, 'the policy directory holds no *.cedar file'));
  if (problems.length > 0) return { ok: false, problems };
  const schemaFile = schemaFiles[0]!;
  const schema = readFileSync(join(dir, schemaFile), 'utf8');
  const hash = createHash('sha256');
  const files: PolicyFile[] = [];
  for (const name of [...schemaFiles, ...policyFiles]) {
    const text = name === schemaFile ? schema : readFileSync(join(dir, name), 'utf8');
    hash.update(`${name}\0${text}\0`);
    files.push({ name, sha256: createHash('sha256').update(text).digest('hex') });
  }
  const parsedSchema = cedar.checkParseSchema(schema);
  if (parsedSchema.type === 'failure') {
    return { ok: false, problems: parsedSchema.errors.map((e) => located(schemaFile, schema, e)) };
  }
  const policies: Record<string, string> = {};
  const meta = new Map<string, PolicyMeta>();
  for (const file of policyFiles) {
    const text = readFileSync(join(dir, file), 'utf8');
    deadline?.check();
    problems.push(...policyFileProblems(file, text, schema));
    if (problems.length > 0) continue;
    deadline?.check();
    for (const policy of splitPolicies(file, text, problems, deadline)) {
      if (meta.has(policy.id)) {
        problems.push({
          file,
          line: policy.line,
          column: 1,
          message: `policy id ${policy.id} is already used by ${meta.get(policy.id)!.file}`,
        });
        continue;
      }
      policies[policy.id] = policy.text;
      meta.set(policy.id, policy);
    }
  }
  if (problems.length > 0) return { ok: false, problems };
  const version = hash.digest('hex').slice(0, 12);
  return {
    ok: true,
    directory: { dir, version, files, schema, policies, meta, actionGroups: actionGroupsOf(schema) },
  };
}

/** Each action's groups, following `in [...]` declarations of every namespace to the top. */
function actionGroupsOf(schema: string): Map<string, Set<string>> {
  const json = cedar.schemaToJson(schema);
  const parents = new Map<string, string[]>();
  if (json.type === 'success') {
    for (const namespace of Object.values(json.json)) {
      for (const [name, action] of Object.entries(namespace.actions)) {
        parents.set(
          name,
          (action.memberOf ?? []).map((m) => m.id),
        );
      }
    }
  }
  const groups = new Map<string, Set<string>>();
  for (const name of parents.keys()) {
    const seen = new Set<string>();
    const queue = [...(parents.get(name) ?? [])];
    while (queue.length > 0) {
      const next = queue.pop()!;
      if (seen.has(next)) continue;
      seen.add(next);
      queue.push(...(parents.get(next) ?? []));
    }
    groups.set(name, seen);
  }
  return groups;
}

function policyFileProblems(file: string, text: string, schema: string): PolicyProblem[] {
  const parsed = cedar.checkParsePolicySet({ staticPolicies: text });
  if (parsed.type === 'failure') return parsed.errors.map((e) => located(file, text, e));
  const validated = cedar.validate({
    schema,
    policies: { staticPolicies: text },
    validationSettings: { mode: 'strict' },
  });
  if (validated.type === 'failure') return validated.errors.map((e) => located(file, text, e));
  return validated.validationErrors.map((v) => located(file, text, v.error));
}

/** The file's policies one by one, each with its id (`@id`, else `file:line`) and what the engine reads of it. */
function splitPolicies(
  file: string,
  text: string,
  problems: PolicyProblem[],
  deadline: LoadDeadline | undefined,
): (PolicyMeta & { readonly text: string })[] {
  const parts = cedar.policySetTextToParts(text);
  if (parts.type === 'failure') {
    problems.push(...parts.errors.map((e) => located(file, text, e)));
    return [];
  }
  if (parts.policy_templates.length > 0) {
    problems.push(wholeFile(file, 'policy templates are not supported; write static policies'));
    return [];
  }
  const found: (PolicyMeta & { readonly text: string })[] = [];
  let from = 0;
  // Lines are counted once through the file, not from its start for every policy.
  let line = 1;
  let counted = 0;
  for (const part of parts.policies) {
    const offset = Math.max(0, text.indexOf(part, from));
    from = offset + part.length;
    for (let at = text.indexOf('\n', counted); at !== -1 && at < offset; at = text.indexOf('\n', at + 1))
      line += 1;
    counted = offset;
    deadline?.check();
    const json = cedar.policyToJson(part);
    if (json.type === 'failure') {
      problems.push(...json.errors.map((e) => located(file, text, e, offset)));
      continue;
    }
    const policy = json.json;
    found.push({
      id: policy.annotations?.id ?? `${file}:${line}`,
      file,
      line,
      text: part,
      effect: policy.effect,
      reason: policy.annotations?.reason ?? null,
      readsContext: JSON.stringify(policy.conditions).includes('"Var":"context"'),
      contextReads: contextReadsOf(policy.conditions),
      principal: policy.principal,
      action: policy.action,
    });
  }
  return found;
}
