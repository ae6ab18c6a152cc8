// Runs around `npm pack` of a workspace package (prepack strip, postpack restore), in its directory:
// the packed package.json carries no scripts, so installing the package runs none and lists none for
// a consumer's script review, and its exports carry no `toolgate-source` condition, which points this
// repository's type check and tests at the TypeScript sources (src/ is not packed). A private
// workspace package (the reference demo) is never published, so no packed manifest names it.
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

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

/** Names of the private packages beside this one in the workspace. */
function privateSiblings() {
  return readdirSync('..').flatMap((dir) => {
    const manifest = join('..', dir, 'package.json');
    if (!existsSync(manifest)) return [];
    const { name, private: isPrivate } = JSON.parse(readFileSync(manifest, 'utf8'));
    return isPrivate === true ? [name] : [];
  });
}

/** A name-to-value map without the names given. */
function without(map, names) {
  if (map === undefined) return undefined;
  return Object.fromEntries(Object.entries(map).filter(([name]) => !names.includes(name)));
}

if (process.argv[2] === 'restore') {
  if (existsSync(KEPT)) renameSync(KEPT, MANIFEST);
} else {
  // A pack that stopped before postpack left the original aside: put it back before stripping again.
  if (existsSync(KEPT)) renameSync(KEPT, MANIFEST);
  const text = readFileSync(MANIFEST, 'utf8');
  const { scripts: _scripts, exports, ...published } = JSON.parse(text);
  const unpublished = privateSiblings();
  for (const field of ['dependencies', 'peerDependencies', 'peerDependenciesMeta', 'optionalDependencies']) {
    if (published[field] !== undefined) published[field] = without(published[field], unpublished);
  }
  writeFileSync(KEPT, text);
  writeFileSync(MANIFEST, `${JSON.stringify({ ...published, exports: withoutSource(exports) }, null, 2)}\n`);
}
