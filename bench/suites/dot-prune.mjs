/**
 * The drop-in adapters where one pattern names a dot directory and another is a wildcard
 * (`['**' + '/*.ts', '.github/*']`, `dot: false`), in a project whose `.git` holds most of the files:
 * the walk enters dot names for the pattern that names one, and must leave unread every dot
 * directory no pattern can keep a match below (src/compat/shared.ts `buildDotRule`), as the peers
 * do. Before that, each call read all of `.git` and dropped what it found there (docs/compat.md).
 *
 *   node bench/suites/dot-prune.mjs [--rounds=5] [--objects=40]
 *
 * The tree is built in a temporary folder: `src/` with a few `.ts` files, `.github/ci.yml`, and
 * `.git/objects/00..ff/` with `--objects` empty files each (10,240 by default). Each round is a
 * tinybench run of every tool, in an order that turns round by round; the table gives the median
 * of the rounds' p50 and each tool's ratio to tinyglobby's async call, measured in the same run.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { glob as nodeGlob, globSync as nodeGlobSync } from 'glob';
import { Bench } from 'tinybench';
import { glob as tinyGlob, globSync as tinyGlobSync } from 'tinyglobby';
import { glob as ourGlob, globSync as ourGlobSync } from '../../dist/lib/glob.js';
import { glob as ourTiny, globSync as ourTinySync } from '../../dist/lib/tinyglobby.js';
import { median, renderTable } from '../lib/stats.mjs';

const args = Object.fromEntries(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=')));
const rounds = Number(args.rounds ?? 5);
const objects = Number(args.objects ?? 40);
const PATTERNS = ['**/*.ts', '.github/*'];

const root = mkdtempSync(join(tmpdir(), 'ff-dot-prune-'));
for (const file of ['src/a/x.ts', 'src/b/y.ts', 'src/index.ts', '.github/ci.yml']) {
  mkdirSync(join(root, file, '..'), { recursive: true });
  writeFileSync(join(root, file), '');
}
for (let i = 0; i < 256; i++) {
  const dir = join(root, '.git', 'objects', i.toString(16).padStart(2, '0'));
  mkdirSync(dir, { recursive: true });
  for (let j = 0; j < objects; j++) writeFileSync(join(dir, `o${j}`), '');
}

const TOOLS = [
  ['tinyglobby', () => tinyGlob(PATTERNS, { cwd: root })],
  ['find-file/tinyglobby', () => ourTiny(PATTERNS, { cwd: root })],
  ['node-glob', () => nodeGlob(PATTERNS, { cwd: root })],
  ['find-file/glob', () => ourGlob(PATTERNS, { cwd: root })],
  ['tinyglobby, sync', () => tinyGlobSync(PATTERNS, { cwd: root })],
  ['find-file/tinyglobby, sync', () => ourTinySync(PATTERNS, { cwd: root })],
  ['node-glob, sync', () => nodeGlobSync(PATTERNS, { cwd: root })],
  ['find-file/glob, sync', () => ourGlobSync(PATTERNS, { cwd: root })],
];

try {
  // The same answer from each, or the timing compares different work.
  const answers = await Promise.all(TOOLS.map(async ([name, run]) => [name, JSON.stringify([...(await run())].sort())]));
  const wrong = answers.filter(([, answer]) => answer !== answers[0][1]);
  if (wrong.length > 0) throw new Error(`the answers differ: ${wrong.map(([name]) => name).join(', ')} against tinyglobby's ${answers[0][1]}`);
  const times = new Map(TOOLS.map(([name]) => [name, []]));
  for (let round = 0; round < rounds; round++) {
    const bench = new Bench({ iterations: 50, time: 0, warmup: true, warmupIterations: 5, warmupTime: 0, throws: true });
    for (let i = 0; i < TOOLS.length; i++) {
      const [name, run] = TOOLS[(round + i) % TOOLS.length];
      bench.add(name, run);
    }
    await bench.run();
    for (const task of bench.tasks) times.get(task.name).push(task.result.latency.p50);
    process.stderr.write(`round ${round + 1}/${rounds}\n`);
  }
  const base = median(times.get('tinyglobby'));
  const rows = TOOLS.map(([name]) => {
    const ms = median(times.get(name));
    return [name, `${ms.toFixed(2)} ms`, (ms / base).toFixed(2)];
  });
  console.log(`${JSON.stringify(PATTERNS)}, dot: false, over ${4 + 256 * objects} files (${256 * objects} in .git/objects); ${rounds} rounds, median of p50\n`);
  console.log(renderTable(['tool', 'per call', 'vs tinyglobby'], rows));
} finally {
  rmSync(root, { recursive: true, force: true });
}
