import type { Command } from 'commander';
import { guarded } from './guarded.ts';

/** The policy directory a command works on: the argument, else the `policy` of the config in use. */
async function policyDirectory(
  command: string,
  dir: string | undefined,
  config: string | undefined,
): Promise<string> {
  const { resolve } = await import('node:path');
  if (dir !== undefined) return resolve(dir);
  const { resolveCommandConfig } = await import('../config/discover-config.ts');
  const { servedModules } = await import('./served-modules.ts');
  const served = await servedModules(resolveCommandConfig(command, config), command);
  if (served.settings.policy === undefined) {
    throw new Error(`the config ${served.file} names no policy directory (policy: './policies')`);
  }
  return served.settings.policy;
}

/**
 * `toolgate policy validate [DIR]` (exit 0, or 2 naming each problem as file:line:column) and
 * `toolgate policy test [DIR] --cases FILE` (exit 0 when every case holds, 1 otherwise).
 */
export function registerPolicyCommand(program: Command): void {
  const policy = program
    .command('policy')
    .description('Validate and test Cedar policy directories (*.cedar plus one *.cedarschema).');
  policy
    .command('validate')
    .description('Parse and validate the policies against their schema; name every problem by file and line.')
    .argument('[dir]', "policy directory (default: the config's policy)")
    .option('--config <file>', 'use the policy directory of this config (TOOLGATE_CONFIG)')
    .action(async (dir: string | undefined, options: { config?: string }) =>
      guarded('policy validate', async () => {
        const { loadPolicyDirectory } = await import('../policy/policy-directory.ts');
        const { describePolicyProblem } = await import('../policy/policy-problem.ts');
        const target = await policyDirectory('policy validate', dir, options.config);
        const loaded = loadPolicyDirectory(target);
        if (!loaded.ok) {
          process.stderr.write(`${loaded.problems.map(describePolicyProblem).join('\n')}\n`);
          process.exitCode = 2;
          return;
        }
        const { directory } = loaded;
        process.stdout.write(
          `${target}: ${directory.meta.size} policies valid against the schema; policy_version ${directory.version}\n`,
        );
      }),
    );
  policy
    .command('test')
    .description('Decide each case of a YAML table (request -> expected decision and reason).')
    .argument('[dir]', "policy directory (default: the config's policy)")
    .requiredOption(
      '--cases <file>',
      'YAML file: cases: [{ name, principal, action, resource?, input?, facts?, expect, policy?, reason? }]',
    )
    .option('--config <file>', 'use the policy directory of this config (TOOLGATE_CONFIG)')
    .action(async (dir: string | undefined, options: { cases: string; config?: string }) =>
      guarded('policy test', async () => {
        const { loadPolicyDirectory } = await import('../policy/policy-directory.ts');
        const { describePolicyProblem } = await import('../policy/policy-problem.ts');
        const { PolicyEngine } = await import('../policy/policy-engine.ts');
        const { readPolicyCases, runPolicyCases } = await import('../policy/policy-cases.ts');
        const target = await policyDirectory('policy test', dir, options.config);
        const loaded = loadPolicyDirectory(target);
        if (!loaded.ok) {
          process.stderr.write(`${loaded.problems.map(describePolicyProblem).join('\n')}\n`);
          process.exitCode = 2;
          return;
        }
        const results = runPolicyCases(new PolicyEngine(loaded.directory), readPolicyCases(options.cases));
        const lines = results.map((r) =>
          r.passed
            ? `ok    ${r.name}`
            : `FAIL  ${r.name}\n      expected ${r.expected}\n      decided  ${r.decided}`,
        );
        const failed = results.filter((r) => !r.passed).length;
        lines.push(
          `${results.length - failed} of ${results.length} cases hold (policy_version ${loaded.directory.version})`,
        );
        process.stdout.write(`${lines.join('\n')}\n`);
        process.exitCode = failed === 0 ? 0 : 1;
      }),
    );
}
