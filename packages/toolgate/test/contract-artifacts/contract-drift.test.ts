import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { DEMO_POLICY_DIR, referenceDomains } from '@toolgate/domains';
import { beforeAll, describe, expect, test } from 'vitest';
import { diffContracts } from '../../src/contract-artifacts/contract-diff.ts';
import { type ContractDocument, readContractFile } from '../../src/contract-artifacts/contract-document.ts';
import { serializeContract } from '../../src/contract-artifacts/contract-export.ts';
import { lintContract, lintReportText } from '../../src/contract-artifacts/contract-lint.ts';
import { diffReportText } from '../../src/contract-artifacts/diff-report.ts';
import { projectImplementation } from '../../src/contract-artifacts/project-implementation.ts';
import { buildServedContract } from '../../src/contract-artifacts/served-contract.ts';
import { DOCS_COMMAND, renderToolCatalog } from '../../src/contract-artifacts/tool-catalog-doc.ts';

/** Release gate: the committed contract and catalog are what the code serves, and the tools lint clean. */
const CONTRACT_FILE = 'contracts/toolgate.contract.json';
const CATALOG_FILE = 'docs/tools.md';
const inRepo = (path: string) => fileURLToPath(new URL(`../../../../${path}`, import.meta.url));
const EXPORT_COMMAND = `npx toolgate contract export --no-commit --out ${CONTRACT_FILE}`;

let current: ContractDocument;
beforeAll(async () => {
  // As `npm run contract:update` exports it from the repository root: the demo, its policies, no commit.
  current = await buildServedContract(referenceDomains, {
    implementation: projectImplementation(inRepo(''), { commit: false }),
    policyDir: DEMO_POLICY_DIR,
  });
});

function driftMessage(): string {
  const lines = [`${CONTRACT_FILE} differs from the contract the code serves.`];
  if (existsSync(inRepo(CONTRACT_FILE))) {
    const diff = diffContracts(readContractFile(inRepo(CONTRACT_FILE)), current);
    lines.push('', diffReportText(diff).trimEnd(), '');
    if (!diff.ok) {
      lines.push('Some change is breaking: bump the major version of each tool marked BREAKING first.');
    }
  }
  lines.push(
    `Review the change, then run \`${EXPORT_COMMAND}\` (or \`npm run contract:update\`, which also`,
    `regenerates ${CATALOG_FILE}) and commit both. Breaking changes need a major version bump of the tool;`,
    `compare with \`npx toolgate contract diff ${CONTRACT_FILE}\` before re-exporting.`,
  );
  return lines.join('\n');
}

describe('contract drift', () => {
  test(`${CONTRACT_FILE} is the exported contract of the reference domains`, () => {
    const committed = existsSync(inRepo(CONTRACT_FILE)) ? readFileSync(inRepo(CONTRACT_FILE), 'utf8') : '';
    if (committed !== serializeContract(current)) expect.fail(driftMessage());
  });

  test(`${CATALOG_FILE} is generated from that contract`, () => {
    const committed = existsSync(inRepo(CATALOG_FILE)) ? readFileSync(inRepo(CATALOG_FILE), 'utf8') : '';
    if (committed !== renderToolCatalog(current)) {
      expect.fail(
        `${CATALOG_FILE} is out of date; run \`${DOCS_COMMAND}\` (or \`npm run contract:update\`).`,
      );
    }
  });

  test('the reference tools pass every lint rule', () => {
    const report = lintContract(current);
    if (!report.ok)
      expect.fail(`npx toolgate lint finds problems:\n${lintReportText(report, current.tools.length)}`);
    expect(report.findings).toEqual([]);
  });
});
