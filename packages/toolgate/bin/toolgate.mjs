#!/usr/bin/env node
// The toolgate command, from the compiled package (`npm run build` writes dist/; `npm pack`, `npm start` and the tests run it).
import module from 'node:module';

// Reuses V8's compiled code across runs: a non-serving command starts in a fraction of the time.
module.enableCompileCache?.();
await import('../dist/cli/main.js');
