/**
 * Boolean options given values that are not booleans (`dot: 1`, `onlyFiles: 0`, `nocase: null`):
 * both peers read truthiness, with the default for `undefined` only. Each option, each value, each
 * pattern through the adapter and the real peer on one tree, sorted arrays compared. (The adapters
 * once compared with `=== true` / `!== false`: `dot: 1` hid `.env`, `nodir: 1` kept directories.)
 */
import * as nodeGlob from 'glob';
import * as tinyglobby from 'tinyglobby';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { glob as ourGlob, globSync as ourGlobSync, type GlobOptions as NodeGlobOptions, type GlobOptionsWithFileTypesFalse } from '../../src/compat/glob.js';
import { glob as ourTiny, globSync as ourTinySync, type GlobOptions as TinyOptions } from '../../src/compat/tinyglobby.js';
import { buildTree, removeTree, sorted } from './tree.js';

const TREE = ['.env', 'README.md', 'src/a.js', 'src/.b.js', 'Docs/x.md', 'empty/'];
const VALUES: unknown[] = [undefined, null, 0, 1, '', 'yes', false, true, Number.NaN, [], {}];
const PATTERNS = ['*', '**', 'README.MD', 'src', 'src/*', 'docs/**'];

let root: string;
beforeAll(() => {
  root = buildTree(TREE);
});
afterAll(() => removeTree(root));

type Call = (options: Record<string, unknown>) => Promise<unknown[]> | unknown[];

/** Each option at each value over each pattern: the first ten differences, and how many paths the peer returned in all. */
async function compare(options: readonly string[], peer: (pattern: string) => Call, ours: (pattern: string) => Call[]): Promise<{ failures: string[]; found: number }> {
  const failures: string[] = [];
  let found = 0;
  for (const option of options) {
    for (const value of VALUES) {
      for (const pattern of PATTERNS) {
        const full = { cwd: root, [option]: value };
        const theirs = sorted((await peer(pattern)(full)).map(String));
        found += theirs.length;
        for (const call of ours(pattern)) {
          const got = sorted((await call(full)).map(String));
          if (JSON.stringify(got) !== JSON.stringify(theirs)) failures.push(`${pattern} {${option}: ${JSON.stringify(value) ?? 'undefined'}}: ours ${JSON.stringify(got)}, peer ${JSON.stringify(theirs)}`);
        }
      }
    }
  }
  return { failures: failures.slice(0, 10), found };
}

describe('find-file/glob reads boolean options by truthiness, as node-glob', () => {
  it(`dot, nodir, nocase, absolute, stat: ${VALUES.length} values x ${PATTERNS.length} patterns, async and sync`, async () => {
    const { failures, found } = await compare(
      ['dot', 'nodir', 'nocase', 'absolute', 'stat'],
      (p) => (o) => nodeGlob.glob(p, o as nodeGlob.GlobOptionsWithFileTypesFalse),
      (p) => [(o) => ourGlob(p, o as NodeGlobOptions), (o) => ourGlobSync(p, o as NodeGlobOptions)],
    );
    expect(failures).toEqual([]);
    expect(found).toBeGreaterThan(300);
  });

  it('withFileTypes: any truthy value returns entries, as node-glob', async () => {
    const rel = (entries: unknown[]) => sorted(entries.map((e) => (typeof e === 'string' ? `string:${e}` : (e as { relativePosix(): string }).relativePosix())));
    for (const value of VALUES) {
      const full = { cwd: root, withFileTypes: value } as NodeGlobOptions;
      expect(rel(await ourGlob('**', full)), JSON.stringify(value)).toEqual(rel(await nodeGlob.glob('**', full as nodeGlob.GlobOptions)));
    }
  });

  it('follow: a falsy value is accepted as no following, a truthy one refused', async () => {
    for (const value of VALUES) {
      const full = { cwd: root, follow: value } as GlobOptionsWithFileTypesFalse;
      if (value) expect(() => ourGlobSync('*', full)).toThrow(expect.objectContaining({ code: 'FF_INVALID_OPTION' }));
      else expect(sorted(ourGlobSync('*', full))).toEqual(sorted(await nodeGlob.glob('*', full as nodeGlob.GlobOptionsWithFileTypesFalse)));
    }
  });
});

describe('find-file/tinyglobby reads boolean options by truthiness, as tinyglobby', () => {
  it(`dot, onlyFiles, onlyDirectories, absolute, caseSensitiveMatch, expandDirectories: ${VALUES.length} values x ${PATTERNS.length} patterns, async and sync`, async () => {
    const { failures, found } = await compare(
      ['dot', 'onlyFiles', 'onlyDirectories', 'absolute', 'caseSensitiveMatch', 'expandDirectories'],
      (p) => (o) => tinyglobby.glob(p, o as tinyglobby.GlobOptions),
      (p) => [(o) => ourTiny(p, o as TinyOptions), (o) => ourTinySync(p, o as TinyOptions)],
    );
    expect(failures).toEqual([]);
    expect(found).toBeGreaterThan(300);
  });

  it('followSymbolicLinks: a falsy value is accepted as no following (the tree has no link), a truthy one refused', async () => {
    for (const value of VALUES) {
      const full = { cwd: root, followSymbolicLinks: value } as TinyOptions;
      if (value) expect(() => ourTinySync('**', full)).toThrow(expect.objectContaining({ code: 'FF_INVALID_OPTION' }));
      else expect(sorted(ourTinySync('**', full))).toEqual(sorted(await tinyglobby.glob('**', full as tinyglobby.GlobOptions)));
    }
  });
});

/**
 * Patterns and ignores that are not strings: where the peer answers sanely (falsy `ignore`, falsy
 * list entries tinyglobby skips) the answer is the peer's; elsewhere a `FindFileError` naming the
 * option and index, where the peers throw a bare `TypeError` (or read `[5]` as `5/**`, or a number
 * as the older options form: docs/compat.md). `glob(undefined, { cwd })` once listed process.cwd().
 */
describe('values that are not globs: the peer answer, or a refusal that names the option', () => {
  type Case = [value: unknown, expected: 'same' | `FF_${string}`, option?: string];
  const SAME = 'same';

  async function check(cases: readonly Case[], peer: (value: unknown) => Promise<unknown[]>, ours: (value: unknown) => Promise<unknown[]>, oursSync: (value: unknown) => unknown[]): Promise<string[]> {
    const failures: string[] = [];
    for (const [value, expected, option] of cases) {
      const label = JSON.stringify(value) ?? 'undefined';
      if (expected === SAME) {
        const theirs = sorted((await peer(value)).map(String));
        for (const got of [await ours(value), oursSync(value)]) if (JSON.stringify(sorted(got.map(String))) !== JSON.stringify(theirs)) failures.push(`${label}: ours ${JSON.stringify(got)}, peer ${JSON.stringify(theirs)}`);
        continue;
      }
      const want = { name: 'FindFileError', code: expected, option };
      for (const run of [() => ours(value), async () => oursSync(value)]) {
        const error = await run().then(() => undefined, (e: unknown) => e as { name?: string; code?: string; option?: string });
        if (error?.name !== want.name || error.code !== want.code || error.option !== want.option) failures.push(`${label}: expected ${JSON.stringify(want)}, got ${JSON.stringify(error && { name: error.name, code: error.code, option: error.option })}`);
      }
    }
    return failures;
  }

  it('node-glob ignore: any falsy value is none, as node-glob; an object with no hooks ignores nothing, as there; a number refused; a non-string entry refused by index (node-glob: TypeError)', async () => {
    const cases: Case[] = [[undefined, SAME], [null, SAME], [false, SAME], [0, SAME], ['', SAME], [[''], SAME], [['src/**'], SAME], [5, 'FF_INVALID_OPTION', 'ignore'], [{}, SAME], [[5], 'FF_INVALID_PATTERN', 'ignore[0]'], [['src/**', null], 'FF_INVALID_PATTERN', 'ignore[1]'], [[false], 'FF_INVALID_PATTERN', 'ignore[0]']];
    for (const [value, expected] of cases) if (expected === 'FF_INVALID_PATTERN') await expect(nodeGlob.glob('**', { cwd: root, ignore: value as string[] })).rejects.toThrow(TypeError);
    const options = (value: unknown) => ({ cwd: root, ignore: value }) as GlobOptionsWithFileTypesFalse;
    expect(await check(cases, (v) => nodeGlob.glob('**', options(v) as nodeGlob.GlobOptionsWithFileTypesFalse), (v) => ourGlob('**', options(v)), (v) => ourGlobSync('**', options(v)))).toEqual([]);
  });

  it('node-glob pattern: anything but a string or an array of strings refused (node-glob: TypeError)', async () => {
    const cases: Case[] = [[undefined, 'FF_INVALID_PATTERN', 'pattern'], [null, 'FF_INVALID_PATTERN', 'pattern'], [5, 'FF_INVALID_PATTERN', 'pattern'], [false, 'FF_INVALID_PATTERN', 'pattern'], [{}, 'FF_INVALID_PATTERN', 'pattern'], [[5], 'FF_INVALID_PATTERN', 'pattern[0]'], [['*', null], 'FF_INVALID_PATTERN', 'pattern[1]'], [[''], SAME], ['', SAME]];
    for (const [value, expected] of cases) if (expected !== SAME) await expect(nodeGlob.glob(value as string, { cwd: root })).rejects.toThrow(TypeError);
    expect(await check(cases, (v) => nodeGlob.glob(v as string, { cwd: root }), (v) => ourGlob(v as string, { cwd: root }), (v) => ourGlobSync(v as string, { cwd: root }))).toEqual([]);
  });

  it('tinyglobby ignore: null and falsy entries are none, as tinyglobby; a value it cannot iterate refused (tinyglobby: TypeError); a number entry refused (tinyglobby reads [5] as 5/**)', async () => {
    const cases: Case[] = [[undefined, SAME], [null, SAME], ['', SAME], [[''], SAME], [[null], SAME], [[false, 0], SAME], [['src/**', undefined], SAME], [false, 'FF_INVALID_OPTION', 'ignore'], [0, 'FF_INVALID_OPTION', 'ignore'], [5, 'FF_INVALID_OPTION', 'ignore'], [{}, 'FF_INVALID_OPTION', 'ignore'], [[5], 'FF_INVALID_PATTERN', 'ignore[0]'], [['src/**', {}], 'FF_INVALID_PATTERN', 'ignore[1]']];
    for (const [value, expected] of cases) if (expected === 'FF_INVALID_OPTION') await expect(tinyglobby.glob('**', { cwd: root, ignore: value as string[] })).rejects.toThrow(TypeError);
    const options = (value: unknown) => ({ cwd: root, ignore: value }) as TinyOptions;
    expect(await check(cases, (v) => tinyglobby.glob('**', options(v) as tinyglobby.GlobOptions), (v) => ourTiny('**', options(v)), (v) => ourTinySync('**', options(v)))).toEqual([]);
  });

  it('tinyglobby patterns: undefined and null refused, as tinyglobby throws (not read as glob(options), which listed process.cwd()); falsy entries skipped, as tinyglobby', async () => {
    const cases: Case[] = [[undefined, 'FF_INVALID_PATTERN', 'patterns'], [null, 'FF_INVALID_PATTERN', 'patterns'], [5, 'FF_INVALID_PATTERN', 'patterns'], [false, 'FF_INVALID_PATTERN', 'patterns'], [[null], SAME], [[false, ''], SAME], [['src/*', null], SAME], [[5], 'FF_INVALID_PATTERN', 'patterns[0]'], [['src/*', {}], 'FF_INVALID_PATTERN', 'patterns[1]']];
    for (const value of [undefined, null]) {
      await expect(tinyglobby.glob(value as unknown as string, { cwd: root })).rejects.toThrow(TypeError);
      expect(() => tinyglobby.globSync(value as unknown as string, { cwd: root })).toThrow(TypeError);
    }
    expect(await check(cases, (v) => tinyglobby.glob(v as string[], { cwd: root }), (v) => ourTiny(v as string[], { cwd: root }), (v) => ourTinySync(v as string[], { cwd: root }))).toEqual([]);
    // The older form: `patterns: null` is tinyglobby's default `**/*`; an entry that is not a string refused by index.
    expect(sorted(await ourTiny({ cwd: root, patterns: null } as unknown as TinyOptions))).toEqual(sorted(await tinyglobby.glob({ cwd: root, patterns: null } as unknown as tinyglobby.GlobOptions)));
    expect(() => ourTinySync({ cwd: root, patterns: [5] } as unknown as TinyOptions)).toThrow(expect.objectContaining({ code: 'FF_INVALID_PATTERN', option: 'patterns[0]' }));
  });
});
