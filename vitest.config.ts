import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The engine is I/O-bound and its tests are small; real-disk and CLI tests spawn processes.
    testTimeout: 30_000,
    pool: 'forks',
  },
});
