import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'examples/*/test/**/*.test.ts', 'docs/examples/**/*.test.ts', 'templates/*/test/**/*.test.ts'],
    globalSetup: ['test/support/build-dist.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
