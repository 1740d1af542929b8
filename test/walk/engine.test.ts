/**
 * The engine's own checks (src/walk/engine.ts), seen from outside: how often a large directory
 * looks at the clock as one match costs more (the pattern's or the exclusion's), and a signal
 * aborted in the middle of the sync walk.
 */
import { describe, expect, it } from 'vitest';
import type { FsLike } from '../../src/fs.js';
import { findFiles, findFilesSync, type FindOptions } from '../../src/index.js';
import { findAll } from '../helpers/every-form.js';
import { FakeClock, asFs, buildVolume, faultyFs, type Tree } from '../helpers/memfs.js';

const ROOT = '/root';

const big: Tree = {};
for (let i = 0; i < 3000; i++) big[`f${i}.txt`] = '';
const bigVolume = buildVolume(big);

/** Entries seen before a budget of 3 looks at a clock that moves 1 ms per look: about two checks' worth. */
function entriesSeenWithin3Looks(extra: Partial<FindOptions>): number {
  let now = 0;
  const clock = { now: () => now++ };
  const result = findFilesSync({ root: ROOT, platform: 'posix', pattern: '*', fs: asFs(bigVolume), clock, timeBudgetMs: 3, ...extra });
  expect(result).toMatchObject({ complete: false, incompleteReason: 'time-budget' });
  return result.stats.entriesSeen;
}

describe('a large directory looks at the clock as often as one match costs', () => {
  // A check comes after about 1M units of matching, one match costing (pattern cost × (depth + 1) ×
  // path length), or after 256 entries. A glob of 1,000 characters over names of 6-9 characters at
  // the root: 7,000-10,000 a match, so the clock every 105-150 entries, not 256.
  const costly = `*${'q'.repeat(999)}`;

  it('a plain pattern: every 256 entries', () => {
    const seen = entriesSeenWithin3Looks({ pattern: '*.none' });
    expect(seen).toBeGreaterThanOrEqual(256);
    expect(seen).toBeLessThanOrEqual(2 * 256);
  });

  it('a costly pattern: every 105-150 entries', () => {
    const seen = entriesSeenWithin3Looks({ pattern: costly });
    expect(seen).toBeGreaterThanOrEqual(105);
    expect(seen).toBeLessThanOrEqual(2 * 150);
  });

  it('costly ignore rules with a cheap pattern: as often as the rules cost (an adversarial run: 40 rules, 10 s past a 200 ms budget)', () => {
    const rules = Array.from({ length: 50 }, (_, i) => `*${'q'.repeat(400)}${i}`).join('\n');
    const volume = buildVolume({ ...big, '.rules': rules });
    let now = 0;
    const clock = { now: () => now++ };
    const result = findFilesSync({ root: ROOT, platform: 'posix', pattern: '*.none', fs: asFs(volume), clock, timeBudgetMs: 3, ignoreFiles: [`${ROOT}/.rules`] });
    expect(result).toMatchObject({ complete: false, incompleteReason: 'time-budget' });
    // ~20,000 units a character of the path, 8-10 characters: a check every 5-7 entries, not 256.
    expect(result.stats.entriesSeen).toBeLessThanOrEqual(2 * 7);
  });

  it.each([
    ['the root\'s .gitignore', { gitignore: true }, '.gitignore', 50],
    ['an ignoreFiles file', { ignoreFiles: [`${ROOT}/.rules`] }, '.rules', 50],
    // Spent at the file's first check: the few rules read are cheap, so only the walk's own stop keeps `f` out.
    ['the root\'s .gitignore', { gitignore: true }, '.gitignore', 4],
  ] satisfies [string, Partial<FindOptions>, string, number][])('an ignore file of 30,000 rules (%s, budget %i) is read with the budget asked, and nothing is judged with the part read', (_label, option, file, budget) => {
    // An adversarial run: compiling such a file took 4.6 s past a 200 ms budget. The last rule
    // ignores `f`: judged with the rules read before the stop, `f` would come back.
    const rules = `${Array.from({ length: 30_000 }, (_, i) => `file${i}.log`).join('\n')}\nf\n`;
    const volume = buildVolume({ '.git': {}, [file]: rules, f: '' });
    let now = 0;
    const clock = { now: () => now++ };
    // Time moves 1 ms a look: a budget of 50 passes only if the reading itself looks (~470 times in
    // 30,000 rules); the walk around it looks a handful of times.
    const result = findFilesSync({ root: ROOT, platform: 'posix', pattern: 'f', fs: asFs(volume), clock, timeBudgetMs: budget, ...option });
    expect(result).toMatchObject({ matches: [], complete: false, incompleteReasons: ['time-budget'] });
    expect(now).toBeLessThan(budget + 10); // the stop came in the file, at the budget
  });

  it('a costly exclusion with a cheap pattern: as often or more (the two costs add up)', () => {
    const seen = entriesSeenWithin3Looks({ pattern: '*', exclude: [costly] });
    expect(seen).toBeGreaterThanOrEqual(1);
    expect(seen).toBeLessThanOrEqual(2 * 150);
  });

  // An adversarial run: 256 matches of a 241-character `*a*a…b` over 205-character names overshot
  // a 50 ms budget by 360 ms; over a path 15 names of 250 characters deep, a 1 s budget by 15 s.
  // The pattern's length alone cannot tell: long names and deep paths make each match dearer.
  describe.each([
    { nameLength: 205, depth: 0, stars: 120 },
    { nameLength: 200, depth: 0, stars: 100 },
    { nameLength: 250, depth: 15, stars: 60 },
    { nameLength: 60, depth: 8, stars: 20 },
    { nameLength: 20, depth: 20, stars: 40 },
  ])('names of $nameLength characters, $depth directories deep, `*a` × $stars', ({ nameLength, depth, stars }) => {
    const dirs = Array.from({ length: depth }, (_, i) => `${String(i).padStart(2, '0')}${'a'.repeat(nameLength - 2)}`);
    const leaf: Tree = {};
    for (let i = 0; i < 600; i++) leaf[`${String(i).padStart(3, '0')}${'a'.repeat(nameLength - 3)}`] = '';
    const tree = dirs.reduceRight<Tree>((inner, dir) => ({ [dir]: inner }), leaf);
    const volume = buildVolume(tree);
    const pattern = `${depth > 0 ? '**/' : ''}${'*a'.repeat(stars)}b`;

    it('the matching done before the budget is seen stays within a few checks\' worth', () => {
      // Time moves 1 ms a look, once the walk is in the big directory: the budget passes at its third look there.
      let now = 0;
      let inLeaf = false;
      const clock = { now: () => (inLeaf ? now++ : 0) };
      const onDirectory = (_dir: string, entries: readonly unknown[]) => void (inLeaf ||= entries.length > 1);
      const result = findFilesSync({ root: ROOT, platform: 'posix', pattern, fs: asFs(volume), clock, timeBudgetMs: 3, onDirectory });
      expect(result).toMatchObject({ complete: false, incompleteReason: 'time-budget' });
      const leafSeen = result.stats.entriesSeen - depth;
      const perMatch = pattern.length * (depth + 1) * (depth * (nameLength + 1) + nameLength + 1);
      // A few checks' worth of matching in the big directory (each check after ~1M units; the
      // 256-entry rule alone let 10-200M through here).
      expect(leafSeen * perMatch).toBeLessThanOrEqual(5 * (1 << 20) + 5 * perMatch);
      expect(leafSeen).toBeGreaterThanOrEqual(1); // the budget passed inside the big directory
      expect(leafSeen).toBeLessThan(256);
    });
  });
});

describe('the signal in the sync walk', () => {
  it('a signal aborted during the sync walk (here by the fs) stops it before the next read', () => {
    const controller = new AbortController();
    const tree: Tree = { a: { 'a.txt': '' }, b: { 'b.txt': '' }, c: { 'c.txt': '' } };
    let reads = 0;
    const fs = faultyFs(asFs(buildVolume(tree)), { beforeReaddir: () => void (++reads === 2 && controller.abort()) });
    const result = findFilesSync({ root: ROOT, platform: 'posix', pattern: '*', fs, signal: controller.signal, clock: new FakeClock() });
    expect(result).toMatchObject({ matches: ['a/a.txt'], complete: false, incompleteReasons: ['aborted'] });
    expect(fs.calls.filter((c) => c.call === 'readdir')).toHaveLength(2);
  });
});

/** faultyFs over `tree`, with the volume's readFile for ignore files. */
function fsOver(tree: Tree, faults: Parameters<typeof faultyFs>[1] = {}) {
  const vol = buildVolume(tree);
  const base = asFs(vol) as Required<FsLike>;
  const fs = faultyFs(base, faults);
  return Object.assign(fs, { readFile: base.readFile.bind(vol), readFileSync: base.readFileSync.bind(vol) });
}

const over = (fs: FsLike, extra: Partial<FindOptions> = {}) => () => ({ root: ROOT, platform: 'posix', pattern: '*', fs, clock: new FakeClock(), ...extra }) as FindOptions;

describe('entries typed by lstat (an fs that gives no types)', () => {
  it('a peek at the depth limit lstats its entries: what could match beyond is a gap, what could not is none', async () => {
    const deep = fsOver({ d: { 'deep.txt': '' } }, { untyped: true });
    expect(await findAll(over(deep, { pattern: '*.txt', maxDepth: 1 }))).toMatchObject({ matches: [], skipped: [], complete: false, incompleteReasons: ['depth-limit'] });
    const other = fsOver({ d: { 'deep.log': '' } }, { untyped: true });
    expect(await findAll(over(other, { pattern: '*.txt', maxDepth: 1 }))).toMatchObject({ matches: [], skipped: [], complete: true });
  });

  it('counts an excluded and an ignored file once each', async () => {
    const fs = fsOver({ '.ignore': 'c.txt\n', 'a.txt': '', 'b.log': '', 'c.txt': '' }, { untyped: true });
    expect(await findAll(over(fs, { pattern: '*.*', exclude: ['*.log'], gitignore: true, hidden: false }))).toMatchObject({ matches: ['a.txt'], excludedCount: 1, ignoredCount: 1, complete: true });
  });
});

describe('links and directories as matches', () => {
  it('an ignored link is counted as ignored, an excluded one as excluded', async () => {
    const fs = fsOver({ '.ignore': 'lnk\n', lnk: { link: '/nowhere' }, other: { link: '/nowhere' } });
    expect(await findAll(over(fs, { pattern: '*', type: 'symlink', gitignore: true, hidden: false, exclude: ['other'] }))).toMatchObject({ matches: [], excludedCount: 1, ignoredCount: 1 });
  });

  it('names links in sorted order, not in the order the walk met them', async () => {
    const fs = fsOver({ zlnk: { link: '/nowhere' }, zdir: { link: '/root/a' }, a: { alnk: { link: '/nowhere' }, 'x.txt': '', adir: { link: '/root/a' } } });
    const named = await findFiles(over(fs, { pattern: '{*lnk,**/*.txt}' })());
    expect(named.linkMatches).toEqual(['a/alnk', 'zlnk']);
    expect(named.linksOnTheWay).toEqual(['a/adir', 'zdir']);
  });

  it('a directory or link that matches is taken from its listing: no lstat unless a filter needs its metadata, and then no stray one', async () => {
    const tree: Tree = { dir: {}, lnk: { link: '/nowhere' } };
    for (const type of ['directory', 'symlink'] as const) {
      const plain = fsOver(tree);
      expect((await findFiles(over(plain, { type })())).matchedCount).toBe(1);
      expect(plain.calls.filter((c) => c.call !== 'readdir')).toEqual([]);
      const filtered = fsOver(tree);
      expect(await findAll(over(filtered, { type, modifiedAfter: 0 }))).toMatchObject({ matchedCount: 1, skipped: [], complete: true });
    }
  });
});

describe('where the walk stops', () => {
  it('at the result limit, the rest of the directory is not looked at', () => {
    const fs = fsOver({ 'a.txt': '', 'b.txt': '', 'c.log': '', 'd.txt': '', 'e.log': '' });
    const result = findFilesSync(over(fs, { pattern: '*.txt', exclude: ['*.log'], maxResults: 1 })());
    expect(result).toMatchObject({ matches: ['a.txt'], excludedCount: 0, incompleteReasons: ['result-limit'], stats: { entriesSeen: 1 } });
  });

  it('an lstat answer that comes after the result limit stopped the walk is not judged', async () => {
    const fs = fsOver({ 'a.txt': '', 'b.txt': '', 'c.txt': '' }, { untyped: true, lstat: { [`${ROOT}/c.txt`]: 'EACCES' } });
    expect(await findAll(over(fs, { pattern: '*.txt', maxResults: 1 }))).toMatchObject({ matches: ['a.txt'], skipped: [], incompleteReasons: ['result-limit'] });
  });

  it('a directory at the limit that vanished is no gap', async () => {
    const fs = fsOver({ 'a.txt': '', d: { 'b.txt': '' } }, { readdir: { [`${ROOT}/d/`]: 'ENOENT' } });
    expect(await findAll(over(fs, { maxDepth: 1 }))).toMatchObject({ matches: ['a.txt'], skipped: [], complete: true });
  });
});
