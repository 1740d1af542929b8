/**
 * The oracle on the real disk (issue 32, point 5): random creates, deletes, renames of files and
 * directories, `mkdir -p`, `rm -r`, moves out of the root and back in, symlink creation and swap,
 * and `chmod 000` and back where it denies (an unprivileged user: as root, the run is repeated as
 * nobody in the sandbox of test/helpers/unprivileged.ts). After every operation the index and a
 * fresh walk (`findFilesSync`) answer the same query: zero differences. The seed is printed on failure;
 * replay one with FF_WATCH_SEED.
 */
import { chownSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, it, type ExpectStatic } from 'vitest';
import { findFilesSync } from '../../src/index.js';
import { openIndex, openIndexWith } from '../../src/watch/watched-index.js';
import { describeIf, itIf, linux } from '../helpers/skip-why.js';
import { buildNobodySandbox, isRoot, writeProbe, type Sandbox } from '../helpers/unprivileged.js';
import { runOracle, type OracleRun } from './oracle.mjs';
import { LateWatcher, makeTree, removeTree } from './helpers.js';

const OPS = Number(process.env.FF_WATCH_OPS ?? 2000);
const seedOf = (salt: number) => (process.env.FF_WATCH_SEED === undefined ? (Date.now() ^ (salt * 0x9e3779b1)) >>> 0 : Number(process.env.FF_WATCH_SEED));

function report(run: OracleRun): string {
  return `seed ${run.seed} (replay: FF_WATCH_SEED=${run.seed}): ${run.diffs.length} difference(s) in ${run.compared} queries\n${JSON.stringify(run.diffs, null, 1).slice(0, 6000)}`;
}

function expectNoDifference(expect: ExpectStatic, run: OracleRun): void {
  expect(run.diffs, report(run)).toEqual([]);
  expect(run.compared).toBe(OPS);
}

// The runs go side by side (concurrent): each has its own trees and index, and most of a run's time is
// spent waiting for the watcher's events (the cookie after each operation: 40 s of wall for 23 of CPU
// one after another: 26 s -> 19 s alone, the gitignore run the longest). Each asserts with its own
// `expect`, as vitest asks of concurrent tests. Their ceilings (300 s) are for a hang: four runs side
// by side on a busy machine (npm run test:busy) take several times their idle 8-19 s.
describeIf(linux('the index watches with inotify'))('the oracle: index vs a fresh walk after every random operation', () => {
  let sandbox: Sandbox | undefined;
  afterAll(() => {
    if (sandbox !== undefined) rmSync(sandbox.dir, { recursive: true, force: true });
  });

  const fresh = () => {
    const base = makeTree();
    const root = join(base, 'root');
    const outside = join(base, 'outside');
    mkdirSync(root);
    mkdirSync(outside);
    return { base, root, outside };
  };

  it(`${OPS} operations, hidden names shown, one directory excluded${isRoot ? ' (chmod left to the run as nobody: root reads everything)' : ', chmod 000 included'}`, async ({ expect }) => {
    const { base, root, outside } = fresh();
    try {
      const run = await runOracle({ openIndex, findFilesSync, root, outside, seed: seedOf(1), ops: OPS, chmod: !isRoot, tree: { hidden: true, exclude: ['**/b/c'] } });
      expectNoDifference(expect, run);
      expect(run.stats.events).toBeGreaterThan(OPS / 2);
      // The second asking of a query after an operation that changed nothing reuses the kept answer.
      expect(run.stats.answersReused).toBeGreaterThan(OPS / 10);
      if (!isRoot) expect(run.gaps).toBeGreaterThan(OPS / 20);
    } finally {
      removeTree(base);
    }
  }, 300_000);

  it(`${OPS / 4} operations with a watcher whose events come late (in order): the cookie still makes every answer exact`, async ({ expect }) => {
    const { base, root, outside } = fresh();
    try {
      // 4 ms is late enough: the query follows each operation within microseconds. An index that
      // answers without its cookie (planted: sync() returning at once) differs within 6 queries;
      // 15 ms held each of the 500 operations 33 ms (16 s) for no more evidence.
      const late = (options: Parameters<typeof openIndex>[0]) => openIndexWith(options, { watcher: new LateWatcher(4) });
      const run = await runOracle({ openIndex: late, findFilesSync, root, outside, seed: seedOf(4), ops: OPS / 4, chmod: false, tree: { hidden: true } });
      expect(run.diffs, report(run)).toEqual([]);
      expect(run.compared).toBe(OPS / 4);
    } finally {
      removeTree(base);
    }
  }, 300_000);

  it(`${OPS} operations with gitignore and the default hidden rule`, async ({ expect }) => {
    const { base, root, outside } = fresh();
    try {
      const run = await runOracle({ openIndex, findFilesSync, root, outside, seed: seedOf(2), ops: OPS, chmod: !isRoot, tree: { gitignore: true } });
      expectNoDifference(expect, run);
    } finally {
      removeTree(base);
    }
  }, 300_000);

  itIf([isRoot, 'not root: the two runs above include chmod 000 as this unprivileged user'])(`${OPS} operations with chmod 000 and back, as nobody (setpriv/runuser)`, async ({ expect }) => {
    sandbox = buildNobodySandbox();
    const { base, root, outside } = fresh();
    try {
      // The tree belongs to nobody, so nobody can chmod it.
      for (const dir of [base, root, outside]) chownSync(dir, 65534, 65534);
      writeProbe(sandbox!, 'oracle.mjs', readFileSync(new URL('./oracle.mjs', import.meta.url), 'utf8'));
      const probe = writeProbe(sandbox!, 'oracle-probe.mjs', PROBE);
      const stdout = await sandbox!.runAsNobodyAsync(probe, [root, outside, String(seedOf(3)), String(OPS)], { PATH: process.env.PATH ?? '/usr/bin:/bin' });
      const run = JSON.parse(stdout) as OracleRun;
      expectNoDifference(expect, run);
      // chmod 000 really denied nobody: answers had gaps, and the index gave them word for word.
      expect(run.gaps).toBeGreaterThan(OPS / 20);
    } finally {
      removeTree(base);
    }
  }, 300_000);
}, { concurrent: true });

const PROBE = `
import { findFilesSync, openIndex } from './dist/index.js';
import { runOracle } from './oracle.mjs';
const [root, outside, seed, ops] = process.argv.slice(2);
const run = await runOracle({ openIndex, findFilesSync, root, outside, seed: Number(seed), ops: Number(ops), chmod: true, tree: { hidden: true } });
console.log(JSON.stringify(run));
`;

