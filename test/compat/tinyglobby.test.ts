/**
 * find-file/tinyglobby against the real tinyglobby (a devDependency) on the same real-disk trees:
 * the same paths in the same form, compared as sorted arrays (tinyglobby's order is its crawl
 * order, not defined; ours is sorted by path). Links are not in these trees: never following them
 * is a documented deviation (docs/compat.md), pinned on its own below.
 */
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as peer from 'tinyglobby';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { glob, globSync, type GlobOptions } from '../../src/compat/tinyglobby.js';
import { buildUndecodableTree } from '../helpers/names.js';
import { itIf, linux, posixOnly } from '../helpers/skip-why.js';
import { PROJECT, buildTree, removeTree, sorted } from './tree.js';
import { Rng } from '../conformance/generate.js';

let root: string;
beforeAll(() => {
  root = buildTree(PROJECT);
});
afterAll(() => removeTree(root));

async function both(patterns: string | string[], options: GlobOptions = {}): Promise<{ ours: string[]; theirs: string[] }> {
  const full = { cwd: root, ...options };
  const theirs = sorted(await peer.glob(patterns, full as peer.GlobOptions));
  const ours = await glob(patterns, full);
  expect(sorted(globSync(patterns, full)), 'sync form').toEqual(sorted(ours));
  return { ours: sorted(ours), theirs };
}

describe('find-file/tinyglobby: the three ports of issue 29 give the same arrays as tinyglobby', () => {
  it("{ cwd, ignore: ['**/node_modules/**'], dot: false }", async () => {
    const { ours, theirs } = await both('**/*.js', { ignore: ['**/node_modules/**'], dot: false });
    expect(theirs).toContain('src/lib/c.js');
    expect(ours).toEqual(theirs);
  });

  it("['src/**/*.js', '!**/*.test.js'] with absolute", async () => {
    const { ours, theirs } = await both(['src/**/*.js', '!**/*.test.js'], { absolute: true });
    expect(theirs).toContain(join(root, 'src/lib/c.js'));
    expect(ours).toEqual(theirs);
  });

  it('onlyDirectories', async () => {
    const { ours, theirs } = await both('**', { onlyDirectories: true });
    expect(theirs).toContain('src/lib/');
    expect(ours).toEqual(theirs);
  });

  it('dot: false where a pattern names a dot folder: its files, and no dot name a wildcard would match', async () => {
    const { ours, theirs } = await both(['.github/**', 'src/**/*.js', '{.eslintrc.js,index.js}'], { dot: false });
    expect(theirs).toEqual(['.eslintrc.js', '.github/workflows/ci.yml', 'index.js', 'src/a.js', 'src/a.test.js', 'src/lib/c.js', 'src/lib/c.test.js']);
    expect(ours).toEqual(theirs);
  });

  it('dot: false with a / inside a group (one segment to bash and picomatch): the other alternative still matches, and no dot folder is entered', async () => {
    const { ours, theirs } = await both(['@(.github/x|index.js)', 'src/@(.lib/x|a.js)'], { dot: false });
    expect(theirs).toEqual(['index.js', 'src/a.js']);
    expect(ours).toEqual(theirs);
  });

  it('a slash-less *.js is top level only, as in tinyglobby (find-file alone matches it at any depth)', async () => {
    const { ours, theirs } = await both('*.js');
    expect(theirs).toEqual(['index.js']);
    expect(ours).toEqual(theirs);
  });
});

describe('find-file/tinyglobby: the verdict rides on the array', () => {
  it('carries the FindResult as a non-enumerable result, so the array still equals the peer one', async () => {
    const paths = await glob('src/*.js', { cwd: root });
    expect(paths.result.complete).toBe(true);
    expect(paths.result.matches).toEqual(['src/a.js', 'src/a.test.js']);
    expect(Object.keys(paths)).toEqual(['0', '1']);
    expect(JSON.stringify(paths)).toBe('["src/a.js","src/a.test.js"]');
  });

  it('answers an absolute pattern inside cwd as tinyglobby does (relative paths); refuses one inside a brace set, never reading it as relative', async () => {
    const pattern = `${peer.escapePath(root)}/src/*.js`;
    expect(sorted(await glob(pattern, { cwd: root }))).toEqual(sorted(await peer.glob(pattern, { cwd: root })));
    expect((await glob(pattern, { cwd: root })).length).toBeGreaterThan(0);
    await expect(glob(`{${root}/src/*.js,*.json}`, { cwd: root })).rejects.toMatchObject({ code: 'FF_PATTERN_OUTSIDE_ROOT' });
  });

  it('[] and only negations match nothing, complete once cwd was read', async () => {
    for (const patterns of [[], ['!*.js']]) {
      const ours = await glob(patterns, { cwd: root });
      expect([...ours]).toEqual([]);
      expect(await peer.glob(patterns, { cwd: root })).toEqual([]);
      expect(ours.result.complete).toBe(true);
    }
  });

  it('a cwd that does not exist rejects with ENOENT, where tinyglobby returns [] (docs/compat.md)', async () => {
    const missing = join(root, 'no-such-dir');
    expect(await peer.glob('**', { cwd: missing })).toEqual([]);
    await expect(glob('**', { cwd: missing })).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('an aborted signal returns what was found, as tinyglobby does, and result says aborted', async () => {
    const paths = await glob('**', { cwd: root, signal: AbortSignal.abort() });
    expect(paths.result.complete).toBe(false);
    expect(paths.result.incompleteReasons).toContain('aborted');
  });

  it('takes cwd as a file: URL', async () => {
    expect(sorted(await glob('src/*.ts', { cwd: pathToFileURL(root) }))).toEqual(['src/b.ts']);
  });

  it('refuses followSymbolicLinks: true and an unknown option, before any I/O', async () => {
    await expect(glob('**', { cwd: root, followSymbolicLinks: true })).rejects.toMatchObject({ code: 'FF_INVALID_OPTION' });
    expect(() => globSync('**', { cwd: root, fs: {} } as GlobOptions)).toThrow(expect.objectContaining({ code: 'FF_UNKNOWN_OPTION' }));
    expect(() => globSync('a/*.txt', { cwd: root, patterns: 'whoops!' })).toThrow(expect.objectContaining({ code: 'FF_INVALID_OPTION' }));
    expect(() => peer.globSync('a/*.txt', { cwd: root, patterns: 'whoops!' } as peer.GlobOptions)).toThrow();
  });

  it('never follows a link: a linked file and a linked directory are not returned (tinyglobby with followSymbolicLinks: false does the same)', async () => {
    const tree = buildTree(['real/x.js']);
    try {
      symlinkSync('real', join(tree, 'dir-link'));
      symlinkSync('real/x.js', join(tree, 'file-link.js'));
      const ours = sorted(await glob('**', { cwd: tree, onlyFiles: false }));
      expect(ours).toEqual(['real/', 'real/x.js']);
      expect(ours).toEqual(sorted(await peer.glob('**', { cwd: tree, onlyFiles: false, followSymbolicLinks: false })));
    } finally {
      removeTree(tree);
    }
  });
});

describe('find-file/tinyglobby: the honest verdict where the peer answers silently (a documented deviation)', () => {
  itIf(linux('names that are not UTF-8 are a Linux case'))(posixOnly('a folder that cannot be opened: tinyglobby drops what is in it without a word; the array leaves out what no one can open, and result says complete: false and names both', 'names that are not UTF-8 are a Linux case'), async () => {
    const dir = buildUndecodableTree('ff-compat-bytes-');
    try {
      const theirs = sorted(await peer.glob('**', { cwd: dir }));
      const ours = await glob('**', { cwd: dir });
      expect(theirs).toContain('f\uFFFD.txt'); // a path that cannot be opened, returned as if it could
      expect(theirs.some((p) => p.includes('in.txt'))).toBe(false); // the folder's file, dropped in silence
      expect(sorted(ours)).toEqual(['ok.txt', 'real-\uFFFD.txt']);
      expect(ours.result.complete).toBe(false);
      expect(ours.result.skipped.map((s) => s.path)).toEqual(expect.arrayContaining(['bad\uFFFD', 'f\uFFFD.txt']));
    } finally {
      removeTree(dir);
    }
  });
});

describe('brackets as picomatch reads them: the set, or its own text (Next.js routes)', () => {
  // An adversarial run: `app/[id]/*` found nothing, complete, where tinyglobby returns
  // `app/[id]/page.tsx`. picomatch lets `[id]` match `i`, `d` or the text `[id]` itself, when the
  // set holds no regex character; a family of such patterns against the real tinyglobby.
  const ROUTES = ['app/[id]/page.tsx', 'app/[slug]/[id].tsx', 'app/i/x.tsx', 'app/d/page.tsx', 'app/s/y.tsx', 'pages/[...all].tsx', 'pages/a.tsx', 'a[b].js', 'ab.js', 'x[a-c].md', 'xb.md'];
  let routes: string;
  beforeAll(() => {
    routes = buildTree(ROUTES);
  });
  afterAll(() => removeTree(routes));

  const SETS = ['[id]', '[slug]', '[i]', '[d]', '[b]', '[a-c]', '[!x]', '[...all]', '[s]'];
  const SHAPES = (set: string) => [`app/${set}/*`, `app/${set}/page.tsx`, `app/${set}`, `**/${set}/*`, `app/*/${set}.tsx`, `a${set}.js`, `x${set}.md`, `pages/${set}.tsx`, `app/${set}/*.tsx`, `**/${set}*`];
  const patterns = SETS.flatMap(SHAPES);

  it(`${patterns.length} patterns: the same files as tinyglobby, the literal route among them where picomatch reads it so`, async () => {
    const failures: string[] = [];
    let literalHits = 0;
    for (const pattern of patterns) {
      const theirs = sorted(await peer.glob(pattern, { cwd: routes }));
      const ours = sorted(await glob(pattern, { cwd: routes }));
      // find-file's own rule, more never less (docs/compat.md): a pattern whose text names a path also matches it (`x[a-c].md`).
      const extra = ours.filter((path) => !theirs.includes(path));
      if (extra.length === 1 && extra[0] === pattern && theirs.every((path) => ours.includes(path))) continue;
      if (JSON.stringify(ours) !== JSON.stringify(theirs)) failures.push(`${pattern}: ours ${JSON.stringify(ours)}, tinyglobby ${JSON.stringify(theirs)}`);
      if (theirs.some((path) => path.includes('['))) literalHits++;
    }
    expect(failures).toEqual([]);
    // The family holds the shape it is about: answers that name a bracketed path literally.
    expect(literalHits).toBeGreaterThanOrEqual(10);
  });
});

/** Each pattern through tinyglobby and the adapter (async and sync) in `cwd`: the first ten differences, and how many files tinyglobby found in all. */
async function compareWithTinyglobby(patterns: readonly string[], cwd: string): Promise<{ failures: string[]; found: number }> {
  const failures: string[] = [];
  let found = 0;
  for (const pattern of patterns) {
    const theirs = sorted(await peer.glob(pattern, { cwd }));
    const ours = sorted(await glob(pattern, { cwd }));
    const oursSync = sorted(globSync(pattern, { cwd }));
    if (JSON.stringify(ours) !== JSON.stringify(theirs)) failures.push(`${pattern}: ours ${JSON.stringify(ours)}, tinyglobby ${JSON.stringify(theirs)}`);
    if (JSON.stringify(oursSync) !== JSON.stringify(ours)) failures.push(`${pattern}: globSync ${JSON.stringify(oursSync)}, glob ${JSON.stringify(ours)}`);
    found += theirs.length;
  }
  return { failures: failures.slice(0, 10), found };
}

describe.skipIf(process.platform === 'win32')(posixOnly('POSIX classes: the same files as tinyglobby, on names of punctuation', 'names such as `|` and `:` cannot be made on Windows'), () => {
  // `[[:digit:]]*` once returned `@`, `(x`, `|`: the literal-bracket rewrite read the class's own
  // brackets as a set of plain characters, and wrapped `@(`...`|`...`)` inside the outer set.
  const CHARS = ['@', '|', '(', ')', '!', '#', '%', '&', '+', ',', '-', ';', '=', '~', '_', '^', '$', "'", '[', ']', '{', '}', ':', ' ', 'a', 'z', 'A', 'Z', '0', '9', 'f', 'G'];
  const NAMES = [...new Set(CHARS.flatMap((c) => [c, `x${c}`, `${c}x`, `${c}1`, `A${c}`]))];
  const CLASSES = ['[:alpha:]', '[:digit:]', '[:upper:]', '[:lower:]', '[:alnum:]', '[:space:]', '[:punct:]', '[:xdigit:]', '[:blank:]'];
  const SETS = CLASSES.flatMap((c) => [`[${c}]`, `[!${c}]`, `[a${c}]`, `[${c}_]`, `[!x${c}]`, `[${c}${c === '[:digit:]' ? '[:upper:]' : '[:digit:]'}]`]);
  const SHAPES = (set: string) => [`${set}*`, `*${set}`, `x${set}`, `${set}x`, `${set}1`, `A${set}`, `?${set}`, `${set}`];
  const patterns = SETS.flatMap(SHAPES);
  let names: string;
  beforeAll(() => {
    names = buildTree(NAMES);
  });
  afterAll(() => removeTree(names));

  it(`${patterns.length} patterns over ${NAMES.length} names: the same arrays as tinyglobby, sync and async`, async () => {
    const { failures, found } = await compareWithTinyglobby(patterns, names);
    expect(failures).toEqual([]);
    expect(found).toBeGreaterThan(patterns.length); // the family is about matches, not only empty answers
  });
});

describe.skipIf(process.platform === 'win32')(posixOnly('escapes and `${`: the same files as tinyglobby', 'on Windows `\\` is a separator'), () => {
  // `\a` was read as a Windows root and left unanchored, so it matched `d/a` too; `${a,b}` was no
  // set (bash's reading) where picomatch expands it (an adversarial run).
  const NAMES = ['a', 'ab', '$a', '$b', '$$a', 'x.js', '*', '{a}', 'd/a', 'd/ab', 'd/$a', 'd/x.js', 'd/$b'];
  const TOKENS = ['\\a', '\\$', '$', '{a,b}', '{\\a,x.js}', 'a', '*', '\\*', 'x.js', 'd/', '\\{', '}', '{$a,\\$b}', 'b'];
  const rng = new Rng(20261206);
  const generated = new Set<string>(['\\a', '\\a*', '\\$a', '\\${a,b}', '{\\a,x.js}', '{$a,\\$b}', '${a,b}', 'd/${a,b}', '$${a,b}', 'd/\\a*']);
  while (generated.size < 150) generated.add(Array.from({ length: rng.range(1, 4) }, () => rng.pick(TOKENS)).join(''));
  const patterns = [...generated];
  let names: string;
  beforeAll(() => {
    names = buildTree(NAMES);
  });
  afterAll(() => removeTree(names));

  it(`${patterns.length} patterns: the same arrays as tinyglobby, sync and async`, async () => {
    const { failures, found } = await compareWithTinyglobby(patterns, names);
    expect(failures).toEqual([]);
    expect(found).toBeGreaterThan(40); // the family is about matches, not only empty answers
  });
});

describe('trailing globstars: x/**/** names x where x/** does (picomatch lets each ** match no segment)', () => {
  // An adversarial run: ignore 'x/b/**/**' (and '!*/b/**/**') kept the file x/b that 'x/b/**'
  // leaves out: only one trailing '/**' was rewritten.
  const TREE = ['x/b', 'x/c', 'x/d/e', 'y/b/z', 'b', 'x/d/b'];
  const BASES = ['x/b', '*/b', 'x/*', 'x', 'x/d', '**/b', 'y/b', '*', 'x/b*', 'x/?'];
  const TAILS = ['/**', '/**/**', '/**/**/**'];
  const calls = (g: string): Array<[string | string[], GlobOptions]> => [
    ['**', { ignore: [g] }],
    [['x/*', '**/b', `!${g}`], {}],
    ['**', { ignore: [g], onlyFiles: false }],
    [['**', `!${g}`], { onlyFiles: false }],
    [g, {}],
    [g, { onlyFiles: false }],
  ];
  let tree: string;
  beforeAll(() => {
    tree = buildTree(TREE);
  });
  afterAll(() => removeTree(tree));

  async function ours(patterns: string | string[], options: GlobOptions): Promise<string[]> {
    const full = { cwd: tree, ...options };
    const async = sorted(await glob(patterns, full));
    expect(sorted(globSync(patterns, full)), 'sync form').toEqual(async);
    return async;
  }

  it(`${BASES.length * TAILS.length} globs as ignore and as negation (files): the same arrays as tinyglobby, sync and async`, async () => {
    const failures: string[] = [];
    let found = 0;
    for (const g of BASES.flatMap((base) => TAILS.map((tail) => base + tail))) {
      for (const [patterns, options] of calls(g).slice(0, 2)) {
        const theirs = sorted(await peer.glob(patterns, { cwd: tree, ...options } as peer.GlobOptions));
        const got = await ours(patterns, options);
        found += theirs.length;
        if (JSON.stringify(got) !== JSON.stringify(theirs)) failures.push(`${JSON.stringify(patterns)} ${JSON.stringify(options)}: ours ${JSON.stringify(got)}, tinyglobby ${JSON.stringify(theirs)}`);
      }
    }
    expect(failures.slice(0, 10)).toEqual([]);
    expect(found).toBeGreaterThan(BASES.length * TAILS.length);
  });

  // As a pattern, and for directories, tinyglobby's own answers to x/**/** are its crawler's
  // (`x/.`, or [] for a file x/b: docs/compat.md); ours are held to its answer for x/**.
  it('every call with x/**/** or x/**/**/** answers as the same call with x/**', async () => {
    const failures: string[] = [];
    for (const base of BASES) {
      const once = await Promise.all(calls(`${base}/**`).map(([p, o]) => ours(p, o)));
      for (const tail of TAILS.slice(1)) {
        const more = await Promise.all(calls(base + tail).map(([p, o]) => ours(p, o)));
        more.forEach((got, i) => {
          if (JSON.stringify(got) !== JSON.stringify(once[i])) failures.push(`${JSON.stringify(calls(base + tail)[i])}: ${JSON.stringify(got)}, with /** ${JSON.stringify(once[i])}`);
        });
      }
    }
    expect(failures.slice(0, 10)).toEqual([]);
  });
});

describe('x/** with a wildcard x, as picomatch reads it: a * right before /** needs a segment below', () => {
  // An adversarial run: '*/**' (default onlyFiles) returned the top-level files where tinyglobby
  // returns only d/f; '[x]*/**' returned x.js (tinyglobby: []).
  const TREE = ['x.js', 'README.md', 'd/f', 'src/top.js', 'src/lib/c.js', 'x/b', 'x/d/e', 'a.js/in'];
  const BASES = ['*', 'x*', '[x]*', '*.js', '?', 'x/*', 'x/b*', 'x/*b', 'x/?', 'src/*', 'src/*.js', '[sx]*', 'x/[bd]', '*/*'];
  const patterns = BASES.flatMap((base) => [`${base}/**`, `${base}/**/**`]);
  let tree: string;
  beforeAll(() => {
    tree = buildTree(TREE);
  });
  afterAll(() => removeTree(tree));

  for (const options of [{}, { onlyFiles: false }] as GlobOptions[]) {
    it(`${patterns.length} patterns ${JSON.stringify(options)}: the same arrays as tinyglobby, sync and async`, async () => {
      const failures: string[] = [];
      let found = 0;
      for (const pattern of patterns) {
        const full = { cwd: tree, ...options };
        const theirs = sorted(await peer.glob(pattern, full as peer.GlobOptions));
        found += theirs.length;
        for (const got of [sorted(await glob(pattern, full)), sorted(globSync(pattern, full))]) {
          if (JSON.stringify(got) !== JSON.stringify(theirs)) failures.push(`${pattern}: ours ${JSON.stringify(got)}, tinyglobby ${JSON.stringify(theirs)}`);
        }
      }
      expect(failures.slice(0, 40)).toEqual([]);
      expect(found).toBeGreaterThan(patterns.length);
    });
  }
});
