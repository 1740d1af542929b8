/**
 * node-glob's `ignore` as an object (`IgnoreLike`: `ignored(path)`, `childrenIgnored(path)`), as a
 * host passes its own rules (Qwen Code's glob tool hands `globStream` one built from its ignore
 * files; a repository scanner one from `.gitignore`). Each hook × pattern × option through
 * find-file/glob's forms and the real node-glob, sorted answers compared; the hooks read the
 * entries as hosts do (`name`, `relative()`, `relativePosix()`, `fullpath()`, `isDirectory()`,
 * rules kept on `this`). Then what the answer says: a pruned folder is policy, never a gap, and
 * is not read; a bad object is refused; a throw rejects.
 */
import * as nodeGlob from 'glob';
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { glob, globIterate, globStream, globSync, type IgnoreLike, type PathEntry } from '../../src/compat/glob.js';
import { buildTree, removeTree } from './tree.js';

const TREE = [
  'a.ts', 'i.log', '.hidden/j.ts', 'node_modules/z.ts', 'node_modules/x/y.ts', 'src/b.ts', 'src/node_modules/c.ts', 'src/vendor/d.ts',
  'src/lib/e.js', 'src/lib/k.log', 'build/out.js', 'build/sub/f.ts', 'dist/g.ts', 'logs/h.log', 'empty/',
];

let root: string;
beforeAll(() => {
  root = buildTree(TREE);
});
afterAll(() => removeTree(root));

type Entry = Pick<PathEntry, 'name' | 'relative' | 'relativePosix' | 'fullpath' | 'isDirectory'>;

/** The hooks, each made fresh per call (a host's object may keep state). */
const HOOKS: Record<string, () => IgnoreLike> = {
  'childrenIgnored: node_modules by name': () => ({ childrenIgnored: (p: Entry) => p.name === 'node_modules' }),
  'ignored: *.log by name': () => ({ ignored: (p: Entry) => p.name.endsWith('.log') }),
  'both, by relativePosix(): build pruned, and ignored below it': () => ({
    ignored: (p: Entry) => p.relativePosix().startsWith('build/'),
    childrenIgnored: (p: Entry) => p.relativePosix() === 'build',
  }),
  'ignored: every directory (isDirectory())': () => ({ ignored: (p: Entry) => p.isDirectory() }),
  'childrenIgnored by fullpath(): src/vendor': () => ({ childrenIgnored: (p: Entry) => p.fullpath() === join(root, 'src', 'vendor') }),
  'rules on `this` (a class)': () =>
    new (class {
      names = new Set(['dist', 'logs']);
      ignored(p: Entry) {
        return this.names.has(p.name);
      }
      childrenIgnored(p: Entry) {
        return this.names.has(p.name);
      }
    })() as unknown as IgnoreLike,
  'childrenIgnored(cwd): nothing at all': () => ({ childrenIgnored: (p: Entry) => p.relative() === '' }),
  'ignored(cwd) only': () => ({ ignored: (p: Entry) => p.relative() === '' }),
  'an object with neither hook': () => ({}),
};
const PATTERNS = ['**', '**/*.ts', 'src/**', '*', 'src/*/*.{js,ts,log}', '**/', '*/', 'src/*/', '{src,build}/**'];
const OPTIONS: Record<string, Record<string, unknown>> = { plain: {}, nodir: { nodir: true }, dot: { dot: true }, 'dot, mark': { dot: true, mark: true } };

const cases = Object.keys(HOOKS).flatMap((hook) => PATTERNS.flatMap((pattern) => Object.keys(OPTIONS).map((option) => [hook, pattern, option] as const)));

const sortedStrings = (items: Iterable<unknown>) => [...items].map(String).sort();

async function collect(stream: Readable): Promise<string[]> {
  const out: unknown[] = [];
  for await (const item of stream) out.push(item);
  return sortedStrings(out);
}

describe('an ignore object: every form gives node-glob\'s answer', () => {
  it.each(cases)('%s, %s, %s', async (hook, pattern, option) => {
    const opts = () => ({ cwd: root, ...OPTIONS[option], ignore: HOOKS[hook]!() });
    const peer = sortedStrings(await nodeGlob.glob(pattern, opts() as never));
    const ours = await glob(pattern, opts());
    expect(sortedStrings(ours)).toEqual(peer);
    expect(ours.result).toMatchObject({ complete: true, skippedCount: 0 });
    expect(sortedStrings(globSync(pattern, opts()))).toEqual(peer);
    expect(await collect(globStream(pattern, opts()))).toEqual(peer);
    const iterated: string[] = [];
    for await (const path of globIterate(pattern, opts())) iterated.push(path);
    expect(iterated.sort()).toEqual(peer);
  });

  it.each(Object.keys(HOOKS))('%s, withFileTypes: the same entries', async (hook) => {
    const opts = () => ({ cwd: root, dot: true, withFileTypes: true as const, ignore: HOOKS[hook]!() });
    const peer = (await nodeGlob.glob('**', opts() as nodeGlob.GlobOptionsWithFileTypesTrue)).map((p) => p.relativePosix()).sort();
    expect((await glob('**', opts())).map((p) => p.relativePosix()).sort()).toEqual(peer);
  });
});

describe('an ignore object: what the answer says', () => {
  it('a pruned folder is not read, and is the host\'s policy, not a gap: complete, counted as excluded', async () => {
    const asked: string[] = [];
    const ignore = { childrenIgnored: (p: Entry) => (asked.push(p.relativePosix()), p.name === 'node_modules') };
    const found = await glob('**/*.ts', { cwd: root, ignore });
    expect([...found].sort()).toEqual(['a.ts', 'build/sub/f.ts', 'dist/g.ts', 'src/b.ts', 'src/vendor/d.ts']);
    expect(found.result).toMatchObject({ complete: true, excludedCount: 2 });
    // Asked of every directory the walk would read, cwd first; never of one below a pruned folder.
    expect(asked.sort()).toEqual(['', 'build', 'build/sub', 'dist', 'empty', 'logs', 'node_modules', 'src', 'src/lib', 'src/node_modules', 'src/vendor']);
  });

  it('a host\'s object typed for node-glob fits as it is (this file type-checks), and answers as there', async () => {
    const hostRules: nodeGlob.IgnoreLike = { childrenIgnored: (p: nodeGlob.Path) => p.isNamed('node_modules'.toUpperCase()) || p.name === 'node_modules' };
    // `isNamed` is path-scurry's, not PathEntry's: a host calling it is told at once (a TypeError), not answered wrongly.
    await expect(glob('**/*.ts', { cwd: root, ignore: hostRules })).rejects.toThrow(TypeError);
    const portable: nodeGlob.IgnoreLike = { childrenIgnored: (p: nodeGlob.Path) => p.name === 'node_modules' };
    expect([...(await glob('**/*.ts', { cwd: root, ignore: portable }))].sort()).toEqual((await nodeGlob.glob('**/*.ts', { cwd: root, ignore: portable })).sort());
  });

  it('a link is handed to childrenIgnored as a link (node-glob asks of links under * + /): the same answer', async () => {
    const linked = buildTree(['a/sub/f.ts', 'src/g.ts', 'src/in/h.ts', 'b']);
    try {
      symlinkSync('src', join(linked, 'ldir'));
      symlinkSync('in', join(linked, 'src', 'lin'));
      symlinkSync('nowhere', join(linked, 'dang'));
      for (const [label, hook] of [['links', (p: Entry & { isSymbolicLink(): boolean }) => p.isSymbolicLink()], ['not directories', (p: Entry) => !p.isDirectory()]] as const) {
        for (const pattern of ['*/', 'src/*/']) {
          const opts = () => ({ cwd: linked, ignore: { childrenIgnored: hook as (p: Entry) => boolean } });
          const peer = (await nodeGlob.glob(pattern, opts() as never)).sort();
          expect([...(await glob(pattern, opts()))].sort(), `${label}, ${pattern}`).toEqual(peer);
        }
      }
    } finally {
      removeTree(linked);
    }
  });

  it('the entries handed to the hooks say their kind, as node-glob\'s do', async () => {
    const kinds = new Map<string, boolean>();
    await glob('**', { cwd: root, ignore: { ignored: (p: Entry) => (kinds.set(p.relativePosix(), p.isDirectory()), false) } });
    expect(Object.fromEntries([...kinds].filter(([path]) => ['', 'src', 'src/b.ts', 'empty', 'i.log'].includes(path)))).toEqual({ '': true, src: true, 'src/b.ts': false, empty: true, 'i.log': false });
  });

  it('a hook that is not a function is refused before any read; so is a number; so is an object with absolute patterns', async () => {
    await expect(glob('**', { cwd: root, ignore: { ignored: 'x' } as never })).rejects.toMatchObject({ code: 'FF_INVALID_OPTION', option: 'ignore' });
    expect(() => globSync('**', { cwd: root, ignore: { childrenIgnored: null } as never })).toThrow(expect.objectContaining({ code: 'FF_INVALID_OPTION', option: 'ignore' }));
    expect(() => globSync('**', { cwd: root, ignore: 5 as never })).toThrow(expect.objectContaining({ code: 'FF_INVALID_OPTION', option: 'ignore' }));
    expect(() => globSync(`${root}/**`, { ignore: { ignored: () => false } })).toThrow(expect.objectContaining({ code: 'FF_INVALID_OPTION', option: 'ignore' }));
  });

  it('a hook that throws rejects the call, as node-glob\'s does', async () => {
    const boom = new Error('host rules broken');
    const ignore = {
      childrenIgnored: () => {
        throw boom;
      },
    };
    await expect(nodeGlob.glob('**', { cwd: root, ignore })).rejects.toBe(boom);
    await expect(glob('**', { cwd: root, ignore })).rejects.toBe(boom);
    expect(() => globSync('src/**', { cwd: root, ignore: { ignored: ignore.childrenIgnored } })).toThrow(boom);
  });
});
