// Runs around `npm pack` of a workspace package (prepack strip, postpack restore), in its directory:
// the packed package.json carries no scripts, so installing the package runs none and lists none for
// a consumer's script review, and its exports carry no `toolgate-source` condition, which points this
// repository's type check and tests at the TypeScript sources (src/ is not packed).
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';

const MANIFEST = 'package.json';
const KEPT = 'package.json.unpacked';
const SOURCE_CONDITION = 'toolgate-source';

/** An exports map without the source condition, at any depth. */
function withoutSource(exports) {
  if (typeof exports !== 'object' || exports === null) return exports;
  return Object.fromEntries(
    Object.entries(exports)
      .filter(([key]) => key !== SOURCE_CONDITION)
      .map(([key, value]) => [key, withoutSource(value)]),
  );
}

if (process.argv[2] === 'restore') {
  if (existsSync(KEPT)) renameSync(KEPT, MANIFEST);
} else {
  // A pack that stopped before postpack left the original aside: put it back before stripping again.
  if (existsSync(KEPT)) renameSync(KEPT, MANIFEST);
  const text = readFileSync(MANIFEST, 'utf8');
  const { scripts: _scripts, exports, ...published } = JSON.parse(text);
  writeFileSync(KEPT, text);
  writeFileSync(MANIFEST, `${JSON.stringify({ ...published, exports: withoutSource(exports) }, null, 2)}\n`);
}
