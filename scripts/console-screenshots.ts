// `node --conditions=toolgate-source --import tsx scripts/console-screenshots.ts [OUT_DIR]`: the operator
// console's main views at 1280×800, as PNGs for docs/operator-api.md (docs/images/console/ unless told),
// drawn from a seeded gateway in Chromium (/usr/bin/chromium) and stored with a palette of 256 colours
// (png-palette.ts) to keep them small. `npm run build` first: the page loads the compiled browser modules.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS } from '../test/support/chromium.ts';
import { CONSOLE_OPERATOR, startConsoleWorld } from '../test/support/console-world.ts';
import { toPalettePng } from './png-palette.ts';

const OUT = process.argv[2] ?? join(import.meta.dirname, '../docs/images/console');

const world = await startConsoleWorld();
const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
try {
  mkdirSync(OUT, { recursive: true });
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, colorScheme: 'light' });
  const { origin } = world.gw;
  await page.goto(`${origin}/console`);
  const shoot = async (file: string) => {
    writeFileSync(join(OUT, file), toPalettePng(await page.screenshot()));
    console.log(join(OUT, file));
  };
  await page.getByLabel('Operator token').fill(await world.gw.tokenFor(CONSOLE_OPERATOR));
  await page.getByRole('button', { name: 'Sign in' }).click();
  const shots: [file: string, hash: string, ready: string][] = [
    ['waiting.png', '#home', 'Waiting for you'],
    ['review-queue.png', '#queue', 'Review queue (2)'],
    ['confirmations.png', '#confirmations', 'Confirmations awaiting an approver (2)'],
    ['operations.png', '#operations', 'Operations'],
    ['operation.png', `#operation/${world.resolvedId}`, `Operation ${world.resolvedId}`],
    ['confirmation.png', `#operation/${world.parkedIds[1]}`, `Operation ${world.parkedIds[1]}`],
    ['audit.png', '#audit', 'Audit trail'],
    ['exceptions.png', '#exceptions', 'Exceptions (2)'],
  ];
  for (const [file, hash, ready] of shots) {
    await page.goto(`${origin}/console${hash}`);
    await page.getByRole('heading', { level: 2, name: ready, exact: true }).waitFor();
    await shoot(file);
  }
} finally {
  await browser.close();
  await world.gw.close();
}
