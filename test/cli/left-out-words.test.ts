/**
 * A complete, empty answer claims absence only for what was not left out by choice (src/cli/summary.ts
 * `leftOutAside`, `hasIgnored`). An adversarial run found two holes, both "complete, ... does not
 * occur there" about the one file that held the text:
 *
 * - `--ignore-file` applies with `-u` too (as rg's does), but the summary took ignore files as on
 *   only with `--gitignore`: the "ignored" qualifier dropped, and the way back said `-u`, which
 *   does not lift `--ignore-file`.
 * - ripgrep applies `--exclude` without counting what it left out (excludedCount 0): "excluded"
 *   dropped on the ripgrep backend and `auto`.
 *
 * Every backend x a listing and a content search x each way of leaving the one file out.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFindFile } from '../helpers/cli.js';
import { needsRg } from '../helpers/real-rg.js';
import { onWindows, posixOnly } from '../helpers/skip-why.js';

let root = '';

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'ff-left-out-'));
  writeFileSync(join(root, 'a.txt'), 'nothing\n');
  writeFileSync(join(root, 'b.txt'), 'SECRET\n');
  writeFileSync(join(root, 'my.ignore'), 'b.txt\n');
});

afterAll(() => {
  if (root !== '') rmSync(root, { recursive: true, force: true });
});

const WAYS = [
  { flags: ['-u', '--ignore-file', 'my.ignore'], word: 'ignored' },
  { flags: ['--ignore-file', 'my.ignore'], word: 'ignored' },
  { flags: ['-u', '-E', 'b.txt'], word: 'excluded' },
  { flags: ['-E', 'b.txt'], word: 'excluded' },
];
const SEARCHES = [
  { name: 'listing', args: ['b.txt'] },
  { name: 'content', args: ['--contains', 'SECRET'] },
];

describe.skipIf(onWindows || !needsRg[0])(posixOnly('an empty answer names what was left out by choice, on every backend', 'the ripgrep backend'), () => {
  it('never "does not occur" or "no matching file exists" without naming the ignored or excluded file\'s way out', () => {
    let checked = 0;
    for (const backend of ['walker', 'ripgrep', 'auto']) {
      for (const search of SEARCHES) {
        for (const way of WAYS) {
          const args = [...search.args, ...way.flags, '--backend', backend];
          const run = runFindFile(args, { cwd: root });
          const label = `find-file ${args.join(' ')}`;
          expect(run.status, `${label}: ${run.stderr}`).toBe(0);
          expect(run.stdout, label).toBe('');
          const headline = run.stderr.split('\n')[0]!;
          expect(headline, label).toContain('complete');
          // Either the absence is qualified by the way the file was left out, or no absence is claimed.
          if (/does not occur|no matching .* exists|none outside/.test(headline)) expect(headline, label).toMatch(new RegExp(`\\b${way.word}\\b`));
          // -u does not lift --ignore-file: the way to include the file says so.
          if (way.word === 'ignored') expect(run.stderr, label).toMatch(/(without|no) --ignore-file/);
          checked++;
        }
      }
    }
    expect(checked).toBe(24);
  });
});
