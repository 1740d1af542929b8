/**
 * globTool on memfs workspaces with a fake clock: every answer the model can get, word for word.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { globTool, type GlobMetadata, type GlobToolResult } from '../../src/agent/index.js';
import { policyOf, workspacePath } from '../../src/agent/answer.js';
import { readContext } from '../../src/agent/context.js';
import { FakeClock, asFs, buildVolume, faultyFs, win32Fs, type Tree } from '../helpers/memfs.js';
import { W, manyFiles, workspace } from '../helpers/agent.js';
import { FakeRipgrep, nul, useFakeInstall } from '../helpers/rg-fake.js';

const project: Tree = {
  '.git': { HEAD: '' },
  node_modules: { lib: { 'index.js': '' } },
  src: { auth: { 'loginService.ts': '', 'logoutService.ts': '' }, 'index.ts': '' },
  test: { auth: { 'loginService.test.ts': '' } },
  'README.md': '',
};

/** The WindowsApps story: a wide root where one folder cannot be read. */
const programFiles: Tree = {
  'Program Files': {
    WindowsApps: { 'Microsoft.App': { 'app.exe': '' } },
    xpdf: { 'pdftotext.exe': '', 'pdfinfo.exe': '' },
    Common: { 'shared.dll': '' },
  },
};
const denyWindowsApps = { readdir: { '/w/Program Files/WindowsApps/': 'EACCES' } };

function ok(result: GlobToolResult): GlobMetadata {
  expect(result.isError).toBe(false);
  return result.metadata as GlobMetadata;
}

describe('complete answers', () => {
  it('lists workspace-relative paths, one per line, and nothing else', async () => {
    const result = await globTool({ pattern: '*.ts' }, workspace({ src: { 'a.ts': '', 'b.ts': '' }, 'c.md': '' }));
    expect(result.content).toBe('src/a.ts\nsrc/b.ts');
    expect(result.summary).toBe('2 files matching "*.ts"');
    expect(ok(result)).toMatchObject({ paths: ['src/a.ts', 'src/b.ts'], returned: 2, total: { count: 2, kind: 'exact' }, truncated: false, complete: true, limit: 100, sort: 'path' });
  });

  it('matches case as the platform does unless case_sensitive says otherwise', async () => {
    const tree = { 'README.md': '', docs: { 'readme.txt': '' } };
    expect(ok(await globTool({ pattern: 'readme*' }, workspace(tree))).paths).toEqual(['docs/readme.txt']);
    expect(ok(await globTool({ pattern: 'readme*', case_sensitive: false }, workspace(tree))).paths).toEqual(['README.md', 'docs/readme.txt']);
    const invalid = await globTool({ pattern: 'x', case_sensitive: 'yes' }, workspace(tree));
    expect(invalid).toMatchObject({ isError: true, content: 'Invalid glob input: input.case_sensitive must be true or false, got "yes".' });
  });

  it('says "(search complete)" for nothing found, then the overview and the names closest to a typo', async () => {
    const result = await globTool({ pattern: 'loginServce.ts' }, workspace(project));
    expect(result.content).toBe(
      [
        'No files matching "loginServce.ts" under /w (search complete).',
        'Left out by policy: 2 entries matching the excludes .git/, node_modules/.',
        'The search root /w holds 5 entries: .git/, README.md, node_modules/, src/, test/',
        'Similar file names seen in the search: src/auth/loginService.ts, test/auth/loginService.test.ts, src/auth/logoutService.ts',
      ].join('\n'),
    );
    expect(result.summary).toBe('No files matching "loginServce.ts" (search complete)');
    const meta = ok(result);
    expect(meta).toMatchObject({ returned: 0, total: { count: 0, kind: 'exact' }, complete: true });
    expect(meta.guidance?.similarNames).toEqual({ literal: 'loginServce.ts', paths: ['src/auth/loginService.ts', 'test/auth/loginService.test.ts', 'src/auth/logoutService.ts'], seen: 5, poolCapped: false });
  });

  it('finds similar names for a misspelt fragment between wildcards', async () => {
    const result = await globTool({ pattern: 'src/**/*Servce*' }, workspace(project));
    expect(result.content.split('\n').at(-1)).toBe('Similar file names seen in the search: src/auth/loginService.ts, src/auth/logoutService.ts');
  });

  it('draws similar names only from what the search saw: a pruned directory is not in the pool', async () => {
    // `src/**` never enters test/, so its loginService.test.ts cannot be suggested.
    const result = await globTool({ pattern: 'src/**/loginServce.ts' }, workspace(project));
    expect(result.content.split('\n').at(-1)).toBe('Similar file names seen in the search: src/auth/loginService.ts, src/auth/logoutService.ts');
  });

  it('says so when nothing seen resembles the pattern, and when the root is empty', async () => {
    const none = await globTool({ pattern: 'zzqqxx.bin' }, workspace({ 'a.txt': '' }));
    expect(none.content).toBe(
      ['No files matching "zzqqxx.bin" under /w (search complete).', 'The search root /w holds 1 entry: a.txt', 'Similar file names seen in the search: none resembles "zzqqxx.bin".'].join('\n'),
    );
    const empty = await globTool({ pattern: '*' }, workspace({}));
    expect(empty.content).toBe('No files matching "*" under /w (search complete).\nThe search root /w is empty.');
  });

  it('shows the first ten names of a large root and how many there are', async () => {
    const result = await globTool({ pattern: '*.md' }, workspace(manyFiles(12)));
    expect(result.content.split('\n')[1]).toBe(
      'The search root /w holds 12 entries; the first 10: f000.txt, f001.txt, f002.txt, f003.txt, f004.txt, f005.txt, f006.txt, f007.txt, f008.txt, f009.txt',
    );
  });

  it('cuts at the limit and says how many there were', async () => {
    const result = await globTool({ pattern: '*.txt', limit: 2 }, workspace(manyFiles(5)));
    expect(result.content).toBe(
      ['f000.txt', 'f001.txt', '(truncated: showing 2 of 5)', 'Next: for the rest, make the pattern or path more specific, or raise limit (at most 500).'].join('\n'),
    );
    expect(result.summary).toBe('2 of 5 files matching "*.txt"');
    expect(ok(result)).toMatchObject({ returned: 2, total: { count: 5, kind: 'exact' }, truncated: true, complete: true });
  });

  it('returns 100 by default', async () => {
    const result = await globTool({ pattern: '*.txt' }, workspace(manyFiles(150)));
    const lines = result.content.split('\n');
    expect(lines.slice(100)).toEqual(['(truncated: showing 100 of 150)', 'Next: for the rest, make the pattern or path more specific, or raise limit (at most 500).']);
    expect(ok(result).returned).toBe(100);
  });

  it('caps the limit at 500 whatever the model asks, and says so', async () => {
    const result = await globTool({ pattern: '*.txt', limit: 100000 }, workspace(manyFiles(502)));
    const lines = result.content.split('\n');
    expect(lines).toHaveLength(503);
    expect(lines.slice(500)).toEqual(['(truncated: showing 500 of 502)', 'Next: for the rest, make the pattern or path more specific.', '(limit 100000 is above the maximum: capped at 500)']);
    expect(ok(result)).toMatchObject({ limit: 500, limitRequested: 100000, returned: 500, total: { count: 502, kind: 'exact' } });
  });

  it('says "more than" when counting stopped at the cap, and does not call that a coverage gap', async () => {
    const result = await globTool({ pattern: '*.txt', limit: 3 }, workspace(manyFiles(600), { countCap: 501 }));
    expect(result.content).toBe(
      ['f000.txt', 'f001.txt', 'f002.txt', '(truncated: showing 3 of more than 501)', 'Next: for the rest, make the pattern or path more specific, or raise limit (at most 500).'].join('\n'),
    );
    expect(result.summary).toBe('3 of more than 501 files matching "*.txt"');
    const meta = ok(result);
    expect(meta).toMatchObject({ total: { count: 501, kind: 'more-than' }, truncated: true, complete: false });
    expect(meta.result.incompleteReasons).toEqual(['result-limit']);
  });
});

describe('incomplete answers', () => {
  it('WindowsApps: finds the file in another folder, names the denied one, and does not claim absence', async () => {
    const result = await globTool({ pattern: 'pdftotext.exe' }, workspace(programFiles, {}, denyWindowsApps));
    expect(result.content).toBe(
      [
        'Program Files/xpdf/pdftotext.exe',
        '(incomplete)',
        'Warning: the search did not cover everything, so absence elsewhere cannot be concluded.',
        'Not searched:',
        '- 1 path could not be read (permission denied): Program Files/WindowsApps',
        'Next: search a path that avoids the unreadable ones, or another folder where it may be.',
      ].join('\n'),
    );
    expect(result.summary).toBe('Incomplete search (permission denied): 1 file matching "pdftotext.exe" found in the part searched');
    const meta = ok(result);
    expect(meta).toMatchObject({ returned: 1, total: { count: 1, kind: 'at-least' }, truncated: false, complete: false });
    expect(meta.result.skipped).toEqual([{ path: 'Program Files/WindowsApps', code: 'EACCES' }]);
  });

  it('WindowsApps: nothing found is "Search incomplete", never "No files"', async () => {
    const result = await globTool({ pattern: 'winword.exe', path: 'Program Files' }, workspace(programFiles, {}, denyWindowsApps));
    expect(result.content).toBe(
      [
        'Search incomplete: no matches in the part that could be searched (files matching "winword.exe" under /w/Program Files).',
        'Absence cannot be concluded: part of the tree was not searched.',
        'Not searched:',
        '- 1 path could not be read (permission denied): Program Files/WindowsApps',
        'Next: search a path that avoids the unreadable ones, or another folder where it may be.',
        'The search root /w/Program Files holds 3 entries: Common/, WindowsApps/, xpdf/',
        'Similar file names seen in the search: none resembles "winword.exe".',
      ].join('\n'),
    );
    expect(result.content).not.toMatch(/No files/);
    expect(result.summary).toBe('Incomplete search (permission denied): 0 files matching "winword.exe" found in the part searched');
  });

  it('names up to five unreadable paths, then how many more', async () => {
    const tree: Tree = { 'x.txt': '' };
    const readdir: Record<string, string> = {};
    for (const d of ['a', 'b', 'c', 'd', 'e', 'f', 'g']) {
      tree[d] = { 'y.txt': '' };
      readdir[`/w/${d}/`] = 'EPERM';
    }
    const three = await globTool({ pattern: '*.txt' }, workspace({ 'x.txt': '', a: {}, b: {}, c: {} }, {}, { readdir: { '/w/a/': 'EACCES', '/w/b/': 'EACCES', '/w/c/': 'EACCES' } }));
    expect(three.content.split('\n')[4]).toBe('- 3 paths could not be read (permission denied): a, b, c');
    const seven = await globTool({ pattern: '*.txt' }, workspace(tree, {}, { readdir }));
    expect(seven.content.split('\n')[4]).toBe('- 7 paths could not be read (permission denied): a, b, c, d, e, and 2 more');
  });

  it('a denied search root is named by its workspace path', async () => {
    const result = await globTool({ pattern: '*', path: 'locked' }, workspace({ locked: { 'a.txt': '' } }, {}, { readdir: { '/w/locked/': 'EACCES', '/w/locked': 'EACCES' } }));
    expect(result.content.split('\n').slice(0, 5)).toEqual([
      'Search incomplete: no matches in the part that could be searched (files matching "*" under /w/locked).',
      'Absence cannot be concluded: part of the tree was not searched.',
      'Not searched:',
      '- 1 path could not be read (permission denied): locked',
      'Next: search a path that avoids the unreadable ones, or another folder where it may be.',
    ]);
    expect(result.content.split('\n')[5]).toBe('The search root /w/locked could not be listed (EACCES).');
  });

  it('time budget', async () => {
    let ctx: ReturnType<typeof workspace>;
    // Reading the root spends the whole budget: its own files are kept, nothing below is read.
    ctx = workspace({ 'r.txt': '', a: { 'x.txt': '' } }, { timeBudgetMs: 5000 }, { beforeReaddir: () => ctx.clock.advance(6000) });
    const result = await globTool({ pattern: '*.txt' }, ctx);
    expect(result.content).toBe(
      [
        'r.txt',
        '(incomplete)',
        'Warning: the search did not cover everything, so absence elsewhere cannot be concluded.',
        'Not searched:',
        '- time budget of 5000 ms reached',
        'Next: narrow the path or make the pattern more specific, so the search fits the time budget.',
      ].join('\n'),
    );
  });

  it('depth limit', async () => {
    const tree: Tree = { 'top.txt': '', a: { b: { c: { d: { e: { 'deep.txt': '' } } } } } };
    const result = await globTool({ pattern: '*.txt' }, workspace(tree, { maxDepth: 4 }));
    expect(result.content).toBe(
      [
        'top.txt',
        '(incomplete)',
        'Warning: the search did not cover everything, so absence elsewhere cannot be concluded.',
        'Not searched:',
        '- depth limit 4 reached',
        'Next: search from a deeper path, so the depth limit reaches further.',
      ].join('\n'),
    );
  });

  it('aborted', async () => {
    const result = await globTool({ pattern: '*.txt' }, workspace({ 'a.txt': '' }, { signal: AbortSignal.abort() }));
    expect(result.content).toBe(
      [
        'Search incomplete: no matches in the part that could be searched (files matching "*.txt" under /w).',
        'Absence cannot be concluded: part of the tree was not searched.',
        'Not searched:',
        '- the search was cancelled before it finished',
        'Next: search again if it is still needed.',
        // No guidance: a cancelled call reads nothing more (its overview would be one more readdir).
      ].join('\n'),
    );
  });

  it('I/O errors, with their codes', async () => {
    const result = await globTool({ pattern: '*.txt' }, workspace({ 'a.txt': '', bad: { 'b.txt': '' } }, {}, { readdir: { '/w/bad/': 'EIO' } }));
    expect(result.content.split('\n').slice(3)).toEqual([
      'Not searched:',
      '- 1 path could not be read (I/O error): bad (EIO)',
      'Next: search again; if the error persists, search a path that avoids the failing ones.',
    ]);
  });

  it('truncated and incomplete: both labels, and the count is only "at least"', async () => {
    const tree: Tree = { ...manyFiles(5), locked: { 'z.txt': '' } };
    const result = await globTool({ pattern: '*.txt', limit: 2 }, workspace(tree, {}, { readdir: { '/w/locked/': 'EACCES' } }));
    expect(result.content).toBe(
      [
        'f000.txt',
        'f001.txt',
        '(truncated: showing 2 of at least 5)',
        '(incomplete)',
        'Warning: the search did not cover everything, so absence elsewhere cannot be concluded.',
        'Not searched:',
        '- 1 path could not be read (permission denied): locked',
        'Next: search a path that avoids the unreadable ones, or another folder where it may be; for the rest, make the pattern or path more specific, or raise limit (at most 500).',
      ].join('\n'),
    );
    expect(result.summary).toBe('Incomplete search (permission denied): 2 of at least 5 files matching "*.txt" found in the part searched');
    expect(ok(result)).toMatchObject({ total: { count: 5, kind: 'at-least' }, truncated: true, complete: false });
  });

  it('several reasons, each in words, with their next steps once each', async () => {
    const tree: Tree = { 'top.txt': '', locked: {}, a: { b: { 'deep.txt': '' } } };
    const result = await globTool({ pattern: '*.txt' }, workspace(tree, { maxDepth: 2 }, { readdir: { '/w/locked/': 'EACCES' } }));
    expect(result.content.split('\n').slice(3)).toEqual([
      'Not searched:',
      '- 1 path could not be read (permission denied): locked',
      '- depth limit 2 reached',
      'Next: search a path that avoids the unreadable ones, or another folder where it may be; search from a deeper path, so the depth limit reaches further.',
    ]);
  });
});

describe('the search path', () => {
  it('a path inside the workspace becomes the search root; answers stay workspace-relative', async () => {
    const result = await globTool({ pattern: '*.ts', path: 'src/auth' }, workspace(project));
    expect(result.content).toBe('src/auth/loginService.ts\nsrc/auth/logoutService.ts');
    expect(ok(result).searchRoot).toBe('/w/src/auth');
    const absolute = await globTool({ pattern: '*.ts', path: '/w/src/./auth/' }, workspace(project));
    expect(absolute.content).toBe(result.content);
    const climbing = await globTool({ pattern: '*.ts', path: 'test/../src/auth' }, workspace(project));
    expect(climbing.content).toBe(result.content);
  });

  const advice = 'Only the workspace root /w can be searched: give a path relative to it (for example "src"), or omit path to search all of it.';
  it.each([
    ['../etc', 'path-climbs-out', `Refused: path "../etc" climbs out of the workspace root /w with "..". ${advice}`],
    ['src/../../etc', 'path-climbs-out', `Refused: path "src/../../etc" climbs out of the workspace root /w with "..". ${advice}`],
    ['..\\..\\etc', 'path-climbs-out', `Refused: path "..\\\\..\\\\etc" climbs out of the workspace root /w with "..". ${advice}`],
    ['/etc', 'path-absolute-outside', `Refused: path "/etc" is outside the workspace root /w. ${advice}`],
    ['/w/../etc', 'path-absolute-outside', `Refused: path "/w/../etc" is outside the workspace root /w. ${advice}`],
    ['/wx', 'path-absolute-outside', `Refused: path "/wx" is outside the workspace root /w. ${advice}`],
    ['C:\\Windows', 'path-drive', `Refused: path "C:\\\\Windows" names a drive, outside the workspace root /w. ${advice}`],
    ['c:', 'path-drive', `Refused: path "c:" names a drive, outside the workspace root /w. ${advice}`],
    ['a\0b', 'path-nul', `Refused: path "a\\u0000b" holds a NUL byte. ${advice}`],
  ])('refuses %j before any read', async (path, code, message) => {
    const vol = buildVolume({ src: { 'a.ts': '' } }, '/w');
    const fs = faultyFs(asFs(vol));
    const result = await globTool({ pattern: '*', path }, { root: '/w', fs, platform: 'posix', clock: new FakeClock() });
    expect(result.isError).toBe(true);
    expect(result.content).toBe(message);
    expect(result.metadata).toMatchObject({ tool: 'glob', error: { code, message }, workspaceRoot: '/w' });
    expect(fs.calls).toEqual([]);
  });

  it('refuses a path through a symbolic link, which could lead anywhere', async () => {
    const vol = buildVolume({ src: {}, out: { link: '/elsewhere' } }, '/w');
    vol.mkdirSync('/elsewhere/sub', { recursive: true });
    const result = await globTool({ pattern: '*', path: 'out/sub' }, { root: '/w', fs: asFs(vol), platform: 'posix' });
    expect(result.isError).toBe(true);
    expect(result.content).toBe(
      'Refused: path "out/sub" goes through the symbolic link "out", which may lead outside the workspace root /w; links are never followed. Search its target by a path inside the workspace, if it has one.',
    );
  });

  it('a path that does not exist: says so, with what the nearest existing directory holds', async () => {
    const result = await globTool({ pattern: '*', path: 'src/authh/x' }, workspace(project));
    expect(result.isError).toBe(true);
    expect(result.content).toBe('Path "src/authh/x" does not exist under the workspace root /w.\nThe nearest existing directory /w/src holds 2 entries: auth/, index.ts');
  });

  it('a path that is a file: says how to find it', async () => {
    const result = await globTool({ pattern: '*', path: 'src/auth/loginService.ts' }, workspace(project));
    expect(result.content).toBe('Path "src/auth/loginService.ts" is a file, not a directory. To find it, search with pattern "./loginService.ts" and path "src/auth".');
  });

  it('win32: drive letters, backslashes, case-insensitive containment', async () => {
    const vol = buildVolume({ src: { 'App.ts': '' }, 'b.ts': '' }, '/C/proj');
    const ctx = { root: 'C:\\proj', fs: win32Fs(asFs(vol)), platform: 'win32' as const, clock: new FakeClock() };
    expect((await globTool({ pattern: '*.ts' }, ctx)).content).toBe('b.ts\nsrc/App.ts');
    const inside = await globTool({ pattern: '*.ts', path: 'c:\\PROJ\\src' }, ctx);
    expect(inside.content).toBe('src/App.ts');
    expect(ok(inside).searchRoot).toBe('C:\\proj\\src');
    const advice = 'Only the workspace root C:\\proj can be searched: give a path relative to it (for example "src"), or omit path to search all of it.';
    expect((await globTool({ pattern: '*', path: 'D:\\data' }, ctx)).content).toBe(`Refused: path "D:\\\\data" is outside the workspace root C:\\proj. ${advice}`);
    expect((await globTool({ pattern: '*', path: 'C:other' }, ctx)).content).toBe(`Refused: path "C:other" names a drive, outside the workspace root C:\\proj. ${advice}`);
    expect((await globTool({ pattern: '*', path: 'src\\..\\..' }, ctx)).content).toBe(`Refused: path "src\\\\..\\\\.." climbs out of the workspace root C:\\proj with "..". ${advice}`);
    expect((await globTool({ pattern: '*', path: '\\\\server\\share' }, ctx)).content).toBe(`Refused: path "\\\\\\\\server\\\\share" is outside the workspace root C:\\proj. ${advice}`);
    expect((await globTool({ pattern: 'nope.ts' }, ctx)).content.split('\n')[0]).toBe('No files matching "nope.ts" under C:\\proj (search complete).');
  });
});

describe('input', () => {
  it.each([
    [{}, 'Invalid glob input: input.pattern is required.'],
    [{ pattern: '' }, 'Invalid glob input: input.pattern must not be empty.'],
    [{ pattern: 'x', limit: 0 }, 'Invalid glob input: input.limit must be at least 1, got 0.'],
    [{ pattern: 'x', limit: 2.5 }, 'Invalid glob input: input.limit must be a whole number, got 2.5.'],
    [{ pattern: 'x', sort: 'size' }, 'Invalid glob input: input.sort must be one of "path", "relevance", "mtime", got "size".'],
    [{ pattern: 'x', query: 'y' }, 'Invalid glob input: input.query is not a known field (known: "pattern", "path", "case_sensitive", "respect_git_ignore", "type", "limit", "sort").'],
    ['*.ts', 'Invalid glob input: input must be an object, got "*.ts".'],
    [{ pattern: 3, path: null }, 'Invalid glob input: input.pattern must be a string, got 3; input.path must be a string, got null.'],
  ])('answers %j with what is wrong', async (input, message) => {
    const result = await globTool(input, workspace({}));
    expect(result).toMatchObject({ isError: true, content: message, metadata: { error: { code: 'invalid-input', message } } });
  });

  it('answers a pattern the library refuses with its reason', async () => {
    const negation = await globTool({ pattern: '!*.ts' }, workspace({}));
    expect(negation.content).toBe('Invalid pattern: pattern "!*.ts" is a negation: list what to leave out in "exclude" instead. Patterns are relative to the search root /w.');
    const climbing = await globTool({ pattern: '../*.ts', path: 'src' }, workspace({ src: {} }));
    expect(climbing.content).toBe('Invalid pattern: pattern "../*.ts" climbs out of the root with "..": search from a higher root instead. Patterns are relative to the search root /w/src.');
    expect(climbing.metadata).toMatchObject({ error: { code: 'FF_PATTERN_OUTSIDE_ROOT' } });
    // Past the brace limit: a pattern the model can shorten, said as such (issue 26).
    const huge = await globTool({ pattern: '{1..100001}.tx[t]' }, workspace({ src: {} }));
    expect(huge.content).toMatch(/^Invalid pattern: pattern "\{1\.\.100001\}\.tx\[t\]" expands to 100,001 alternatives, over the limit of 10,000/);
    expect(huge.metadata).toMatchObject({ error: { code: 'FF_PATTERN_TOO_LARGE' } });
  });

  it('throws for a context the host got wrong (not something the model can fix)', async () => {
    await expect(globTool({ pattern: '*' }, { root: 'relative/dir' })).rejects.toMatchObject({ name: 'FindFileError', code: 'FF_INVALID_ROOT', option: 'root' });
    await expect(globTool({ pattern: '*' }, { root: '/w', countCap: 10 })).rejects.toThrow(/countCap/);
  });
});

describe('symlinks whose name matches', () => {
  // /usr/bin in small, in a workspace: bin/python3 is a link to python3.11.
  const tree: Tree = { bin: { 'python3.11': '', python3: { link: 'python3.11' }, env: '' }, locked: { 'python3.tmp': '' } };

  it('no regular file matched: names the link instead of the absence headline', async () => {
    const result = await globTool({ pattern: 'python3' }, workspace(tree));
    expect(result.content).toBe(
      [
        'Search complete: no regular file matches (files matching "python3" under /w); 1 symlink matches (not followed): bin/python3.',
        'Left out by policy: 1 symbolic link not followed.',
        'The search root /w holds 2 entries: bin/, locked/',
        'Similar file names seen in the search: bin/python3.11, locked/python3.tmp',
      ].join('\n'),
    );
    expect(result.content).not.toContain('No files');
    const meta = ok(result);
    expect(meta).toMatchObject({ returned: 0, complete: true, policy: { symlinkSkipped: 1, links: { paths: ['bin/python3'], count: 1, examined: true } } });
    expect(meta.result).toMatchObject({ linkMatches: ['bin/python3'], linkMatchedCount: 1, linksExamined: true });
  });

  it('an incomplete search names them too, after saying it is incomplete', async () => {
    const result = await globTool({ pattern: 'python3' }, workspace(tree, {}, { readdir: { '/w/locked/': 'EACCES' } }));
    expect(result.content.split('\n').slice(0, 5)).toEqual([
      'Search incomplete: no regular file matches in the part that could be searched (files matching "python3" under /w); 1 symlink matches (not followed): bin/python3.',
      'Absence cannot be concluded: part of the tree was not searched.',
      'Not searched:',
      '- 1 path could not be read (permission denied): locked',
      'Next: search a path that avoids the unreadable ones, or another folder where it may be.',
    ]);
    expect(result.summary).toBe('Incomplete search (permission denied): 0 files matching "python3" found in the part searched; 1 symlink matches (not followed)');
  });

  it('files matched too: one line after the list, the first five named', async () => {
    const links: Tree = { 'python3.11': '' };
    for (const name of ['python3', 'python3-a', 'python3-b', 'python3-c', 'python3-d', 'python3-e', 'python3-f']) links[name] = { link: 'python3.11' };
    const result = await globTool({ pattern: 'python3*' }, workspace({ bin: links }));
    expect(result.content).toBe(
      [
        'bin/python3.11',
        'Also 7 symlinks match (not followed): bin/python3, bin/python3-a, bin/python3-b, bin/python3-c, bin/python3-d, and 2 more.',
        'Left out by policy: 7 symbolic links not followed.',
      ].join('\n'),
    );
  });

  it('policyOf puts the link paths in workspace terms when given the search scope', () => {
    const settings = readContext({ root: '/w', platform: 'posix' });
    const counts = { excludedCount: 0, symlinkSkipped: 2, linkMatches: ['python3'], linkMatchedCount: 1, linksOnTheWay: ['lib'], linkOnTheWayCount: 1, linksExamined: true, ignoredCount: 0, backend: 'walker' as const };
    expect(policyOf(settings, counts, workspacePath(settings, { ok: true, rel: 'bin', root: '/w/bin', workspace: settings.workspaces[0]! })).links).toEqual({ paths: ['bin/python3'], count: 1, examined: true, onTheWay: { paths: ['bin/lib'], count: 1 } });
    expect(policyOf(settings, { excludedCount: 0, symlinkSkipped: 0, ignoredCount: 0, backend: 'walker' })).not.toHaveProperty('links'); // content search: no link facts
  });
});

describe('policy', () => {
  it('reports the default excludes and links as policy, never as a gap', async () => {
    const tree: Tree = { ...project, 'link.ts': { link: 'src/index.ts' } };
    const result = await globTool({ pattern: '*.ts' }, workspace(tree));
    expect(result.content).toBe(
      [
        'src/auth/loginService.ts',
        'src/auth/logoutService.ts',
        'src/index.ts',
        'test/auth/loginService.test.ts',
        'Also 1 symlink matches (not followed): link.ts.',
        'Left out by policy: 2 entries matching the excludes .git/, node_modules/; 1 symbolic link not followed.',
      ].join('\n'),
    );
    expect(ok(result)).toMatchObject({ complete: true, policy: { exclude: ['.git/', 'node_modules/'], excludedCount: 2, symlinkSkipped: 1 } });
  });

  it('takes the excludes from the context, and searches node_modules when the path points into it', async () => {
    const custom = await globTool({ pattern: '*.ts' }, workspace(project, { exclude: ['test/'] }));
    expect(custom.content.split('\n').at(-1)).toBe('Left out by policy: 1 entry matching the excludes test/.');
    const inside = await globTool({ pattern: '*.js', path: 'node_modules' }, workspace(project));
    expect(inside.content).toBe('node_modules/lib/index.js');
  });
});

describe('sort: relevance', () => {
  const tree: Tree = {
    src: { auth: { 'loginService.ts': 'x', 'login.ts': '' }, big: { 'loginServiceData.ts': 'x'.repeat(2 * 1024 * 1024) } },
    test: { auth: { 'loginService.test.ts': '' } },
    dist: { auth: { 'loginService.js': '' } },
    vendor: { lib: { 'loginService.js': '' } },
    docs: { 'loginService.md': '' },
  };

  it('source first, its test next to it, huge files, build output and vendored code last', async () => {
    const result = await globTool({ pattern: 'login*', sort: 'relevance' }, workspace(tree));
    expect(result.content).toBe(
      [
        'src/auth/login.ts',
        'src/auth/loginService.ts',
        'test/auth/loginService.test.ts',
        'docs/loginService.md',
        'src/big/loginServiceData.ts',
        'dist/auth/loginService.js',
        'vendor/lib/loginService.js',
      ].join('\n'),
    );
    expect(ok(result).sort).toBe('relevance');
  });

  it('the default stays path order', async () => {
    const result = await globTool({ pattern: 'login*' }, workspace(tree));
    expect(result.content.split('\n')).toEqual([...ok(result).paths].sort());
  });

  it('reads sizes for the returned page only', async () => {
    const vol = buildVolume(tree, '/w');
    const fs = faultyFs(asFs(vol));
    const result = await globTool({ pattern: 'login*', sort: 'relevance', limit: 3 }, { root: '/w', fs, platform: 'posix', clock: new FakeClock() });
    expect(result.content.split('\n').slice(0, 3)).toEqual(['src/auth/login.ts', 'src/auth/loginService.ts', 'src/big/loginServiceData.ts']);
    expect(fs.calls.filter((c) => c.call === 'lstat').map((c) => c.path).sort()).toEqual(['/w/src/auth/login.ts', '/w/src/auth/loginService.ts', '/w/src/big/loginServiceData.ts']);
  });
});

describe('other backends', () => {
  let rgPath = '';
  let root = '';
  useFakeInstall((install) => ({ rgPath, root } = install));

  it('passes the ripgrep backend through, and gives the overview without similar names (no walk to draw them from)', async () => {
    writeFileSync(join(root, 'loginService.ts'), '');
    const fake = new FakeRipgrep([{ stdout: nul('loginService.ts') }, { exit: 0 }], [{ exit: 1 }]);
    // The real filesystem and the running platform: ripgrep cannot read an injected fs.
    const ctx = { root, backend: 'ripgrep' as const, rgPath, runner: fake.runner };
    const found = await globTool({ pattern: 'loginService.ts' }, ctx);
    expect(found.content).toBe('loginService.ts');
    expect(ok(found).result.backend).toBe('ripgrep');
    const none = await globTool({ pattern: 'loginServce.ts' }, ctx);
    expect(none.content).toBe(
      [
        `No files matching "loginServce.ts" under ${root} (search complete).`,
        'Symlinks were not examined (ripgrep lists regular files only): a symlink whose name matches, or a symlinked directory the pattern leads into, would not be named here.',
        'Ignore files were applied (ripgrep does not count what they left out): search again with respect_git_ignore: false to include ignored files.',
        `The search root ${root} holds 1 entry: loginService.ts`,
      ].join('\n'),
    );
    expect(none.summary).toBe('No files matching "loginServce.ts" (search complete; symlinks not examined)');
    expect(fake.calls).toHaveLength(2);
  });

  it('offers similar names under auto when the walker answered (an injected fs)', async () => {
    const result = await globTool({ pattern: 'loginServce.ts' }, workspace(project, { backend: 'auto' }));
    expect(ok(result).result).toMatchObject({ backend: 'walker', fallbackReason: 'fs-injected' });
    expect(result.content.split('\n').at(-1)).toBe('Similar file names seen in the search: src/auth/loginService.ts, test/auth/loginService.test.ts, src/auth/logoutService.ts');
    expect(ok(result).guidance?.similarNames).toMatchObject({ seen: 5, poolCapped: false });
  });
});

describe('ignore files (respect_git_ignore, default true)', () => {
  const repo: Tree = {
    '.git': { HEAD: '' },
    '.gitignore': 'dist/\n*.log\n',
    src: { 'app.ts': 'x' },
    dist: { 'app.js': 'x', 'app.ts': 'x' },
    'debug.log': 'x',
  };

  it('leaves out what .gitignore ignores and says how many paths, as policy', async () => {
    const result = await globTool({ pattern: '*.ts' }, workspace(repo));
    expect(result.content).toBe(['src/app.ts', 'Left out by policy: 1 entry matching the excludes .git/, node_modules/; 2 paths ignored by ignore files (.gitignore, .ignore).'].join('\n'));
    expect(ok(result).policy.ignored).toEqual({ count: 2, counted: true });
    expect(ok(result).complete).toBe(true);
  });

  it('a complete empty answer says what the ignore files left out and how to include it', async () => {
    const result = await globTool({ pattern: 'app.js' }, workspace(repo));
    expect(result.content.split('\n').slice(0, 3)).toEqual([
      `No files matching "app.js" under ${W} (search complete).`,
      'Left out by policy: 1 entry matching the excludes .git/, node_modules/; 2 paths ignored by ignore files (.gitignore, .ignore).',
      'Ignore files left out 2 paths: search again with respect_git_ignore: false to include ignored files.',
    ]);
    const every = await globTool({ pattern: 'app.js', respect_git_ignore: false }, workspace(repo));
    expect(every.content).toBe(['dist/app.js', 'Left out by policy: 1 entry matching the excludes .git/, node_modules/.'].join('\n'));
    expect(ok(every).policy.ignored).toBeUndefined();
  });

  it('an fs that cannot read ignore files searches every file and claims nothing about them', async () => {
    const ctx = workspace(repo, {}, {});
    const result = await globTool({ pattern: '*.ts' }, ctx);
    expect(ok(result).paths).toEqual(['dist/app.ts', 'src/app.ts']);
    expect(ok(result).policy.ignored).toBeUndefined();
  });
});


describe('sort: mtime', () => {
  it('lists the most recently modified first; equal times keep path order', async () => {
    const ctx = workspace({ 'a.ts': 'x', 'b.ts': 'x', 'c.ts': 'x', 'd.ts': 'x' });
    const fs = ctx.fs as unknown as { utimesSync(path: string, atime: number, mtime: number): void };
    fs.utimesSync(`${W}/a.ts`, 100, 100);
    fs.utimesSync(`${W}/b.ts`, 300, 300);
    fs.utimesSync(`${W}/c.ts`, 200, 200);
    fs.utimesSync(`${W}/d.ts`, 300, 300);
    const result = await globTool({ pattern: '*.ts', sort: 'mtime' }, ctx);
    expect(ok(result).paths).toEqual(['b.ts', 'd.ts', 'c.ts', 'a.ts']);
    expect(ok(result).sort).toBe('mtime');
    const page = await globTool({ pattern: '*.ts', sort: 'mtime', limit: 1 }, ctx);
    expect(page.content.split('\n')[0]).toBe('b.ts');
  });

  it('is glob\'s only: grep refuses it as it refuses any unknown order', async () => {
    const { grepTool } = await import('../../src/agent/index.js');
    const result = await grepTool({ query: 'x', sort: 'mtime' }, workspace({ 'a.ts': 'x' }));
    expect(result.isError).toBe(true);
  });
});
