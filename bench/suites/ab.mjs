#!/usr/bin/env node
/**
 * Whole commands side by side: each round runs every command once (the order reversed every other
 * round), and prints each one's median and minimum wall time, and its CPU (user + system, all its
 * threads) where `perf` is installed. For a change to the command that the fixed suites do not
 * isolate, e.g. one build against another, or a flag against none (docs/performance.md, Round 33).
 * On a shared 2-core machine a command's CPU says more than its wall: the wall of the same command
 * spreads by a third between rounds, its CPU far less.
 *
 *   node bench/suites/ab.mjs ROUNDS 'LABEL::COMMAND ARG...' ...
 *
 * Words are split on spaces (no shell, no quoting); NODE_EXTRA_CA_CERTS is removed from each
 * command's environment (Node reads the bundle at every start; bench/lib/clean-env.mjs).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const [roundsText, ...specs] = process.argv.slice(2);
const rounds = Number(roundsText);
if (!Number.isInteger(rounds) || rounds < 1 || specs.length === 0 || specs.some((spec) => !spec.includes('::'))) {
  console.error("usage: node bench/suites/ab.mjs ROUNDS 'LABEL::COMMAND ARG...' ...");
  process.exit(2);
}
const env = { ...process.env };
delete env.NODE_EXTRA_CA_CERTS;
const perf = spawnSync('perf', ['--version'], { stdio: 'ignore' }).status === 0;
const scratch = mkdtempSync(join(tmpdir(), 'ff-ab-'));
const counts = join(scratch, 'perf.csv');

const commands = specs.map((spec) => {
  const [label, line] = spec.split('::');
  return { label, words: line.split(' ').filter((word) => word !== ''), wall: [], cpu: [] };
});

/** One run: its wall time in ms, and its CPU in ms (NaN without perf). */
function runOnce({ words }) {
  const argv = perf ? ['perf', 'stat', '-x,', '-o', counts, '-e', 'task-clock', ...words] : words;
  const started = process.hrtime.bigint();
  const run = spawnSync(argv[0], argv.slice(1), { env, stdio: 'ignore' });
  const wall = Number(process.hrtime.bigint() - started) / 1e6;
  if (run.error) throw run.error;
  if (!perf) return { wall, cpu: NaN };
  const line = readFileSync(counts, 'utf8').split('\n').find((text) => text.includes('task-clock'));
  return { wall, cpu: Number(line?.split(',')[0]) };
}

const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];
try {
  for (let round = 0; round < rounds; round++) {
    for (const command of round % 2 === 0 ? commands : [...commands].reverse()) {
      const { wall, cpu } = runOnce(command);
      command.wall.push(wall);
      command.cpu.push(cpu);
    }
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
const width = Math.max(...commands.map(({ label }) => label.length));
for (const { label, wall, cpu } of commands) {
  const cpuText = perf ? `  cpu ${median(cpu).toFixed(1)} ms (min ${Math.min(...cpu).toFixed(1)})` : '';
  console.log(`${label.padEnd(width)}  wall ${median(wall).toFixed(1)} ms (min ${Math.min(...wall).toFixed(1)})${cpuText}`);
}
console.log(`${rounds} interleaved rounds${perf ? '' : ' (no perf: wall only)'}`);
