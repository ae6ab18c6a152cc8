import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

/**
 * The workspace packages' exports point this condition at their TypeScript sources (as tsconfig.json's
 * customConditions do for the type check). Vitest's own defaults otherwise: the server conditions
 * without `module`, which would pick bundler-only builds of some dependencies.
 */
const SOURCES = ['toolgate-source', ...defaultServerConditions.filter((condition) => condition !== 'module')];

export default defineConfig({
  ssr: { resolve: { conditions: SOURCES } },
  test: {
    include: [
      'test/**/*.test.ts',
      'packages/*/test/**/*.test.ts',
      'examples/*/test/**/*.test.ts',
      'docs/examples/**/*.test.ts',
      'packages/toolgate/templates/*/test/**/*.test.ts',
    ],
    globalSetup: ['test/support/build-dist.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
