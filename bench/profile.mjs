/**
 * Where does find-file spend its time on a workload? Runs it under `node --cpu-prof` in a fresh
 * process (one warm-up, then several runs) and sums the profile's self time per function.
 *
 *   node bench/profile.mjs TREE WORKLOAD [API] [RUNS]    e.g. node bench/profile.mjs synthetic all async
 *   node bench/profile.mjs synthetic cli                 the CLI printing every file, as a process
 *
 * API is async (default), sync or stream. The .cpuprofile is kept under bench/results/profiles/
 * (gitignored) to open in Chrome DevTools; the summary is printed and returned.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderTable } from './stats.mjs';

const SELF = fileURLToPath(import.meta.url);
const BENCH = path.dirname(SELF);
const REPO = path.dirname(BENCH);
export const PROFILE_DIR = path.join(BENCH, 'results', 'profiles');

/** Runs the profile and returns `{ file, totalMs, top: [{ fn, where, selfMs, share }] }`. */
export async function profileWorkload({ tree, workload, api = 'async', runs = 5, top = 12 }) {
  const { treeRoot } = await import('./fixtures.mjs');
  const root = treeRoot(tree);
  fs.mkdirSync(PROFILE_DIR, { recursive: true });
  const name = `${tree}-${workload}-${workload === 'cli' ? 'process' : api}`;
  const dir = fs.mkdtempSync(path.join(PROFILE_DIR, '.tmp-'));
  const args =
    workload === 'cli'
      ? ['--cpu-prof', `--cpu-prof-dir=${dir}`, path.join(REPO, 'bin', 'find-file.mjs'), '**/*']
      : ['--cpu-prof', `--cpu-prof-dir=${dir}`, SELF, '--child', root, tree, workload, api, String(runs)];
  const child = spawnSync(process.execPath, args, { cwd: root, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  if (child.status !== 0) throw new Error(`profiling ${name} failed: ${child.stderr}`);
  const written = fs.readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
  const file = path.join(PROFILE_DIR, `${name}.cpuprofile`);
  fs.renameSync(path.join(dir, written), file);
  fs.rmSync(dir, { recursive: true, force: true });
  return { name, file: path.relative(REPO, file), ...summarise(JSON.parse(fs.readFileSync(file, 'utf8')), top) };
}

/** Self time per function: each sample's time goes to the node it landed in. */
export function summarise(profile, top) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map();
  let totalUs = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const dt = profile.timeDeltas[i] ?? 0;
    const node = byId.get(profile.samples[i]);
    const { functionName, url, lineNumber } = node.callFrame;
    const where = url ? `${shortUrl(url)}:${lineNumber + 1}` : '';
    const key = `${functionName || '(anonymous)'}\t${where}`;
    selfUs.set(key, (selfUs.get(key) ?? 0) + dt);
    totalUs += dt;
  }
  const rows = [...selfUs.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([key, us]) => {
      const [fn, where] = key.split('\t');
      return { fn, where, selfMs: us / 1000, share: us / totalUs };
    });
  return { totalMs: totalUs / 1000, top: rows };
}

function shortUrl(url) {
  const file = url.replace(/^file:\/\//, '');
  if (file.startsWith(REPO + '/')) return path.relative(REPO, file);
  return file.replace(/^node:/, 'node:');
}

export function renderProfile(summary) {
  return renderTable(
    ['function', 'where', 'self ms', 'share'],
    summary.top.map((r) => [r.fn, r.where || '(native / VM)', r.selfMs.toFixed(1), `${(r.share * 100).toFixed(1)}%`]),
  );
}

async function runChild(root, tree, workload, api, runs) {
  const { TOOLS, resolveWorkload } = await import('./tools.mjs');
  const tool = TOOLS.find((t) => t.name === `find-file ${api}`);
  const w = resolveWorkload(workload, tree);
  for (let i = 0; i <= runs; i++) await tool.run(root, w);
}

if (process.argv[2] === '--child') {
  const [root, tree, workload, api, runs] = process.argv.slice(3);
  await runChild(root, tree, workload, api, Number(runs));
} else if (process.argv[1] === SELF) {
  const [tree = 'synthetic', workload = 'all', api = 'async', runs = '5'] = process.argv.slice(2);
  const summary = await profileWorkload({ tree, workload, api, runs: Number(runs) });
  console.log(`${summary.name}: ${summary.totalMs.toFixed(0)} ms sampled; profile in ${summary.file}\n`);
  console.log(renderProfile(summary));
}
