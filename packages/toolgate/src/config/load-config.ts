import { existsSync } from 'node:fs';
import { dirname, extname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { z } from 'zod';
import type { ToolgateModule } from '../app/module.ts';
import type { ExceptionDefinition } from '../contract/define-exception.ts';
import type { AnyToolDefinition } from '../contract/define-tool.ts';
import {
  collectContractProblems,
  ToolContractError,
  type ToolContractProblem,
} from '../contract/tool-contract-error.ts';
import { ToolRegistry } from '../contract/tool-registry.ts';
import { ConfigFileError } from './config-file-error.ts';
import { configFileSchema } from './config-file-schema.ts';
import type { ToolgateConfig } from './define-config.ts';
import { loadFailure } from './load-failure.ts';
import { SERVE_SETTING_LIST } from './serve-settings.ts';

export { ConfigFileError };

export interface LoadedConfig {
  /** Absolute path of the file. */
  readonly file: string;
  readonly config: ToolgateConfig;
  /** What to serve: the config's modules, plus one module holding its plain `tools`. */
  readonly modules: readonly ToolgateModule[];
}

const LOADABLE = new Set(['.mjs', '.js', '.cjs', '.ts', '.mts']);

/**
 * Imports a config module and checks it whole: the default export, every setting, and every tool's
 * contract (defineTool and registry rules), so that one run names every problem. Throws
 * ConfigFileError; the CLI prints it and exits 2.
 */
export async function loadConfigFile(path: string): Promise<LoadedConfig> {
  const file = resolve(path);
  if (!existsSync(file)) throw new ConfigFileError(file, ['no such file']);
  if (!LOADABLE.has(extname(file))) {
    throw new ConfigFileError(file, [
      `cannot load a ${extname(file) || 'extensionless'} file; use .mjs, .js or .ts`,
    ]);
  }
  let loaded: { value: Record<string, unknown>; problems: ToolContractProblem[] };
  try {
    loaded = await collectContractProblems(() => import(pathToFileURL(file).href));
  } catch (error) {
    if (error instanceof ToolContractError) throw new ConfigFileError(file, problemsOfThrown(error, ''));
    throw new ConfigFileError(file, [`cannot be loaded: ${loadFailure(error, dirname(file))}`]);
  }
  const problems = loaded.problems.map(describeProblem);
  const config = loaded.value.default;
  if (typeof config !== 'object' || config === null) {
    throw new ConfigFileError(file, [
      ...problems,
      'has no default export; write `export default defineConfig({...})`',
    ]);
  }
  const settings = configFileSchema.safeParse(config);
  if (!settings.success) {
    for (const issue of settings.error.issues) problems.push(describeIssue(issue));
  }
  const { tools = [], modules = [], exceptions = [] } = config as ToolgateConfig;
  const registry = new ToolRegistry({ retentionSeconds: 86_400 });
  // Each tool is registered alone, so its problems are named apart; the version every rollout is
  // served beside goes first, so that a second major finds it.
  const rolledOutLast = [...tools.entries()].sort(
    ([, a], [, b]) => Number(isRolledOut(a)) - Number(isRolledOut(b)),
  );
  for (const [index, tool] of rolledOutLast) {
    if (!isToolDefinition(tool)) {
      problems.push(`tools[${index}]: not a tool made by defineTool`);
      continue;
    }
    if (tool.name === 'operations_get')
      problems.push(`tool operations_get: the gateway serves its own [unique-name]`);
    try {
      registry.register(tool);
    } catch (error) {
      problems.push(...problemsOfThrown(error, `tool ${tool.name}`));
    }
  }
  modules.forEach((module, index) => {
    if (!isModule(module)) problems.push(`modules[${index}]: needs a name and a create(context) function`);
  });
  (config as ToolgateConfig).extensions?.forEach((extension, index) => {
    if (!isExtension(extension))
      problems.push(`extensions[${index}]: not a toolgate extension (needs a name)`);
  });
  exceptions.forEach((exception, index) => {
    if (!isExceptionDefinition(exception)) {
      problems.push(`exceptions[${index}]: not an exception kind made by defineException`);
    }
  });
  if (tools.length === 0 && modules.length === 0) problems.push('serves nothing: give `tools` or `modules`');
  if (problems.length > 0) throw new ConfigFileError(file, problems);
  const fromTools: ToolgateModule[] =
    tools.length > 0 || exceptions.length > 0
      ? [{ name: 'config', create: () => ({ tools, exceptions }) }]
      : [];
  return {
    file,
    config: relativeToFile(config as ToolgateConfig, dirname(file)),
    modules: [...modules, ...fromTools],
  };
}

function isExtension(value: unknown): boolean {
  return (
    typeof value === 'object' && value !== null && typeof (value as { name?: unknown }).name === 'string'
  );
}

function isRolledOut(tool: unknown): boolean {
  return isToolDefinition(tool) && tool.rollout !== undefined;
}

/** A contract error's problems, or the one message of any other error (never a stack). */
export function problemsOfThrown(error: unknown, what: string): string[] {
  if (error instanceof ToolContractError) return error.problems.map(describeProblem);
  return [`${what}: ${error instanceof Error ? error.message : String(error)}`];
}

function describeProblem(problem: ToolContractProblem): string {
  return `tool ${problem.tool}: ${problem.message} [${problem.rule}]`;
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const at = issue.path.join('.') || '(config)';
  if (issue.code === 'unrecognized_keys') {
    const allowed = Object.keys(configFileSchema.shape).join(', ');
    return `${issue.keys.join(', ')}: not a setting (allowed: ${allowed})`;
  }
  return `${at}: ${issue.message}`;
}

function isToolDefinition(value: unknown): value is AnyToolDefinition {
  const candidate = value as Partial<AnyToolDefinition> | null;
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    typeof candidate.name === 'string' &&
    typeof candidate.handler === 'function' &&
    typeof candidate.annotations === 'object' &&
    typeof candidate.majorVersion === 'number'
  );
}

function isExceptionDefinition(value: unknown): value is ExceptionDefinition {
  const candidate = value as Partial<ExceptionDefinition> | null;
  return typeof candidate?.kind === 'string' && typeof candidate.targetJsonSchema === 'object';
}

function isModule(value: unknown): value is ToolgateModule {
  const candidate = value as Partial<ToolgateModule> | null;
  return typeof candidate?.name === 'string' && typeof candidate.create === 'function';
}

/** The config's paths (the table's `path` settings, all at the top level) resolved against its directory. */
function relativeToFile(config: ToolgateConfig, dir: string): ToolgateConfig {
  const resolved: Record<string, unknown> = { ...config };
  for (const [, setting] of SERVE_SETTING_LIST) {
    const value = setting.key === undefined ? undefined : resolved[setting.key];
    if (setting.type === 'path' && typeof value === 'string') resolved[setting.key!] = resolve(dir, value);
  }
  return resolved as ToolgateConfig;
}
