#!/usr/bin/env node
// The toolgate command of this checkout: the framework package's own command (packages/toolgate/bin),
// kept at this path for `npm start`, the scripts, the tests and the README's recipes.
await import('../packages/toolgate/bin/toolgate.mjs');
