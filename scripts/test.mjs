#!/usr/bin/env node
/**
 * `npm test`: builds the package (what `npm run build` does: tsc, then the bundles; tsc emitting without
 * its own type-check, which the tests' type-check of src and test/ makes), then runs vitest
 * on that build while tsc type-checks the tests against it. Arguments go to
 * vitest (`npm test -- test/cli`). Exits with the status of the first step that failed (the build,
 * then the type-check, then vitest): a type error fails the run even when every test passed.
 *
 * Perf: the type-check runs at the lowest priority, beside vitest. Side by side with the build at
 * the same priority (as before), the build's tsc took 11.4 s instead of 5.4 and vitest started
 * 14-16 s in. Now the build has the cores, and the type-check's ~16 s of CPU takes what the suite
 * leaves idle (it keeps ~1.8 of 2 cores busy) instead of competing with it; docs/reliability.md,
 * "The suite on a busy machine".
 */
import { spawn } from 'node:child_process';
import { setPriority } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const project = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(import.meta.url);
/** A package's command, found by its package.json's `bin` (vitest's exports hide the file itself). */
function bin(pkg, command) {
  const manifest = require.resolve(`${pkg}/package.json`);
  return join(dirname(manifest), require(manifest).bin[command]);
}
const tsc = bin('typescript', 'tsc');
const vitest = bin('vitest', 'vitest');

/**
 * Runs `node ...args` in the project, output shown as it comes; resolves to its status (1 when a
 * signal ended it). `lowPriority`: niced to the lowest priority, where the OS allows it.
 */
function node(args, { lowPriority = false } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: project, stdio: 'inherit' });
    if (lowPriority && child.pid !== undefined) {
      try {
        setPriority(child.pid, 19);
      } catch {
        // Not allowed here: it runs at the normal priority, only slower to leave the cores.
      }
    }
    child.once('error', reject);
    child.once('close', (code) => resolve(code ?? 1));
  });
}

// `--noCheck`: the same dist/ (emit and declarations) in 7.1 s instead of 9.0 on the critical path;
// src is type-checked once, by the type-check below (test/tsconfig.json includes it), which fails the run.
const built = await node([tsc, '-p', 'tsconfig.json', '--noCheck']).then((status) => (status === 0 ? node(['scripts/bundle.mjs']) : status));
// A failed build fails the run: a type-check now would read the previous build's declarations.
if (built !== 0) process.exit(built);
// After the build: the tests import the built declarations (dist/index.d.ts, 'find-file/glob'), so a
// type-check started beside the build read the previous build's, or failed on a clean tree.
const checked = node([tsc, '-p', 'test/tsconfig.json', '--noEmit'], { lowPriority: true });
const tested = await node([vitest, 'run', ...process.argv.slice(2)]);
process.exit((await checked) || tested);
