// Runs around `npm pack` (prepack strip, postpack restore): the packed package.json carries no
// scripts, so installing the package runs none and lists none for a consumer's script review.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';

const MANIFEST = 'package.json';
const KEPT = 'package.json.unpacked';

if (process.argv[2] === 'restore') {
  if (existsSync(KEPT)) renameSync(KEPT, MANIFEST);
} else {
  // A pack that stopped before postpack left the original aside: put it back before stripping again.
  if (existsSync(KEPT)) renameSync(KEPT, MANIFEST);
  const text = readFileSync(MANIFEST, 'utf8');
  const { scripts: _scripts, ...published } = JSON.parse(text);
  writeFileSync(KEPT, text);
  writeFileSync(MANIFEST, `${JSON.stringify(published, null, 2)}\n`);
}
