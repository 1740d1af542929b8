#!/usr/bin/env node
/**
 * `npm run test:cpu`: runs the suite (vitest, on the current build) and prints where its CPU went,
 * file by file: the CPU each file's worker spent on it, the CPU of the processes it started, and its
 * wall time, with the whole run's CPU (vitest and everything it started) against its wall time.
 *
 * Why: on a 2-core machine the suite is CPU-bound (a run of 2026-12-06: 331-361 s of CPU in 182 s),
 * so its wall time falls only with its CPU: a third worker made it slower (189 s against 182), and a
 * file's wall time (vitest's report) says little about its cost to the run. This is the profile the
 * 180 s target is judged by (docs/reliability.md, "The suite on a busy machine"). Linux only (the
 * counts are /proc's; test/helpers/file-cpu.ts records them).
 *
 *   node scripts/suite-cpu.mjs [--top=N] [--json=FILE] [-- vitest arguments]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readProcStat } from './proc-stat.mjs';

if (process.platform !== 'linux') {
  console.error('suite-cpu: Linux only (the CPU counts are read from /proc)');
  process.exit(2);
}

const project = fileURLToPath(new URL('..', import.meta.url));
const dashes = process.argv.indexOf('--');
const own = dashes < 0 ? process.argv.slice(2) : process.argv.slice(2, dashes);
const forVitest = dashes < 0 ? [] : process.argv.slice(dashes + 1);
const option = (name) => own.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const top = Number(option('top') ?? 25);
const jsonOut = option('json');

const require = createRequire(import.meta.url);
const manifest = require.resolve('vitest/package.json');
const vitest = join(dirname(manifest), require(manifest).bin.vitest);

/** This process's reaped children's CPU in seconds: vitest and, as each reaped its own, everything it started. */
const childrenCpu = () => readProcStat().reaped;

const dir = mkdtempSync(join(tmpdir(), 'ff-suite-cpu-'));
const log = join(dir, 'files.ndjson');
writeFileSync(log, '');
const cpuBefore = childrenCpu();
const started = performance.now();
const status = await new Promise((resolve, reject) => {
  const child = spawn(process.execPath, [vitest, 'run', ...forVitest], { cwd: project, stdio: 'inherit', env: { ...process.env, FF_SUITE_CPU: log } });
  child.once('error', reject);
  child.once('close', (code) => resolve(code ?? 1));
});
const wall = (performance.now() - started) / 1000;
const cpu = childrenCpu() - cpuBefore;
const rows = readFileSync(log, 'utf8')
  .split('\n')
  .filter((line) => line !== '')
  .map((line) => JSON.parse(line))
  .map((r) => ({ ...r, file: relative(project, r.file).replaceAll('\\', '/'), cpu: r.self + r.children }))
  .sort((a, b) => b.cpu - a.cpu);
rmSync(dir, { recursive: true, force: true });

const sum = (key) => rows.reduce((n, r) => n + r[key], 0);
const s = (n) => n.toFixed(1);
console.log(`\nsuite CPU: ${s(cpu)} s (vitest and every process it started) in ${s(wall)} s of wall: ${(cpu / wall).toFixed(2)} cores busy on average`);
console.log(
  `${rows.length} files: ${s(sum('self'))} s in their workers, ${s(sum('children'))} s in the processes they started; ` +
    `${s(cpu - sum('cpu'))} s elsewhere (vitest's main process and transforms, children reaped between files)`,
);
console.log(`\n${'cpu s'.padStart(7)} ${'worker'.padStart(7)} ${'started'.padStart(8)} ${'wall s'.padStart(7)} ${'share'.padStart(6)}  file`);
for (const r of rows.slice(0, top)) {
  console.log(`${s(r.cpu).padStart(7)} ${s(r.self).padStart(7)} ${s(r.children).padStart(8)} ${s(r.wall).padStart(7)} ${`${((100 * r.cpu) / cpu).toFixed(1)}%`.padStart(6)}  ${r.file}`);
}
if (rows.length > top) console.log(`(${rows.length - top} more files: ${s(rows.slice(top).reduce((n, r) => n + r.cpu, 0))} s)`);
if (jsonOut !== undefined) writeFileSync(jsonOut, JSON.stringify({ status, wall, cpu, files: rows }, null, 1));
process.exit(status);
