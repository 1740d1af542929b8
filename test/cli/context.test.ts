/**
 * `find-file --contains TEXT -A/-B/-C N` end to end (the real bin, spawned), against the oracle of
 * the real `rg -n --column` with the same flags: the same lines, in the same order, with the same
 * `--` separators; only the line format is ours (`path:line:column: text`, `path-line- text`, and
 * the text without a CRLF's `\r`). Which of -A/-B/-C wins when they are mixed is GNU grep's rule
 * (and ripgrep 14's): -A and -B override -C in any order. ripgrep 13 lets the last flag win
 * instead, so that part is checked against GNU grep.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchContent } from '../../dist/index.js';
import { runFindFile, writeTree, type Run } from '../helpers/cli.js';
import { describeIf, posixOnly } from '../helpers/skip-why.js';
import { needsRg, realRg, requireRipgrepInCi } from '../helpers/real-rg.js';

requireRipgrepInCi();

const ONE = 'a\nfoo 1\nb\nc\nd\nfoo 2\nfoo 3\ne\nf\ng\nh\nfoo 4\ni\n';

let tree: string;
beforeAll(() => {
  tree = mkdtempSync(join(tmpdir(), 'ff-cli-context-'));
  writeTree(tree, { 'one.txt': ONE, 'two/two.txt': 'x\nfoo\n', 'crlf.txt': 'p\r\nfoo\r\nq\r\n' });
});
afterAll(() => rmSync(tree, { recursive: true, force: true }));

function ff(args: string[]): Run {
  return runFindFile(args, { cwd: tree });
}

/** ripgrep's lines for the same flags, in our format. */
function rgLines(flags: string[], file: string): string[] {
  const run = spawnSync(realRg.path!, ['-n', '--column', '--no-config', '--fixed-strings', '--case-sensitive', ...flags, '--', 'foo', file], { cwd: tree, encoding: 'utf8' });
  expect(run.status).toBe(0);
  return run.stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => line.replace(/\r$/, '').replace(/^(\d+):(\d+):/, `${file}:$1:$2: `).replace(/^(\d+)-/, `${file}-$1- `));
}

/** GNU grep's lines for the same flags (no columns: ours are dropped to compare). */
function grepLines(flags: string[], file: string): string[] {
  const run = spawnSync('grep', ['-H', '-n', '-F', ...flags, '--', 'foo', file], { cwd: tree, encoding: 'utf8' });
  expect(run.status).toBe(0);
  return run.stdout.split('\n').filter(Boolean);
}

const FLAG_SETS: string[][] = [['-C', '1'], ['-A', '2'], ['-B', '3'], ['-A', '1', '-B', '2'], ['--context', '2']];
const MIXED: string[][] = [['-C', '2', '-A', '0'], ['-A', '0', '-C', '2'], ['-B', '1', '-C', '3'], ['--context', '1', '--before-context', '0']];

describeIf(needsRg)('the lines rg prints, in our format', () => {
  it.each(FLAG_SETS.map((flags) => [flags.join(' '), flags] as const))('%s', (_name, flags) => {
    for (const file of ['one.txt', 'crlf.txt']) {
      const expected = rgLines(flags, file);
      for (const backend of ['walker', 'ripgrep']) {
        const run = ff([file, '--contains', 'foo', '-s', '--backend', backend, ...flags]);
        expect(run.status).toBe(0);
        expect(run.stdout.split('\n').filter(Boolean)).toEqual(expected);
      }
    }
  });
});

describeIf(needsRg)('a count glued to its flag (-A0, -B2, -C1), as rg takes it (issue 27)', () => {
  it.each([['-A0'], ['-B0'], ['-C0'], ['-A2', '-B0'], ['-C1']])('%s', (...flags) => {
    // rg's own reading of the glued words is the oracle.
    const run = ff(['one.txt', '--contains', 'foo', '-s', ...flags]);
    expect(run.stderr).not.toContain('error');
    expect(run.status).toBe(0);
    expect(run.stdout.split('\n').filter(Boolean)).toEqual(rgLines(flags, 'one.txt'));
  });

  it('-A0 beside -0: each its own flag', () => {
    expect(ff(['two/two.txt', '--contains', 'foo', '-A0', '-0']).stdout).toBe(`${join('two', 'two.txt')}\u00002:1: foo\n`);
  });
});

describe.skipIf(process.platform === 'win32')(posixOnly('mixed -A/-B/-C: -A and -B override -C in any order, as GNU grep', 'GNU grep is the oracle, and Windows has none on its PATH'), () => {
  it.each(MIXED.map((flags) => [flags.join(' '), flags] as const))('%s', (_name, flags) => {
    const run = ff(['one.txt', '--contains', 'foo', ...flags]);
    expect(run.status).toBe(0);
    const withoutColumns = run.stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => line.replace(/^(one\.txt):(\d+):\d+: /, '$1:$2:').replace(/^(one\.txt)-(\d+)- /, '$1-$2-'));
    expect(withoutColumns).toEqual(grepLines(flags, 'one.txt'));
  });
});

describe('context across files and in the other outputs', () => {
  it('a "--" line between files, as between groups of one file', () => {
    const run = ff(['two.txt', 'crlf.txt', '--contains', 'foo', '-B', '1']);
    expect(run.status).toBe(0);
    const blocks = run.stdout.split('--\n').map((block) => block.split('\n').filter(Boolean));
    expect(blocks.sort()).toEqual([
      ['crlf.txt-1- p', 'crlf.txt:2:1: foo'],
      [`${join('two', 'two.txt')}-1- x`, `${join('two', 'two.txt')}:2:1: foo`],
    ]);
  });

  it('--json and --ndjson carry each hit\'s context, as the library returns it', async () => {
    const library = await searchContent({ root: tree, query: 'foo', pattern: 'one.txt', contextBefore: 1, contextAfter: 1 });
    const json = JSON.parse(ff(['one.txt', '--contains', 'foo', '-C', '1', '--json']).stdout);
    expect(json.hits).toEqual(library.hits);
    const ndjson = ff(['one.txt', '--contains', 'foo', '-C', '1', '--ndjson']).stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line));
    expect(ndjson.filter((event) => event.type === 'hit').map(({ type: _type, ...hit }) => hit)).toEqual(library.hits);
    expect(library.hits[1]).toEqual({ path: 'one.txt', line: 6, column: 1, text: 'foo 2', before: [{ line: 5, text: 'd' }], after: [] });
  });

  it.each([
    [['--contains', 'foo', '-l', '-C', '1'], 'Arguments files-with-matches and context are mutually exclusive'],
    [['--contains', 'foo', '-c', '-A', '1'], 'Arguments count and after-context are mutually exclusive'],
    [['*.txt', '-B', '1'], '--before-context needs --contains TEXT'],
    [['--contains', 'foo', '-C', '-1'], 'find-file: error:'],
    [['--contains', 'foo', '-A', '1.5'], '--after-context must be a non-negative integer, got "1.5"'],
  ])('usage errors exit 2: %j', (args, message) => {
    const run = ff(args);
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(message);
  });
});
