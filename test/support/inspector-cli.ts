import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
/** The Inspector's launcher, as `npx @modelcontextprotocol/inspector --cli` runs it. */
export const INSPECTOR = join(
  dirname(require.resolve('@modelcontextprotocol/inspector/package.json')),
  'clients/launcher/build/index.js',
);

export interface InspectorListing {
  readonly code: number;
  readonly tools: readonly { readonly name: string }[];
  /** Every line of the Inspector's schema portability report (findings and the summary). */
  readonly portability: readonly string[];
  readonly stderr: string;
}

/**
 * `tools/list` through the Inspector CLI with `--strict`, so that each portability finding is printed
 * (on stderr: "Warning: tool ...", "Error: tool ...", then "N errors, M warnings across K tools."; with
 * no finding, nothing). `target` is what follows `--cli`: a URL with its transport flags, or a command.
 */
export function inspectorToolsList(
  target: readonly string[],
  options: { catalogDir: string; cwd?: string },
): Promise<InspectorListing> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [INSPECTOR, '--cli', ...target, '--method', 'tools/list', '--strict'],
      {
        cwd: options.cwd,
        // The Inspector keeps a server catalog; it stays in the test's own folder, not the home directory.
        env: { ...process.env, MCP_CATALOG_PATH: join(options.catalogDir, 'inspector-catalog.json') },
        timeout: 30_000,
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        let tools: { name: string }[] = [];
        try {
          tools = (JSON.parse(stdout) as { tools: { name: string }[] }).tools;
        } catch {
          tools = [];
        }
        const portability = stderr
          .split('\n')
          .filter((line) =>
            /^(Warning|Error): tool |Schema portability|errors?, \d+ warnings? across/.test(line),
          );
        resolve({ code, tools, portability, stderr });
      },
    );
  });
}
