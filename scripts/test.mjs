#!/usr/bin/env node
/**
 * `npm test`: builds the package (what `npm run build` does: tsc, then the bundles) while tsc
 * type-checks the tests, and runs vitest on that build as soon as it is built. Arguments go to
 * vitest (`npm test -- test/cli`). Exits with the status of the first step that failed (the build,
 * then the type-check, then vitest): a type error fails the run even when every test passed.
 *
 * Perf: each tsc uses one core. One after the other they took 5.7 s and 8.7 s before vitest
 * started; side by side on two cores, the longer of the two; now vitest starts when the build is
 * done, with the type-check's last 3 s beside it (docs/reliability.md, "The suite on a busy machine").
 */
import { spawn } from 'node:child_process';
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

/** Runs `node ...args` in the project, output shown as it comes; resolves to its status (1 when a signal ended it). */
function node(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: project, stdio: 'inherit' });
    child.once('error', reject);
    child.once('close', (code) => resolve(code ?? 1));
  });
}

const checked = node([tsc, '-p', 'test/tsconfig.json', '--noEmit']);
const built = await node([tsc, '-p', 'tsconfig.json']).then((status) => (status === 0 ? node(['scripts/bundle.mjs']) : status));
if (built !== 0) process.exit((await checked, built));
const tested = await node([vitest, 'run', ...process.argv.slice(2)]);
process.exit((await checked) || tested);
