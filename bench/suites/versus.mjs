/**
 * This build of find-file against another build of it, in the same run (as fdir benchmarks itself
 * against its older releases): the regression check a change that touches the walk must show.
 *
 *   git worktree add /tmp/ff-before <commit> && (cd /tmp/ff-before && npm ci && npm run build)
 *   node bench/suites/versus.mjs --before=/tmp/ff-before [--trees=synthetic,realistic] [--rounds=8]
 *
 * For each tree and workload (all files, `*.js`, the rooted glob) and API (`findFiles`,
 * `findFilesSync`), each round runs both builds, in alternating order, each in a fresh process of
 * its own (bench/targets/versus-child.mjs): 1 warm-up search, then 5 timed with GC before each, their median reported.
 * In one process the two builds share V8's inline caches and the heap, which skewed the sync rows
 * by up to 1.5x in either direction here; a process per build keeps them apart. The table gives
 * medians over rounds and the median of the per-round ratios (after / before). The answers are
 * compared first: builds that find different things are not timed.
 */
import '../lib/clean-env.mjs';
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, renderTable } from '../lib/stats.mjs';

const CHILD = fileURLToPath(new URL('../targets/versus-child.mjs', import.meta.url));
const args = Object.fromEntries(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=')));
const WORKLOADS = {
  'all files': () => '**/*',
  '*.js': () => '*.js',
  rooted: (tree) => (tree === 'realistic' ? 'node_modules/@aws-sdk/**/*.d.ts' : 'src/**/*.ts'),
};

if (args.before === undefined) throw new Error('--before=DIR: a find-file checkout with dist/ built');
const { ensureTree, treeRoot } = await import('../lib/fixtures.mjs');
const trees = (args.trees ?? 'synthetic,realistic').split(',');
const rounds = Number(args.rounds ?? 8);
const builds = { before: join(resolve(args.before), 'dist/index.js'), after: resolve('dist/index.js') };
const time = (dist, root, pattern, api) => {
  const child = spawnSync(process.execPath, ['--expose-gc', CHILD, `--dist=${dist}`, `--root=${root}`, `--pattern=${pattern}`, `--api=${api}`], { encoding: 'utf8' });
  if (child.status !== 0) throw new Error(child.stderr);
  return JSON.parse(child.stdout);
};
const rows = [];
for (const tree of trees) {
  ensureTree(tree);
  const root = treeRoot(tree);
  for (const [title, patternOf] of Object.entries(WORKLOADS)) {
    for (const api of ['async', 'sync']) {
      const samples = { before: [], after: [] };
      let answer;
      for (let round = 0; round < rounds; round++) {
        const order = round % 2 === 0 ? ['before', 'after'] : ['after', 'before'];
        for (const name of order) {
          const r = time(builds[name], root, patternOf(tree), api);
          if (answer === undefined) answer = r;
          else if (r.count !== answer.count || r.digest !== answer.digest) throw new Error(`${tree} ${title}: the builds disagree`);
          samples[name].push(r.ms);
        }
      }
      const ratios = samples.after.map((x, i) => x / samples.before[i]);
      rows.push([tree, title, api, `${median(samples.before).toFixed(1)} ms`, `${median(samples.after).toFixed(1)} ms`, median(ratios).toFixed(3), `${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)}`, String(answer.count)]);
      console.error(`${tree} / ${title} / ${api}: done`);
    }
  }
}
console.log(renderTable(['tree', 'workload', 'API', 'before', 'after', 'after/before', 'per-round range', 'matches'], rows));
