import { defineConfig } from 'vitest/config';
import SlowestFirst from './test/helpers/slow-first.js';

// Node loads the certificates NODE_EXTRA_CA_CERTS names at every start, TLS or not: with a system
// bundle (as on this project's machines) `node -e 0` took 124 ms of CPU against 68 ms without it,
// and the suite starts ~2,000 Node processes (the command, the MCP server, the conformance SUT).
// None of them opens a TLS connection, so the workers and everything they start run without it;
// only npm, which may ask the registry, gets it back (test/packaging.test.ts, FF_TEST_NPM_CA_CERTS).
// The config runs in vitest's main process before it forks its workers, which inherit this env.
const npmCaCerts = process.env.NODE_EXTRA_CA_CERTS;
delete process.env.NODE_EXTRA_CA_CERTS;
if (npmCaCerts !== undefined) process.env.FF_TEST_NPM_CA_CERTS = npmCaCerts;

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The engine is I/O-bound and its tests are small; real-disk and CLI tests spawn processes. A
    // ceiling for a hang sized for a loaded 2-core machine: with two busy processes beside the suite
    // (npm run test:busy) the slowest tests ran 4-7 times their idle time, and one of 7 s idle passed
    // 30 s. Tests slower than ~8 s idle set their own.
    testTimeout: 60_000,
    // Hooks build and remove sandboxes (a compiled copy with its runtime dependencies): on a loaded
    // CI machine removing one took over vitest's 10 s default, failing suites whose tests passed.
    hookTimeout: 120_000,
    pool: 'forks',
    // vitest's default is one worker fewer than the cores: one on a 2-core CI machine, which ran the
    // files one after another. Most of a file's time is spent waiting on a child process (the CLI,
    // rg, tsc), so two files at a time keep both cores busy (docs/reliability.md, "The suite on a busy machine").
    maxWorkers: 2,
    // A worker runs its files one after another in one process and module graph instead of a fresh
    // process per file: 112 start-ups and imports saved (a full run under the same load: 377 s ->
    // 287 s, CPU 357 s -> 317 s). Safe here: the one module mock (test/cli/content.test.ts) is
    // vitest's own, undone per file; fake timers, spies and patched builtins are restored in the
    // files that use them; a shuffled order of those files with the others passed.
    isolate: false,
    // The slowest files start first, so none runs alone at the end (test/helpers/slow-first.ts).
    sequence: { sequencer: SlowestFirst },
    // The unprivileged tests' sandboxes copy one compiled tree per run instead of compiling each.
    globalSetup: ['./test/helpers/sandbox-template.ts'],
    // Each file's CPU, when scripts/suite-cpu.mjs (`npm run test:cpu`) asks for it; nothing otherwise.
    setupFiles: ['./test/helpers/file-cpu.ts'],
    // Issue 28: a test must check something by expect (one whose only check was "it did not throw"
    // passes whatever the code does), and a skipped test must say why in its name (the reporter fails the run).
    expect: { requireAssertions: true },
    reporters: ['default', './test/helpers/skip-reasons-reporter.ts'],
  },
});
