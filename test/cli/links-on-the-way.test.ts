/**
 * Issue 27, links on the way, through the real bin/find-file.mjs on a real tree: a symlinked
 * directory the pattern would have descended into is named with its target, and the summary never
 * says "no matching file exists there" while one exists. Build first (`npm run build`).
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FindResult } from '../../dist/index.js';
import { isPosix, lines, runFindFile, type Run } from '../helpers/cli.js';
import { needsRg } from '../helpers/real-rg.js';
import { describeIf, itIf, posix } from '../helpers/skip-why.js';

let tree: string;
beforeAll(() => {
  tree = mkdtempSync(join(tmpdir(), 'ff-cli-on-the-way-'));
  for (const f of ['real/a.ts', 'src/b.ts', 'node_modules/.pnpm/react@18.2.0/node_modules/react/index.js']) {
    mkdirSync(join(tree, dirname(f)), { recursive: true });
    writeFileSync(join(tree, f), '');
  }
  if (!isPosix) return;
  symlinkSync('real', join(tree, 'linked-src'));
  symlinkSync('.pnpm/react@18.2.0/node_modules/react', join(tree, 'node_modules', 'react'));
});
afterAll(() => rmSync(tree, { recursive: true, force: true }));

function ff(args: string[]): Run {
  return runFindFile(args, { cwd: tree });
}

describeIf(posix('symlinks need a privilege on Windows (test/windows covers junctions)'))('(POSIX) links on the way (issue 27)', () => {
  it("names linked-src -> real for 'linked-src/*.ts', exit 0, and never claims absence", () => {
    const run = ff(['linked-src/*.ts']);
    expect(run).toMatchObject({ status: 0, stdout: '' });
    expect(lines(run.stderr)).toEqual([
      `find-file: no matches under ${tree}: complete, every directory was read, but symlinks are never followed: no matching file outside symlinked directories; 1 symlinked directory on the way was not followed: linked-src -> real`,
      '  search its target to look inside',
      '  1 symlink not followed (by policy, not coverage gaps)',
    ]);
    expect(run.stderr).not.toContain('exists there');
  });

  it("pnpm: 'node_modules/react/**/*.js' names node_modules/react with its target", () => {
    const run = ff(['node_modules/react/**/*.js']);
    expect(lines(run.stderr)[0]).toContain('1 symlinked directory on the way was not followed: node_modules/react -> .pnpm/react@18.2.0/node_modules/react');
    expect(run.stderr).not.toContain('exists there');
  });

  it('with matches, one more line; absolute paths with --absolute; --json and --ndjson carry the fields', () => {
    const run = ff(['*/a.ts']);
    expect(lines(run.stdout)).toEqual(['real/a.ts']);
    expect(lines(run.stderr)[1]).toBe('  also 1 symlinked directory on the way was not followed: linked-src -> real; search its target to look inside');
    expect(lines(ff(['linked-src/*.ts', '--absolute']).stderr)[0]).toContain(`not followed: ${join(tree, 'linked-src')} -> real`);
    const json = JSON.parse(ff(['linked-src/*.ts', '--json']).stdout) as FindResult;
    expect(json).toMatchObject({ matches: [], complete: true, linksOnTheWay: ['linked-src'], linkOnTheWayCount: 1, linksExamined: true });
    const summary = JSON.parse(lines(ff(['linked-src/*.ts', '--ndjson']).stdout).at(-1)!) as FindResult;
    expect(summary).toMatchObject({ linksOnTheWay: ['linked-src'], linkOnTheWayCount: 1 });
  });

  it('no link on the way: the plain complete absence sentence', () => {
    expect(lines(ff(['src/*.rs']).stderr)[0]).toBe(`find-file: no matches under ${tree}: complete, every directory was read, so no matching file exists there`);
  });

  itIf(needsRg)('--backend ripgrep claims absence only outside symlinked directories; auto names the link', () => {
    // -u: ripgrep's count-less ignore files are not this test's subject (ignore.test.ts words them).
    const rg = ff(['linked-src/*.ts', '-u', '--backend', 'ripgrep']);
    expect(lines(rg.stderr)[0]).toBe(`find-file: no matches under ${tree}: complete, every directory was read, so no matching regular file exists there outside symlinked directories`);
    const auto = ff(['linked-src/*.ts', '--backend', 'auto']);
    expect(lines(auto.stderr)[0]).toContain('1 symlinked directory on the way was not followed: linked-src -> real');
    expect(auto.stderr).toContain('auto ran the walker (links-unexamined)');
  });
});
