import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The engine is I/O-bound and its tests are small; real-disk and CLI tests spawn processes.
    testTimeout: 30_000,
    // Hooks build and remove sandboxes (a compiled copy with its runtime dependencies): on a loaded
    // CI machine removing one took over vitest's 10 s default, failing suites whose tests passed.
    hookTimeout: 120_000,
    pool: 'forks',
    // Issue 28: a test must check something by expect (one whose only check was "it did not throw"
    // passes whatever the code does), and a skipped test must say why in its name (the reporter fails the run).
    expect: { requireAssertions: true },
    reporters: ['default', './test/helpers/skip-reasons-reporter.ts'],
  },
});
