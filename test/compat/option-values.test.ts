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
