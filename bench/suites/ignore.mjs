/**
 * What `gitignore: true` costs (issue 14), beside ripgrep, which applies the same ignore files, and
 * fdir with the `ignore` package over the root's `.gitignore` (what a JavaScript crawler does when
 * asked to respect .gitignore). Same run, interleaved rounds; counts printed so the answers can be
 * compared (ripgrep's and ours must be equal; fdir's root-only peer reads fewer ignore files).
 *
 *   node bench/suites/ignore.mjs [--trees=synthetic,realistic,repo] [--rounds=5]
 *
 * `synthetic` is bench's 200k-file tree, a repository of its own whose .gitignore ignores little (the
 * cost of looking for and applying ignore files; the realistic tree sits inside this checkout, whose
 * .gitignore ignores its node_modules, so it would measure the saving, not the cost);
 * `realistic` is bench's realistic tree (a real `npm install`: 114k files in 8.8k directories) made a
 * repository of its own, as a cloned project is (an empty `.git/` at its root, so the checkout's
 * .gitignore, which ignores bench/.scratch, does not reach it): the cost of looking for ignore files
 * in every directory of a real tree, which ignores nothing;
 * `repo` is this checkout, node_modules, dist and the bench fixtures included (what ignoring saves).
 */
import '../lib/clean-env.mjs';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { join, resolve } from 'node:path';
import { fdir } from 'fdir';
import ignore from 'ignore';
import { Bench } from 'tinybench';
import { findFiles, findFilesSync } from '../../dist/index.js';
import { ensureTree, treeRoot } from '../lib/fixtures.mjs';
import { gc } from '../lib/gc.mjs';
import { median, renderTable } from '../lib/stats.mjs';

const args = Object.fromEntries(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=')));
const trees = (args.trees ?? 'synthetic,realistic,repo').split(',');
const rounds = Number(args.rounds ?? 5);
const REPO = resolve(new URL('../..', import.meta.url).pathname);

function rootOf(tree) {
  if (tree === 'repo') return REPO;
  ensureTree(tree);
  const root = treeRoot(tree);
  if (tree === 'realistic') fs.mkdirSync(join(root, '.git'), { recursive: true });
  return root;
}

/** fdir, leaving out what the root's .gitignore ignores (nested ignore files are not read). */
function fdirWithRootIgnore(root) {
  const ig = ignore();
  try {
    ig.add(fs.readFileSync(join(root, '.gitignore'), 'utf8'));
  } catch {
    // no .gitignore at the root: nothing to leave out
  }
  const prefix = root.endsWith('/') ? root.length : root.length + 1;
  return new fdir()
    .withRelativePaths()
    .exclude((_name, dirPath) => {
      const rel = dirPath.slice(prefix);
      return rel !== '' && ig.ignores(rel);
    })
    .filter((path) => !ig.ignores(path))
    .crawl(root)
    .sync();
}

function rgFiles(root, flag) {
  const started = performance.now();
  const run = spawnSync('rg', ['--files', '--hidden', flag, '--no-config'], { cwd: root, maxBuffer: 1 << 30 });
  if (run.status !== 0) throw new Error(`rg ${flag}: status ${run.status}`);
  return { ms: performance.now() - started, count: run.stdout.toString().split('\n').filter(Boolean).length };
}

const TOOLS = [
  { name: 'find-file (every file)', run: async (root) => (await findFiles({ root, pattern: '**' })).matchedCount },
  { name: 'find-file gitignore', run: async (root) => (await findFiles({ root, pattern: '**', gitignore: true })).matchedCount },
  { name: 'find-file gitignore (sync)', run: (root) => findFilesSync({ root, pattern: '**', gitignore: true }).matchedCount },
  { name: 'fdir + ignore (root .gitignore only)', run: (root) => fdirWithRootIgnore(root).length },
];

const rows = [];
for (const tree of trees) {
  const root = rootOf(tree);
  const times = new Map([...TOOLS.map((t) => [t.name, []]), ['rg --files --hidden (ignore files)', []], ['rg --files --hidden --no-ignore', []]]);
  const counts = new Map();
  for (const tool of TOOLS) counts.set(tool.name, await tool.run(root));
  for (let round = 0; round < rounds; round++) {
    const bench = new Bench({ iterations: 3, time: 0, warmup: true, warmupIterations: 1, warmupTime: 0, throws: true });
    for (let i = 0; i < TOOLS.length; i++) {
      const tool = TOOLS[(round + i) % TOOLS.length];
      bench.add(tool.name, () => tool.run(root), { beforeEach: () => gc() });
    }
    await bench.run();
    for (const task of bench.tasks) times.get(task.name).push(task.result.latency.p50);
    for (const [name, flag] of [['rg --files --hidden (ignore files)', '--no-ignore-global'], ['rg --files --hidden --no-ignore', '--no-ignore']]) {
      const r = rgFiles(root, flag);
      times.get(name).push(r.ms);
      counts.set(name, r.count);
    }
    process.stderr.write(`${tree}: round ${round + 1}/${rounds}\n`);
  }
  const base = median(times.get('find-file (every file)'));
  for (const [name, samples] of times) {
    const ms = median(samples);
    rows.push([tree, name, `${ms.toFixed(1)} ms`, (ms / base).toFixed(2), String(counts.get(name))]);
  }
}
console.log(renderTable(['tree', 'tool', 'median', 'vs every file', 'files'], rows));
