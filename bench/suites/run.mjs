#!/usr/bin/env node
/**
 * find-file's benchmark suite (issue 7): `npm run bench`, or `node bench/suites/run.mjs [flags]`.
 *
 *   --quick              fewer samples, no profiles: a smoke run of a minute or two
 *   --only=a,b           only these parts: workloads (all, js, rooted, depth3, first100) and/or
 *                        sections (process, memory, content); the others are skipped
 *   --trees=a,b          only these trees (small, realistic, synthetic)
 *   --doc / --no-doc     write docs/performance.md (default: on a full run only)
 *
 * The machine may be shared: before each round the suite waits (10 s at most, 1 minute in all)
 * for other processes to leave the CPUs mostly idle, and records how busy they were.
 * What it does, in order: builds dist/ if missing and the fixture trees if missing; for each tree
 * and workload, checks that every peer returns the files find-file returns (and says why where not),
 * then times them all with tinybench, interleaved in rounds (the machine is shared and noisy), GC
 * before each sample; times whole processes printing every file of the synthetic tree; measures
 * peak memory per library in fresh processes; checks issue 7's targets and profiles find-file
 * where one is missed. Results go to the console, bench/results/ (JSON + SVG chart) and, on a full
 * run, docs/performance.md.
 */
import '../lib/clean-env.mjs';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeTree, ensureTree, TREE_NAMES, treeRoot } from '../lib/fixtures.mjs';
import { median } from '../lib/stats.mjs';

const BENCH = path.dirname(path.dirname(fileURLToPath(import.meta.url))); // bench/ (this file is bench/suites/run.mjs)
const REPO = path.dirname(BENCH);
const RESULTS = path.join(BENCH, 'results');
const TIME_CHILD = path.join(BENCH, 'targets', 'time-child.mjs');

const SECTIONS = ['process', 'memory', 'content'];

function parseArgs(argv) {
  const args = { quick: false, only: undefined, trees: TREE_NAMES, doc: undefined };
  for (const arg of argv) {
    const [flag, value] = arg.split('=');
    if (flag === '--quick') args.quick = true;
    else if (flag === '--only') args.only = value.split(',').filter(Boolean);
    else if (flag === '--trees') args.trees = value.split(',').filter(Boolean);
    else if (flag === '--doc') args.doc = true;
    else if (flag === '--no-doc') args.doc = false;
    else throw new Error(`unknown argument ${arg}; see the comment at the top of bench/suites/run.mjs`);
  }
  return args;
}

/** dist/ is what the suite measures: build it if it is missing, warn if src/ is newer. */
function ensureDist() {
  const entry = path.join(REPO, 'dist', 'index.js');
  if (!fs.existsSync(entry)) {
    console.log('dist/ is missing: building it (npx tsc -p tsconfig.json) ...');
    const tsc = spawnSync('npx', ['tsc', '-p', 'tsconfig.json'], { cwd: REPO, stdio: 'inherit' });
    if (tsc.status !== 0 && !fs.existsSync(entry)) throw new Error('the build failed; nothing to measure');
    return;
  }
  const built = fs.statSync(entry).mtimeMs;
  const newer = fs
    .readdirSync(path.join(REPO, 'src'), { recursive: true })
    .filter((f) => f.endsWith('.ts') && fs.statSync(path.join(REPO, 'src', f)).mtimeMs > built);
  if (newer.length > 0) console.log(`WARNING: src/ is newer than dist/ (${newer.slice(0, 3).join(', ')}): run \`npm run build\` to measure the current source`);
}

function git(...args) {
  const r = spawnSync('git', args, { cwd: REPO, encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : '';
}

function machine() {
  // findmnt names ext4 as such; `stat -f` (the fallback) says ext2/ext3 for every ext.
  const fsType =
    spawnSync('findmnt', ['-no', 'FSTYPE', '-T', BENCH], { encoding: 'utf8' }).stdout?.trim() ||
    spawnSync('stat', ['-f', '-c', '%T', BENCH], { encoding: 'utf8' }).stdout?.trim();
  return {
    date: new Date().toISOString(),
    nproc: os.availableParallelism(),
    cpu: os.cpus()[0]?.model ?? 'unknown',
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
    fsType,
    commit: git('rev-parse', '--short', 'HEAD'),
    srcChanged: git('status', '--porcelain', '--', 'src').length > 0,
    uvThreadpoolSize: process.env.UV_THREADPOOL_SIZE ?? '4 (default)',
    loadAvgStart: os.loadavg().map((l) => Number(l.toFixed(2))),
  };
}

/** Why a path one tool returned and another did not: what it is on disk. */
function classifyPath(root, rel) {
  const parts = rel.split('/');
  let current = root;
  for (let i = 0; i < parts.length; i++) {
    current += '/' + parts[i];
    let stats;
    try {
      stats = fs.lstatSync(current);
    } catch {
      return 'not on disk';
    }
    if (stats.isSymbolicLink()) {
      if (i < parts.length - 1) return 'inside a symlinked dir (link followed)';
      try {
        return fs.statSync(current).isDirectory() ? 'symlink to a dir' : 'symlink to a file';
      } catch {
        return 'dangling symlink';
      }
    }
  }
  if (parts.some((p) => p.startsWith('.'))) return 'regular file, hidden';
  return 'regular file';
}

function summariseKinds(root, paths) {
  const kinds = new Map();
  for (const p of paths) {
    const kind = classifyPath(root, p);
    kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
  }
  return [...kinds.entries()].map(([k, n]) => `${n} ${k}`).join(', ');
}

/**
 * Runs each tool once, untimed (this also warms the page cache), and compares its paths with
 * find-file's. Returns per tool `{ count, diff? }`, where diff explains a difference.
 */
async function verify(tools, root, w, expected) {
  const report = {};
  for (const tool of tools) {
    const prefix = root + '/';
    const paths = (await tool.run(root, w)).map((p) => (p.startsWith('./') ? p.slice(2) : p.startsWith(prefix) ? p.slice(prefix.length) : p));
    const entry = { count: paths.length };
    if (w.limit !== Infinity) {
      // Different tools may stop at different files; each must return `limit` real files.
      const odd = paths.filter((p) => !classifyPath(root, p).startsWith('regular file'));
      if (paths.length !== w.limit || odd.length > 0) entry.diff = `${paths.length} paths, expected ${w.limit}${odd.length ? `; ${summariseKinds(root, odd)}` : ''}`;
    } else {
      const got = new Set(paths);
      const extra = paths.filter((p) => !expected.has(p));
      const missing = [...expected].filter((p) => !got.has(p));
      const parts = [];
      if (extra.length) parts.push(`+${extra.length} (${summariseKinds(root, extra)})`);
      if (missing.length) parts.push(`-${missing.length} (${summariseKinds(root, missing)})`);
      if (paths.length !== got.size) parts.push(`${paths.length - got.size} duplicates`);
      if (parts.length) entry.diff = parts.join(' ');
    }
    report[tool.name] = entry;
  }
  return report;
}

function readCpuTimes() {
  try {
    const fields = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    return { idle: fields[3] + fields[4], total: fields.reduce((a, b) => a + b, 0) };
  } catch {
    return undefined; // not Linux: no waiting
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The machine is shared: before each round, wait (up to `maxWaitMs`) until other processes use
 * less than a quarter of the CPUs over half a second. Returns the share of CPU that was busy when
 * the round started, for the record.
 */
let quietBudgetMs = 60_000; // for the whole run: a busy machine must not make it take forever

async function waitForQuiet(maxWaitMs = 10_000) {
  const started = Date.now();
  for (;;) {
    const a = readCpuTimes();
    if (!a) return NaN;
    await sleep(500);
    const b = readCpuTimes();
    const busy = 1 - (b.idle - a.idle) / Math.max(1, b.total - a.total);
    const waited = Date.now() - started;
    if (busy < 0.25 || waited > maxWaitMs || waited > quietBudgetMs) {
      quietBudgetMs -= waited;
      return busy;
    }
  }
}

/**
 * Times every tool on one workload: `rounds` rounds, tool order rotated each round, and in each
 * round every tool in a fresh process of its own (bench/targets/time-child.mjs says why): untimed
 * runs (`warmup` and `warmupMs` at least), then samples (`iterations` and `timeMs` at least) with a
 * full GC before each.
 * Returns, per tool, the samples of each round (a list of lists).
 */
async function timeTools(tools, tree, w, { rounds, iterations, warmup, warmupMs, timeMs }, busyLog) {
  const root = treeRoot(tree);
  const samples = new Map(tools.map((t) => [t.name, []]));
  for (let round = 0; round < rounds; round++) {
    busyLog.push(await waitForQuiet());
    for (let i = 0; i < tools.length; i++) {
      const tool = tools[(round + i) % tools.length];
      const child = spawnSync(process.execPath, ['--expose-gc', TIME_CHILD, root, tree, w.name, tool.name, String(iterations), String(warmup), String(warmupMs), String(timeMs)], { encoding: 'utf8' });
      if (child.status !== 0) throw new Error(`timing ${tool.name} on ${tree}/${w.name} failed: ${child.stderr}`);
      samples.get(tool.name).push(JSON.parse(child.stdout.trim().split('\n').pop()).samples);
    }
  }
  return samples;
}

/** The median over all rounds, its ratio to the baseline's, and the range of the per-round ratios. */
function summariseTimes(perRound, baselinePerRound) {
  const medianMs = median(perRound.flat());
  const roundRatios = perRound.map((r, i) => median(r) / median(baselinePerRound[i]));
  return { medianMs, ratio: medianMs / median(baselinePerRound.flat()), roundRatios, roundMediansMs: perRound.map(median), samplesMs: perRound.flat() };
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const started = performance.now();
  ensureDist();
  // The earlier build's row (bench/lib/previous.mjs); tools.mjs and the timing children read this.
  const { ensurePrevious } = await import('../lib/previous.mjs');
  process.env.FF_BENCH_PREVIOUS = ensurePrevious();
  // Imported only now: they load dist/, which may just have been built.
  const { TOOLS, WORKLOADS, WORKLOAD_NAMES, BASELINE, resolveWorkload } = await import('../lib/tools.mjs');
  const { measureProcesses } = await import('../lib/process.mjs');
  const { MEMORY_TOOLS, measureMemory } = await import('../lib/memory.mjs');
  const report = await import('../lib/report.mjs');
  const { findFiles } = await import('../../dist/index.js');

  const wants = (part) => args.only === undefined || args.only.includes(part);
  for (const part of args.only ?? []) {
    if (!WORKLOAD_NAMES.includes(part) && !SECTIONS.includes(part)) throw new Error(`--only: unknown part ${part}; parts are ${[...WORKLOAD_NAMES, ...SECTIONS].join(', ')}`);
  }
  const workloads = WORKLOAD_NAMES.filter(wants);
  const fullRun = !args.quick && args.only === undefined && args.trees.length === TREE_NAMES.length;
  const writeDoc = args.doc ?? fullRun;

  const meta = { ...machine(), quick: args.quick, only: args.only ?? null, trees: args.trees };
  console.log(`find-file bench: node ${meta.node}, ${meta.nproc} cores (${meta.cpu}), ${meta.fsType}, commit ${meta.commit}${meta.srcChanged ? ' + uncommitted src/ changes' : ''}, load ${meta.loadAvgStart.join(' ')}`);

  const needed = new Set(workloads.length ? args.trees : []);
  if (wants('process') || wants('memory')) needed.add('synthetic');
  if (wants('memory')) for (const t of args.trees) needed.add(t);
  if (wants('content')) for (const t of ['small', 'synthetic']) if (args.trees.includes(t)) needed.add(t);
  const manifests = {};
  for (const name of TREE_NAMES.filter((t) => needed.has(t))) {
    manifests[name] = ensureTree(name);
    console.log(describeTree(manifests[name]));
  }

  const results = { meta, trees: manifests, inProcess: [], findFileStats: {}, process: null, memory: null, content: null, targets: [], profiles: [] };

  // In-process: every tool on every workload of every tree.
  for (const tree of args.trees) {
    if (workloads.length === 0) break;
    const root = treeRoot(tree);
    const big = manifests[tree].files > 50_000;
    // Warm-up by time too (bench/targets/time-child.mjs says why); short workloads then also take more samples.
    const plan = args.quick
      ? { rounds: 1, iterations: big ? 3 : 10, warmup: big ? 1 : 3, warmupMs: 300, timeMs: 0 }
      : { rounds: big ? 5 : 3, iterations: big ? 2 : 10, warmup: 2, warmupMs: 700, timeMs: big ? 300 : 0 };
    const entries = [];
    for (const name of workloads) {
      const w = resolveWorkload(name, tree);
      const options = { root, pattern: w.findPattern, ...(w.maxDepth !== Infinity ? { maxDepth: w.maxDepth } : {}), ...(w.limit !== Infinity ? { maxResults: w.limit } : {}) };
      const { matches, ...summary } = await findFiles(options);
      const expected = new Set(matches);
      results.findFileStats[`${tree}/${name}`] = { matchedCount: summary.matchedCount, complete: summary.complete, incompleteReasons: summary.incompleteReasons, symlinkSkipped: summary.symlinkSkipped, stats: summary.stats };
      const checks = await verify(TOOLS, root, w, expected);
      process.stdout.write(`  ${tree} / ${WORKLOADS[name].title}: timing ${TOOLS.length} tools, ${plan.rounds}x${plan.iterations} samples ...`);
      const t0 = performance.now();
      const busy = [];
      const samples = await timeTools(TOOLS, tree, w, plan, busy);
      console.log(` ${((performance.now() - t0) / 1000).toFixed(0)} s (CPU busy before the rounds: ${busy.map((b) => `${Math.round(b * 100)}%`).join(', ')})`);
      entries.push({
        tree,
        workload: name,
        title: WORKLOADS[name].title,
        pattern: WORKLOADS[name].describe(tree),
        plan,
        cpuBusyBeforeRounds: busy.map((b) => Number(b.toFixed(2))),
        tools: TOOLS.map((t) => {
          const note = t.note?.(w);
          return { name: t.name, ...summariseTimes(samples.get(t.name), samples.get(BASELINE)), count: checks[t.name].count, ...(checks[t.name].diff ? { diff: checks[t.name].diff } : {}), ...(note ? { note } : {}) };
        }),
      });
    }
    results.inProcess.push(...entries);
    const rendered = report.renderTreeTable(tree, manifests[tree], entries, TOOLS.map((t) => t.name), BASELINE);
    console.log(`\n${rendered.title}\n${rendered.patterns}\n\n${rendered.table}\n${rendered.notes.join('\n')}\n`);
  }

  // Whole processes on the synthetic tree.
  if (wants('process')) {
    console.log('whole processes: every file of the synthetic tree to /dev/null ...');
    await waitForQuiet();
    results.process = { tree: 'synthetic', runs: args.quick ? 5 : 15, commands: measureProcesses(treeRoot('synthetic'), { runs: args.quick ? 5 : 15 }) };
    console.log(report.renderProcessTable(results.process, manifests.synthetic) + '\n');
  }

  // Peak memory, each in a fresh process: every library on the biggest tree, the stream on every tree.
  if (wants('memory')) {
    console.log('peak memory, one fresh process each ...');
    const big = Object.values(manifests).reduce((a, b) => (b.files > a.files ? b : a));
    const perTool = MEMORY_TOOLS.map((tool) => measureMemory(tool, treeRoot(big.name)));
    const stream = TREE_NAMES.filter((t) => manifests[t]).map((t) => ({ tree: t, files: manifests[t].files, ...measureMemory('find-file stream', treeRoot(t)) }));
    results.memory = { tree: big.name, perTool, stream };
    console.log(report.renderMemoryTable(results.memory, manifests[big.name]) + '\n');
    console.log(report.renderStreamMemoryTable(results.memory) + '\n');
  }

  // Content search for a literal: small tree timed properly, the 200k tree once (the pure-TS path is slow there).
  if (wants('content')) {
    const { measureContent } = await import('../lib/content.mjs');
    results.content = [];
    for (const tree of ['small', 'synthetic'].filter((t) => args.trees.includes(t) && (t === 'small' || !args.quick))) {
      ensureTree(tree);
      console.log(`content search on the ${tree} tree ...`);
      await waitForQuiet();
      const plan = tree === 'small' ? { runs: args.quick ? 3 : 7, warmup: 1 } : { runs: 1, warmup: 0 };
      results.content.push({ tree, files: manifests[tree]?.files ?? ensureTree(tree).files, ...plan, tools: await measureContent(treeRoot(tree), plan) });
    }
    console.log(report.renderContentTable(results.content) + '\n');
  }

  // Issue 7's targets; a profile of find-file for each one missed.
  results.targets = report.evaluateTargets(results);
  console.log(report.renderTargetsTable(results.targets) + '\n');
  if (!args.quick) {
    const { profileWorkload, renderProfile, renderCategories } = await import('../lib/profile.mjs');
    const seen = new Set();
    for (const target of results.targets) {
      if (target.met !== false || !target.profile) continue;
      const { tree, workload, peer, tool: form = 'find-file async' } = target.profile;
      if (seen.has(`${tree}/${workload}/${form}`)) continue;
      seen.add(`${tree}/${workload}/${form}`);
      // Enough walks for about 1.5 s of samples, so that start-up does not dominate a short workload.
      const ms = results.inProcess.find((e) => e.tree === tree && e.workload === workload)?.tools[0].medianMs;
      const runs = ms ? Math.min(200, Math.max(5, Math.round(1500 / ms))) : 1;
      console.log(`profiling ${tree}/${workload} (target ${target.id} missed): ${form}${peer ? ` and ${peer}` : ''}, ${runs + 1} walks each ...`);
      const tools = workload === 'cli' ? ['find-file CLI', 'stream script', peer] : [form, peer];
      const summaries = [];
      for (const tool of tools.filter(Boolean)) summaries.push(await profileWorkload({ tree, workload, tool, runs }));
      results.profiles.push({ target: target.id, tree, workload, summaries });
      console.log(renderProfile(summaries[0]) + '\n\n' + renderCategories(summaries) + '\n');
    }
  }

  meta.loadAvgEnd = os.loadavg().map((l) => Number(l.toFixed(2)));
  meta.durationS = Math.round((performance.now() - started) / 1000);
  fs.mkdirSync(path.join(RESULTS, 'history'), { recursive: true });
  const stamp = meta.date.replace(/[:.]/g, '-').slice(0, 19);
  const historyFile = path.join(RESULTS, 'history', `${stamp}-${meta.commit}.json`);
  fs.writeFileSync(historyFile, JSON.stringify(results, null, 1) + '\n');
  console.log(`results: ${path.relative(REPO, historyFile)}`);
  if (fullRun) {
    fs.writeFileSync(path.join(RESULTS, 'latest.json'), JSON.stringify(results, null, 1) + '\n');
    console.log('results: bench/results/latest.json');
  }
  if (workloads.includes('all') && args.trees.length > 1) {
    const svgFile = path.join(RESULTS, fullRun ? 'scaling.svg' : 'history/scaling-partial.svg');
    fs.writeFileSync(svgFile, report.renderChart(results));
    console.log(`chart: ${path.relative(REPO, svgFile)}`);
  }
  if (writeDoc) {
    report.writeDoc(results, TOOLS.map((t) => t.name), BASELINE);
    console.log('doc: docs/performance.md');
  }
  console.log(`done in ${meta.durationS} s (load ${meta.loadAvgStart.join(' ')} at start, ${meta.loadAvgEnd.join(' ')} at end)`);
}

await main();
