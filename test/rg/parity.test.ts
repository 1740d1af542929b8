/**
 * Parity with the real ripgrep on a real temp tree: for the same root, pattern and options, the
 * walker and the ripgrep backend return the same matches (and `auto` runs ripgrep). The tree holds
 * what tends to break a listing: dot files, nesting, spaces, unicode, a newline in a name, names
 * that look like flags or globs, links, excluded trees.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { findFiles, type FindOptions } from '../../src/index.js';
import { needsRg, realRg, requireRipgrepInCi } from '../helpers/real-rg.js';
import { buildUndecodableTree } from '../helpers/names.js';
import { describeIf, itIf, linux, posix } from '../helpers/skip-why.js';

const isPosix = process.platform !== 'win32';
let root: string;

const FILES = [
  'a.ts',
  'README.md',
  '.env',
  '.hidden/secret.ts',
  '.hidden/deep/notes.md',
  'src/index.ts',
  'src/.local.ts',
  'src/lib/util.ts',
  'src/lib/util.test.ts',
  'name with spaces.md',
  'dir with space/file one.ts',
  'ünïcødé/文件.ts',
  'emoji/😀.ts',
  'node_modules/pkg/index.js',
  'node_modules/pkg/lib/deep.ts',
  'dist/out.js',
  'a/b/c/d/e/deep.ts',
  'src/weird-[x].ts',
  '-dash.ts',
  '--files.md',
  '#hash.ts',
  'UPPER.TS',
  'x.tsx',
  ...(isPosix ? ['new\nline.ts', 'back\\slash.ts', 'tab\there.ts'] : []),
];

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'ff-rg-parity-'));
  for (const file of FILES) {
    mkdirSync(join(root, file, '..'), { recursive: true });
    writeFileSync(join(root, file), file);
  }
  mkdirSync(join(root, 'empty/deeper'), { recursive: true });
  if (isPosix) {
    symlinkSync(join(root, 'a.ts'), join(root, 'link.ts'));
    symlinkSync(join(root, 'src'), join(root, 'link-to-src'));
    symlinkSync(root, join(root, 'src', 'loop'));
  }
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

requireRipgrepInCi();

const CASES: [string, Partial<FindOptions>][] = [
  ['everything', { pattern: '*' }],
  ['base name glob', { pattern: '*.ts' }],
  ['globstar', { pattern: '**/*.ts' }],
  ['anchored globstar', { pattern: 'src/**/*.ts' }],
  ['directory contents', { pattern: 'src/**' }],
  ['braces', { pattern: '*.{ts,md}' }],
  ['question mark (not passed to ripgrep)', { pattern: '?.ts' }],
  ['character class (not passed to ripgrep)', { pattern: '*.[tm][sd]' }],
  ['deep anchored', { pattern: 'a/b/**' }],
  ['middle globstar', { pattern: '**/lib/*' }],
  ['a name that looks like a flag', { pattern: '-dash.ts' }],
  ['a name that looks like a long flag', { pattern: '--files.md' }],
  ['a name gitignore would read as a comment', { pattern: '#hash.ts' }],
  ['a name with spaces', { pattern: 'file one.ts' }],
  ['unicode', { pattern: '文件.ts' }],
  ['emoji', { pattern: '*.ts', exclude: ['src'] }],
  ['case matters on POSIX', { pattern: isPosix ? 'upper.ts' : 'UPPER.ts' }],
  ['several patterns', { pattern: ['*.md', 'src/lib/*.ts'] }],
  ['exclude a tree and a dir-only glob', { pattern: '*', exclude: ['node_modules', 'dist/'] }],
  ['exclude files', { pattern: '**/*.ts', exclude: ['**/*.test.ts', 'a/b/**'] }],
  ['exclude with a class (not passed to ripgrep)', { pattern: '*', exclude: ['[nd]*'] }],
  ['hidden: false', { pattern: '*', hidden: false }],
  ['hidden: false with a glob', { pattern: '**/*.ts', hidden: false }],
  ['no match', { pattern: '*.nothing' }],
  ['absolute paths', { pattern: '*.md', absolute: true }],
  ['maxResults above the count', { pattern: '*', maxResults: 1000 }],
  ['anchored pattern within maxDepth', { pattern: 'src/*.ts', maxDepth: 2 }],
  ...(isPosix ? ([['a newline in a name', { pattern: 'new*' }], ['a backslash in a name', { pattern: 'back*' }]] as [string, Partial<FindOptions>][]) : []),
];

describeIf(needsRg)(`walker and ripgrep (${realRg.path ?? 'missing'}) agree on a real tree`, () => {
  it.each(CASES)('%s', async (_name, options) => {
    const walker = await findFiles({ root, pattern: '*', ...options, backend: 'walker' });
    const ripgrep = await findFiles({ root, pattern: '*', ...options, backend: 'ripgrep' });
    expect(ripgrep.matches).toEqual(walker.matches);
    expect(ripgrep.matchedCount).toBe(walker.matchedCount);
    expect(ripgrep.skipped).toEqual(walker.skipped);
    expect(ripgrep.complete).toBe(walker.complete);
    expect(ripgrep.incompleteReasons).toEqual(walker.incompleteReasons);
    expect(ripgrep).toMatchObject({ backend: 'ripgrep', recovery: { selectionMode: 'system', retryTriggered: false } });
    expect(ripgrep.recovery).not.toHaveProperty('failureKind');
    expect(ripgrep).toMatchObject({ linkMatches: [], linkMatchedCount: 0, linksExamined: false });
    const auto = await findFiles({ root, pattern: '*', ...options, backend: 'auto' });
    // A complete, empty ripgrep answer has not looked at links: auto lets the walker answer it.
    const recheck = ripgrep.complete && ripgrep.matchedCount === 0;
    expect(auto.backend).toBe(recheck ? 'walker' : 'ripgrep');
    expect(auto.fallbackReason).toBe(recheck ? 'links-unexamined' : undefined);
    expect(auto.matches).toEqual(walker.matches);
  });

  it('the tree really holds what the cases claim (guards against a vacuous pass)', async () => {
    const all = await findFiles({ root, pattern: '*', backend: 'ripgrep' });
    expect(all.matchedCount).toBe(FILES.length);
    if (isPosix) expect(all.matches).toContain('new\nline.ts');
    expect(all.matches).not.toContain('link.ts');
  });

  it('with a depth limit the patterns reach past, the matches agree and ripgrep says depth-limit (it cannot see directories)', async () => {
    const walker = await findFiles({ root, pattern: '*.ts', maxDepth: 2, backend: 'walker' });
    const ripgrep = await findFiles({ root, pattern: '*.ts', maxDepth: 2, backend: 'ripgrep' });
    expect(ripgrep.matches).toEqual(walker.matches);
    expect(walker.incompleteReasons).toEqual(['depth-limit']); // a/b/c/... lies beyond
    expect(ripgrep.incompleteReasons).toEqual(['depth-limit']);
    const auto = await findFiles({ root, pattern: '*.ts', maxDepth: 2, backend: 'auto' });
    expect(auto).toMatchObject({ backend: 'walker', fallbackReason: 'max-depth', matches: walker.matches });
  });

  itIf(linux('names that are not UTF-8 are a Linux case'))('(Linux) names that are not valid UTF-8: the same EILSEQ entries from both', async () => {
    const dir = buildUndecodableTree('ff-rg-utf8-');
    try {
      const bySkippedPath = (r: { skipped: { path: string }[] }) => [...r.skipped].sort((a, b) => (a.path < b.path ? -1 : 1));
      const walker = await findFiles({ root: dir, pattern: '*', backend: 'walker' });
      const ripgrep = await findFiles({ root: dir, pattern: '*', backend: 'ripgrep' });
      expect(ripgrep.matches).toEqual(['ok.txt', 'real-\uFFFD.txt']);
      expect(ripgrep.matches).toEqual(walker.matches);
      expect(bySkippedPath(ripgrep)).toEqual([
        { path: 'bad\uFFFD', code: 'EILSEQ' },
        { path: 'f\uFFFD.txt', code: 'EILSEQ' },
      ]);
      expect(bySkippedPath(ripgrep)).toEqual(bySkippedPath(walker));
      expect(ripgrep.incompleteReasons).toEqual(walker.incompleteReasons);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('with maxResults, ripgrep returns that many of the walker matches, and says result-limit', async () => {
    const walker = await findFiles({ root, pattern: '*.ts', backend: 'walker' });
    const ripgrep = await findFiles({ root, pattern: '*.ts', backend: 'ripgrep', maxResults: 3 });
    expect(ripgrep).toMatchObject({ matchedCount: 3, complete: false, incompleteReasons: ['result-limit'] });
    for (const match of ripgrep.matches) expect(walker.matches).toContain(match);
  });
});

describeIf(needsRg, posix('symlinks need a privilege on Windows (test/windows covers junctions)'))('(POSIX) symlinks whose name matches, on a real disk: walker, ripgrep and auto', () => {
  // /usr/bin in small, made with real links: python3 -> python3.11, python3-config -> nothing.
  let bin: string;
  beforeAll(() => {
    bin = mkdtempSync(join(tmpdir(), 'ff-rg-links-'));
    writeFileSync(join(bin, 'python3.11'), '');
    writeFileSync(join(bin, 'env'), '');
    symlinkSync('python3.11', join(bin, 'python3'));
    symlinkSync(join(bin, 'missing'), join(bin, 'python3-config'));
    mkdirSync(join(bin, 'sub'));
    symlinkSync('..', join(bin, 'sub', 'python3'));
  });
  afterAll(() => rmSync(bin, { recursive: true, force: true }));

  it('the walker names the links; ripgrep cannot see them and says so; auto falls back on the empty answer', async () => {
    const walker = await findFiles({ root: bin, pattern: 'python3', backend: 'walker' });
    expect(walker).toMatchObject({ matches: [], complete: true, linkMatches: ['python3', 'sub/python3'], linkMatchedCount: 2, linksExamined: true, symlinkSkipped: 3 });
    const ripgrep = await findFiles({ root: bin, pattern: 'python3', backend: 'ripgrep' });
    expect(ripgrep).toMatchObject({ backend: 'ripgrep', matches: [], complete: true, linkMatches: [], linkMatchedCount: 0, linksExamined: false });
    const auto = await findFiles({ root: bin, pattern: 'python3', backend: 'auto' });
    expect(auto).toMatchObject({ backend: 'walker', fallbackReason: 'links-unexamined', matches: [], complete: true, linkMatches: walker.linkMatches, linksExamined: true });
    expect(auto.recovery).toMatchObject({ selectionMode: 'system', retryTriggered: false });
  });

  it('auto keeps ripgrep\'s answer when ripgrep found a file, links unexamined', async () => {
    const auto = await findFiles({ root: bin, pattern: 'python3*', backend: 'auto' });
    expect(auto).toMatchObject({ backend: 'ripgrep', matches: ['python3.11'], linksExamined: false, linkMatches: [] });
    expect(auto).not.toHaveProperty('fallbackReason');
    const walker = await findFiles({ root: bin, pattern: 'python3*', absolute: true });
    expect(walker).toMatchObject({ matches: [join(bin, 'python3.11')], linkMatches: [join(bin, 'python3'), join(bin, 'python3-config'), join(bin, 'sub', 'python3')] });
  });
});
