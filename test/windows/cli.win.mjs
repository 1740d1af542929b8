/**
 * The real command (bin/find-file.mjs of the installed package) run by node.exe, no shell, its
 * stdout and stderr written to files and read back, as a script on Windows would: exit statuses,
 * the three machine formats, native paths, the summary of a refused folder.
 */
import assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { emptyDir, hostFixtures, runCli } from './helpers.mjs';

const fx = hostFixtures();
const tree = realpathSync.native(fx.tree);
const base = dirname(tree);
const READABLE_TXT = ['alpha.txt', 'docs/notes/todo.txt', 'omega/zeta.txt'];
const native = (rel) => rel.replace(/\//g, '\\');

describe('the command on a tree with a refused folder', () => {
  it('status 0, native paths on stdout, an INCOMPLETE summary naming the folder and EPERM', () => {
    const run = runCli(['*.txt', '--root', tree]);
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(run.stdout.split('\n').filter(Boolean).sort(), READABLE_TXT.map((p) => `${tree}\\${native(p)}`));
    assert.match(run.stderr, /^find-file: INCOMPLETE search under /);
    assert.ok(run.stderr.includes(`skipped: ${tree}\\${fx.denied} (EPERM)`), run.stderr);
  });

  it('reads on the main thread without a budget, in the pool with one: the same lines and summary', () => {
    // src/cli/run.ts readsFor: the walk's reads move to libuv's pool with --time-budget-ms.
    const plain = runCli(['*.txt', '--root', tree]);
    const pooled = runCli(['*.txt', '--root', tree, '--time-budget-ms', '600000']);
    assert.equal(pooled.status, 0, pooled.stderr);
    assert.equal(pooled.stdout, plain.stdout);
    assert.equal(pooled.stderr, plain.stderr);
  });

  it('--strict: status 3, everything still printed', () => {
    const run = runCli(['*.txt', '--root', tree, '--strict']);
    assert.equal(run.status, 3, run.stderr);
    assert.equal(run.stdout.split('\n').filter(Boolean).length, READABLE_TXT.length);
  });

  it('--json: one object, the library result, nothing on stderr', () => {
    const run = runCli(['*.txt', '--root', tree, '--json']);
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stderr, '');
    const result = JSON.parse(run.stdout);
    assert.deepEqual(result.matches, READABLE_TXT);
    assert.deepEqual(result.skipped, [{ path: fx.denied, code: 'EPERM' }]);
    assert.equal(result.complete, false);
    assert.deepEqual(result.incompleteReasons, ['permission-denied']);
  });

  it('--ndjson: a line per match, then the summary last', () => {
    const run = runCli(['*.txt', '--root', tree, '--ndjson']);
    assert.equal(run.status, 0, run.stderr);
    const lines = run.stdout.trimEnd().split('\n').map((line) => JSON.parse(line));
    const summary = lines.pop();
    assert.deepEqual(lines.map((l) => [l.type, l.path]).sort(), READABLE_TXT.map((p) => ['match', p]));
    assert.equal(summary.type, 'summary');
    assert.deepEqual(summary.skipped, [{ path: fx.denied, code: 'EPERM' }]);
    assert.equal(summary.complete, false);
  });

  it('-0: NUL after each native path, no newline', () => {
    const run = runCli(['*.txt', 'docs', '-0'], { cwd: tree });
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, 'docs\\notes\\todo.txt\0');
  });

  it('a relative root prints paths relative to the cwd; --absolute prints native absolute ones', () => {
    const relative = runCli(['Guide.md', '--root', 'tree'], { cwd: base });
    assert.equal(relative.stdout, 'tree\\docs\\Guide.md\n');
    const absolute = runCli(['Guide.md', '--root', 'tree', '--absolute'], { cwd: base });
    assert.equal(absolute.stdout, `${tree}\\docs\\Guide.md\n`);
    const json = JSON.parse(runCli(['Guide.md', '--root', 'tree', '--absolute', '--json'], { cwd: base }).stdout);
    assert.deepEqual(json.matches, [`${tree}\\docs\\Guide.md`]);
  });

  it('a backslash pattern and a drive root ending in \\', () => {
    const run = runCli(['docs\\*.md', '--root', `${tree}\\`, '--json']);
    assert.deepEqual(JSON.parse(run.stdout).matches, ['docs/Guide.md']);
  });
});

describe('exit statuses', () => {
  it('1 for a missing root: one line naming ENOENT, nothing on stdout', () => {
    const run = runCli(['*.txt', '--root', `${tree}\\no-such-folder`]);
    assert.equal(run.status, 1);
    assert.equal(run.stdout, '');
    assert.match(run.stderr, /ENOENT/);
    assert.equal(run.stderr.trimEnd().split('\n').length, 1, run.stderr);
  });

  it('2 for usage: a pattern climbing out with ..\\, a count that is not an integer', () => {
    for (const args of [['..\\x', '--root', tree], ['*.txt', '--root', tree, '--max-results', '1.5']]) {
      const run = runCli(args);
      assert.equal(run.status, 2, `${args.join(' ')}: ${run.stderr}`);
      assert.equal(run.stdout, '');
    }
  });

  it('auto with no ripgrep on the PATH answers with the walker; ripgrep forced is fatal (1)', () => {
    const path = emptyDir();
    const auto = runCli(['*.txt', '--root', tree, '--backend', 'auto', '--json'], { env: { PATH: path } });
    assert.equal(auto.status, 0, auto.stderr);
    const result = JSON.parse(auto.stdout);
    assert.equal(result.backend, 'walker');
    assert.equal(result.fallbackReason, 'rg-not-found');
    assert.deepEqual(result.matches, READABLE_TXT);
    const forced = runCli(['*.txt', '--root', tree, '--backend', 'ripgrep'], { env: { PATH: path } });
    assert.equal(forced.status, 1);
    assert.match(forced.stderr, /rg\.exe/);
  });
});

describe('content search from the command', () => {
  it('--contains in CRLF files: path:line:column: text, no \\r, the refused folder a gap', () => {
    const run = runCli(['*.txt', '--root', tree, '--contains', 'TODO']);
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(run.stdout.split('\n').filter(Boolean).sort(), [`${tree}\\docs\\notes\\todo.txt:2:1: TODO: the walker`, `${tree}\\omega\\zeta.txt:1:1: TODO: after the locked folder`]);
    assert.ok(!run.stdout.includes('\r'));
    assert.match(run.stderr, /INCOMPLETE/);
    assert.match(run.stderr, /EPERM/);
  });
});
