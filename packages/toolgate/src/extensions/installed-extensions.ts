import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ToolgateExtension } from '../config/toolgate-extension.ts';

/** An installed package's declaration, in its package.json: `"toolgate": { "extension", "commands" }`. */
export interface DeclaredExtension {
  /** The package's name. */
  readonly packageName: string;
  /** The extension module's file URL. */
  readonly module: string;
  /** The commands it provides, as typed after `toolgate` ("eval", "contract release"). */
  readonly commands: readonly string[];
}

interface Manifest {
  readonly name?: unknown;
  readonly dependencies?: Record<string, unknown>;
  readonly devDependencies?: Record<string, unknown>;
  readonly workspaces?: unknown;
  readonly toolgate?: { readonly extension?: unknown; readonly commands?: unknown };
}

function readManifest(file: string): Manifest | null {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Manifest;
  } catch {
    return null;
  }
}

/** The nearest package.json at or above `dir`. */
function nearestManifest(dir: string): string | null {
  for (let at = resolve(dir); ; at = dirname(at)) {
    if (existsSync(join(at, 'package.json'))) return join(at, 'package.json');
    if (dirname(at) === at) return null;
  }
}

/** The workspace a project belongs to: the nearest manifest above with `workspaces` that lists its folder. */
function workspaceOf(manifestFile: string): { root: string; members: string[] } | null {
  const project = dirname(manifestFile);
  for (let dir = project; ; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    const workspaces = existsSync(file) ? readManifest(file)?.workspaces : undefined;
    if (workspaces !== undefined) {
      const members = memberFolders(dir, workspaces);
      return dir === project || members.includes(project) ? { root: file, members } : null;
    }
    if (dirname(dir) === dir) return null;
  }
}

/** The folders of a workspace's member packages (patterns `dir` and `dir/*`). */
function memberFolders(root: string, workspaces: unknown): string[] {
  const patterns = Array.isArray(workspaces)
    ? workspaces
    : ((workspaces as { packages?: unknown } | undefined)?.packages ?? []);
  if (!Array.isArray(patterns)) return [];
  return patterns.flatMap((pattern: unknown) => {
    if (typeof pattern !== 'string') return [];
    if (!pattern.endsWith('/*')) return [join(root, pattern)];
    const parent = join(root, pattern.slice(0, -2));
    if (!existsSync(parent)) return [];
    return readdirSync(parent, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? [join(parent, e.name)] : [],
    );
  });
}

const dependencyNames = (manifest: Manifest | null) => [
  ...Object.keys(manifest?.dependencies ?? {}),
  ...Object.keys(manifest?.devDependencies ?? {}),
];

/**
 * The toolgate extensions the project's installed packages declare: the dependencies and dev
 * dependencies of the nearest package.json above `projectDir` and, in a workspace, of its root and its
 * members, each resolved as the project resolves it. Reads manifests; loads nothing.
 */
export function declaredExtensions(projectDir: string = process.cwd()): DeclaredExtension[] {
  const manifestFile = nearestManifest(projectDir);
  if (manifestFile === null) return [];
  const names = new Set(dependencyNames(readManifest(manifestFile)));
  const workspace = workspaceOf(manifestFile);
  if (workspace !== null) {
    for (const name of dependencyNames(readManifest(workspace.root))) names.add(name);
    for (const folder of workspace.members) {
      const name = readManifest(join(folder, 'package.json'))?.name;
      if (typeof name === 'string') names.add(name);
    }
  }
  const require = createRequire(manifestFile);
  const found: DeclaredExtension[] = [];
  for (const name of [...names].sort()) {
    let file: string;
    try {
      file = require.resolve(`${name}/package.json`);
    } catch {
      continue; // not installed, or it exports no package.json: it declares nothing we can read
    }
    const declaration = readManifest(file)?.toolgate;
    if (typeof declaration?.extension !== 'string') continue;
    const commands = Array.isArray(declaration.commands)
      ? declaration.commands.filter((c): c is string => typeof c === 'string')
      : [];
    found.push({
      packageName: name,
      module: pathToFileURL(resolve(dirname(file), declaration.extension)).href,
      commands,
    });
  }
  return found;
}

/** Imports a declared extension; a module that fails to load, or exports no extension, names its package. */
export async function loadExtension(declared: DeclaredExtension): Promise<ToolgateExtension> {
  let loaded: { default?: unknown };
  try {
    loaded = (await import(declared.module)) as { default?: unknown };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`cannot load the toolgate extension of ${declared.packageName}: ${reason}`);
  }
  const extension = loaded.default as ToolgateExtension | undefined;
  if (typeof extension !== 'object' || extension === null || typeof extension.name !== 'string') {
    throw new Error(
      `${declared.packageName} declares the toolgate extension ${declared.module}, whose default export is not one (defineExtension({ name, commands }))`,
    );
  }
  return extension;
}
