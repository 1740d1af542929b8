/**
 * `nameRegex` and the content query under one bound (src/re2.ts): a regex is sized before it is
 * compiled (`re2Size`: counted repeats written out), refused past the limit, and a name test's
 * cost counts toward the walk's work checks. Before, 10 entries of `(?:a?){1000}`×600 compiled for
 * 10-21 s before the walk began, and a costly regex over 600 names ran 18 s past a 500 ms budget
 * (a fixed cost of 8 whatever the regex: the clock was read every 256 entries).
 */
import { describe, expect, it } from 'vitest';
import { findFiles, findFilesStream, findFilesSync, searchContent, type DirentLike, type FsLike } from '../../src/index.js';
import { MAX_NAME_REGEX_SIZE } from '../../src/plan/name.js';
import { MAX_RE2_SIZE, re2Size } from '../../src/re2.js';
import { FakeClock } from '../helpers/memfs.js';

function dirent(name: string): DirentLike {
  const no = () => false;
  return { name, isFile: () => true, isDirectory: no, isSymbolicLink: no, isFIFO: no, isSocket: no, isBlockDevice: no, isCharacterDevice: no };
}

/** One directory of `count` files named `b`×200 and a number; every read of the clock advances it 1 ms. */
function setup(count: number) {
  const entries = Array.from({ length: count }, (_, i) => dirent('b'.repeat(200) + i));
  const fs: FsLike = {
    readdir: (_p, _o, cb) => setImmediate(() => cb(null, entries)),
    readdirSync: () => entries,
    lstat: () => { throw new Error('not needed'); },
    lstatSync: () => { throw new Error('not needed'); },
  };
  const clock = new FakeClock();
  const ticking = { now: () => (clock.advance(1), clock.now()) };
  return { fs, clock: ticking };
}

describe('re2Size writes counted repeats out, as RE2 does', () => {
  const cases: [string, number][] = [
    ['abc', 3], ['a{1000}', 1000], ['(?:a?){1000}', 3000], ['(?i)abc', 3], ['[a-z]{10}', 10], ['\\pL{10}', 10], ['\\p{Greek}{10}', 10],
    ['\\Q{1000}\\E', 6], ['(?:(?:a{10}){10}){10}', 1110], ['[]{]{5}', 5], ['a{,5}', 5],
  ];
  for (const [source, size] of cases) it(`${source} is about ${size}`, () => expect(re2Size(source)).toBe(size));

  it('grows with each copy of a counted repeat (the shape of the adversarial run)', () => {
    for (const copies of [1, 2, 10, 100, 600]) expect(re2Size('(?:a?){1000}'.repeat(copies))).toBe(3000 * copies);
  });
});

describe('nameRegex past its size limit is refused before any I/O, on every form', () => {
  const neverRead: FsLike = {
    readdir: () => { throw new Error('read'); },
    readdirSync: () => { throw new Error('read'); },
    lstat: () => { throw new Error('read'); },
    lstatSync: () => { throw new Error('read'); },
  };
  const within = 'a{1000}'.repeat(MAX_NAME_REGEX_SIZE / 1000);
  const shapes: [string, string | string[]][] = [
    ['one regex one unit over', within + 'x'],
    ['entries that pass alone but not together', [within.slice(0, within.length / 2), within.slice(0, within.length / 2) + 'x']],
    ['the adversarial run: 10 entries of (?:a?){1000}x600', Array.from({ length: 10 }, (_, i) => '(?:a?){1000}'.repeat(600) + 'x' + i)],
  ];
  for (const [name, nameRegex] of shapes) {
    it(name, async () => {
      const options = { root: '/r', platform: 'posix' as const, pattern: '*', nameRegex, fs: neverRead };
      const refusal = expect.objectContaining({ code: 'FF_INVALID_OPTION', option: expect.stringContaining('nameRegex'), message: expect.stringContaining(`over the limit of ${MAX_NAME_REGEX_SIZE.toLocaleString('en-US')}`) });
      expect(() => findFilesSync(options)).toThrow(refusal);
      await expect(findFiles(options)).rejects.toThrow(refusal);
      expect(() => findFilesStream(options)).toThrow(refusal);
    });
  }

  it('at the limit it is compiled and used', () => {
    const { fs } = setup(3);
    expect(findFilesSync({ root: '/r', platform: 'posix', pattern: '*', nameRegex: within, fs })).toMatchObject({ complete: true, matchedCount: 0 });
    expect(findFilesSync({ root: '/r', platform: 'posix', pattern: '*', nameRegex: [within.slice(0, 70), 'b{200}1$'], fs })).toMatchObject({ complete: true, matchedCount: 0 });
    expect(findFilesSync({ root: '/r', platform: 'posix', pattern: '*', nameRegex: 'b{200}1$', fs })).toMatchObject({ complete: true, matchedCount: 1 });
  });

  it('the content query shares the bound (MAX_RE2_SIZE, with the query\'s own code)', async () => {
    const query = 'a{1000}'.repeat(MAX_RE2_SIZE / 1000) + 'x';
    await expect(searchContent({ root: '/r', platform: 'posix', query, mode: 'regex', backend: 'walker', fs: neverRead })).rejects.toThrow(
      expect.objectContaining({ code: 'FF_INVALID_QUERY', message: expect.stringContaining(`over the limit of ${MAX_RE2_SIZE.toLocaleString('en-US')}`) }),
    );
  });
});

describe("a name test's cost counts toward the walk's checks", () => {
  // Cheap to run over names of `b` (every thread dies at once), dear by size: what the walk must count.
  const dear = 'a{1000}'.repeat(15);
  for (const form of ['sync', 'async', 'stream'] as const) {
    it(`${form}: 2,000 names of 200 characters against a regex of 15,000 units stop at the budget`, async () => {
      const { fs, clock } = setup(2000);
      const options = { root: '/r', platform: 'posix' as const, pattern: '*', nameRegex: dear, fs, clock, timeBudgetMs: 100 };
      let result;
      if (form === 'sync') result = findFilesSync(options);
      else if (form === 'async') result = await findFiles(options);
      else {
        const stream = findFilesStream(options);
        for await (const _ of stream) void _;
        result = await stream.summary;
      }
      // Every entry is over a check's worth of work: the clock is read per entry, and the budget
      // (100 reads) ends the walk long before the 2,000th name. A fixed cost read it every 256.
      expect(result).toMatchObject({ complete: false, incompleteReasons: ['time-budget'] });
      expect(result.stats.entriesSeen).toBeLessThan(256);
    });
  }

  it('a cheap regex keeps the cheap checks (every 256 entries): the count is by size', () => {
    const { fs, clock } = setup(2000);
    const result = findFilesSync({ root: '/r', platform: 'posix', pattern: '*', nameRegex: 'x', fs, clock, timeBudgetMs: 100 });
    expect(result).toMatchObject({ complete: true, matchedCount: 0 });
  });
});
