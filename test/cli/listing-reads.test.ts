/**
 * Where the command's listing reads its directories (src/cli/run.ts `readsFor`): without a time
 * budget on the main thread, in slices (src/walk/main-thread.ts: less CPU and memory); with one in
 * libuv's pool, so that a read that does not return cannot hold the answer past the budget. Either
 * way the same lines and the same summary. Through the real bin, reads slowed or failed by
 * test/helpers/cli-test-fs.mjs (its sync and async reads both).
 */
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { collect, isPosix, lines, runFindFile, spawnFindFile, writeTree } from '../helpers/cli.js';

let tree: string;
/** `--ndjson`'s summary line says how long the walk took: the one field that may differ. */
const timeless = (text: string) => text.replace(/"elapsedMs":[\d.e+-]+/g, '"elapsedMs":0');

beforeAll(() => {
  tree = mkdtempSync(join(tmpdir(), 'find-file-listing-reads-'));
  writeTree(tree, {
    'a.md': '', '.hidden.md': '', 'src/b.ts': '', 'src/deep/er/c.ts': '', 'src/deep/.gitignore': '*.log\n', 'src/deep/x.log': '',
    'denied/secret.md': '', 'wide/one.md': '', 'wide/two.md': '', 'node_modules/m/index.js': '',
  });
  if (isPosix) symlinkSync(join(tree, 'src'), join(tree, 'wide', 'to-src'));
});
afterAll(() => rmSync(tree, { recursive: true, force: true }));

describe('the listing, read on the main thread or in the pool', { concurrent: true }, () => {
  it('gives the same lines in the same order and the same summary, a failed folder included', ({ expect }) => {
    const env = { FIND_FILE_TEST_FAIL: JSON.stringify({ denied: 'EACCES' }) };
    for (const args of [['*'], ['*', '-H', '-t', 'f', '-t', 'd', '-t', 'l'], ['*.ts', '--max-results', '1'], ['*.md', '--max-depth', '1'], ['*', '--sort', 'path'], ['*.ts', '--ndjson', '--stats']]) {
      const mainThread = runFindFile(args, { cwd: tree, env });
      const pool = runFindFile([...args, '--time-budget-ms', '600000'], { cwd: tree, env });
      expect(mainThread.status, args.join(' ')).toBe(0);
      expect(lines(mainThread.stdout).length, args.join(' ')).toBeGreaterThan(0);
      expect(timeless(mainThread.stdout), args.join(' ')).toBe(timeless(pool.stdout));
      expect(mainThread.stderr, args.join(' ')).toBe(pool.stderr);
    }
    // The failed folder is a gap in both, never "not there".
    expect(runFindFile(['secret.md'], { cwd: tree, env }).stderr).toContain('denied');
  });

  it('reads on the main thread without a budget, in the pool with one', ({ expect }) => {
    const logs = mkdtempSync(join(tmpdir(), 'find-file-read-log-'));
    try {
      const readsOf = (args: string[], name: string) => {
        const log = join(logs, name);
        expect(runFindFile(args, { cwd: tree, env: { FIND_FILE_TEST_READ_LOG: log } }).status).toBe(0);
        return new Set(lines(readFileSync(log, 'utf8')).map((line) => line.split(' ')[0]));
      };
      expect(readsOf(['*.ts'], 'plain')).toEqual(new Set(['sync']));
      expect(readsOf(['*.ts', '--time-budget-ms', '600000'], 'budget')).toEqual(new Set(['async']));
      // The promise form too (--json, --sort, --stats, -q): the whole answer at the end.
      expect(readsOf(['*.ts', '--json'], 'json')).toEqual(new Set(['sync']));
      expect(readsOf(['*.ts', '--json', '--time-budget-ms', '600000'], 'json-budget')).toEqual(new Set(['async']));
    } finally {
      rmSync(logs, { recursive: true, force: true });
    }
  });

  it('with --time-budget-ms, a read that does not return does not hold the answer', async ({ expect }) => {
    // Every read takes 10 minutes. On the main thread the walk would wait it out (a hang is this
    // test's failure: its ceiling); in the pool the 300 ms budget answers, and nothing was read.
    const run = await collect(spawnFindFile(['*.md', '--time-budget-ms', '300'], { cwd: tree, env: { FIND_FILE_TEST_SLOW_MS: '600000' } }));
    expect(run.status).toBe(0);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('why: time-budget: the 300 ms budget (--time-budget-ms) ran out before the walk ended');
  });
});
