/**
 * Where does find-file spend its time on a workload? Runs it under `node --cpu-prof` in a fresh
 * process (bench/targets/profile-child.mjs: one warm-up, then several runs) and sums the profile's
 * self time per function. From the command line: bench/suites/profile.mjs.
 *
 * TOOL is a name from bench/lib/tools.mjs (default `find-file async`), so a peer can be profiled on the
 * same workload for comparison. The .cpuprofile is kept under bench/results/profiles/ (gitignored)
 * to open in Chrome DevTools; the summary (top functions by self time, and time per category) is
 * returned. Times per walk divide by RUNS + 1 (the warm-up run is in the profile too).
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { NODE_LISTERS } from './process.mjs';
import { renderTable } from './stats.mjs';

const BENCH = path.dirname(path.dirname(fileURLToPath(import.meta.url))); // bench/ (this file is bench/lib/profile.mjs)
const CHILD = path.join(BENCH, 'targets', 'profile-child.mjs');
const REPO = path.dirname(BENCH);
export const PROFILE_DIR = path.join(BENCH, 'results', 'profiles');

/** Runs the profile and returns `{ name, file, walks, totalMs, top: [...], categories: {...} }`. */
export async function profileWorkload({ tree, workload, tool = 'find-file async', runs = 5, top = 12 }) {
  const { treeRoot } = await import('./fixtures.mjs');
  const root = treeRoot(tree);
  fs.mkdirSync(PROFILE_DIR, { recursive: true });
  const name = `${tree}-${workload}-${tool.replace(/[^a-z0-9]+/gi, '-')}`;
  const dir = fs.mkdtempSync(path.join(PROFILE_DIR, '.tmp-'));
  const script = workload === 'cli' ? NODE_LISTERS[tool] : [CHILD, root, tree, workload, tool, String(runs)];
  if (!script) throw new Error(`no CLI named ${tool}: one of ${Object.keys(NODE_LISTERS).join(', ')}`);
  const args = ['--cpu-prof', `--cpu-prof-dir=${dir}`, ...script];
  const child = spawnSync(process.execPath, args, { cwd: root, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  if (child.status !== 0) throw new Error(`profiling ${name} failed: ${child.stderr}`);
  const written = fs.readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
  const file = path.join(PROFILE_DIR, `${name}.cpuprofile`);
  fs.renameSync(path.join(dir, written), file);
  fs.rmSync(dir, { recursive: true, force: true });
  const walks = workload === 'cli' ? 1 : runs + 1;
  return { name, tree, workload, tool, walks, file: path.relative(REPO, file), ...summarise(JSON.parse(fs.readFileSync(file, 'utf8')), top) };
}

/** Coarse buckets, so that two tools' profiles can be set side by side. */
export const CATEGORIES = [
  'readdir calls (native, main thread)',
  'idle (waiting for the thread pool)',
  'garbage collection',
  'find-file JS (dist/)',
  'library JS (node_modules/)',
  'bench and CLI JS',
  'node internals (node:*)',
  'VM and other native',
];

function categoryOf(functionName, url) {
  if (functionName === '(idle)') return CATEGORIES[1];
  if (functionName === '(garbage collector)') return CATEGORIES[2];
  if (!url) return functionName === 'readdir' ? CATEGORIES[0] : CATEGORIES[7];
  if (url.includes('/node_modules/')) return CATEGORIES[4];
  if (url.includes('/dist/')) return CATEGORIES[3];
  if (url.startsWith('node:')) return CATEGORIES[6];
  return CATEGORIES[5];
}

/** Self time per function: each sample's time goes to the node it landed in. */
export function summarise(profile, top) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map();
  const categoryUs = Object.fromEntries(CATEGORIES.map((c) => [c, 0]));
  let totalUs = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const dt = profile.timeDeltas[i] ?? 0;
    const node = byId.get(profile.samples[i]);
    const { functionName, url, lineNumber } = node.callFrame;
    const where = url ? `${shortUrl(url)}:${lineNumber + 1}` : '';
    const key = `${functionName || '(anonymous)'}\t${where}`;
    selfUs.set(key, (selfUs.get(key) ?? 0) + dt);
    categoryUs[categoryOf(functionName, url)] += dt;
    totalUs += dt;
  }
  const rows = [...selfUs.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([key, us]) => {
      const [fn, where] = key.split('\t');
      return { fn, where, selfMs: us / 1000, share: us / totalUs };
    });
  const categories = Object.fromEntries(Object.entries(categoryUs).map(([c, us]) => [c, us / 1000]));
  return { totalMs: totalUs / 1000, top: rows, categories };
}

function shortUrl(url) {
  const file = url.replace(/^file:\/\//, '');
  if (file.startsWith(REPO + '/')) return path.relative(REPO, file);
  return file.replace(/^node:/, 'node:');
}

export function renderProfile(summary) {
  return renderTable(
    ['function', 'where', 'self ms per walk', 'share'],
    summary.top.map((r) => [r.fn, r.where || '(native / VM)', (r.selfMs / summary.walks).toFixed(1), `${(r.share * 100).toFixed(1)}%`]),
  );
}

/** Profiles side by side, by category, in ms per walk. */
export function renderCategories(summaries) {
  const rows = CATEGORIES.map((c) => [c, ...summaries.map((s) => (s.categories[c] / s.walks).toFixed(1))]);
  rows.push(['total sampled', ...summaries.map((s) => (s.totalMs / s.walks).toFixed(1))]);
  return renderTable(['ms per walk', ...summaries.map((s) => s.tool)], rows);
}
