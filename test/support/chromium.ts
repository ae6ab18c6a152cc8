import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Debian's Chromium, which the browser tests drive through playwright-core (`.ci/ensure-chromium.sh`). */
export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--no-first-run',
];
/** Where the console tests put their screenshots; a temp dir unless set. */
export const CONSOLE_SHOTS =
  process.env.TOOLGATE_CONSOLE_SCREENSHOTS ?? join(tmpdir(), 'toolgate-console-shots');
