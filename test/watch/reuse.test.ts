/**
 * Whole answers reused (src/watch/coverage.ts, answers.ts), on the real disk, in two generated
 * families, each step checked against a fresh `findFiles` and asked twice (the second may be the kept answer):
 * - a link out of the root whose target's path changes under a sentinel watch (a link on the way
 *   retargeted, a parent renamed away and made again): never answered from the old directory;
 * - `gitignore: true` answers are reused, and every ignore file that matters created, edited,
 *   replaced or deleted gives the next answer a fresh walk gives.
 */
import { linkSync, mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findFiles, type FindOptions } from '../../src/index.js';
import { linux, describeIf } from '../helpers/skip-why.js';
import { openIndexWith, type FileIndex, type IndexOptions, type IndexQuery } from '../../src/watch/watched-index.js';
import { closedAfterEach, comparable } from './helpers.js';

const { opened, tree } = closedAfterEach();

async function open(options: IndexOptions): Promise<FileIndex> {
  const index = await openIndexWith(options, {});
  opened.push(index);
  return index;
}

/** The answer, or the code it rejected with: a named ignore file deleted rejects both. */
async function settle(answer: Promise<unknown>): Promise<unknown> {
  try {
    return comparable((await answer) as never);
  } catch (error) {
    return { rejected: (error as { code?: string }).code };
  }
}

/** Asks the index twice and a fresh walk once; all three must agree. Returns the index's answer. */
async function expectFresh(index: FileIndex, options: IndexOptions, query: IndexQuery): Promise<unknown> {
  const first = await settle(index.find(query));
  const second = await settle(index.find(query));
  const fresh = await settle(findFiles({ ...options, ...query, backend: 'walker' } as FindOptions));
  expect(first).toEqual(fresh);
  expect(second).toEqual(fresh);
  return first;
}

function swapLink(target: string, link: string): void {
  symlinkSync(target, link + '.new');
  renameSync(link + '.new', link);
}

interface LinkShape {
  name: string;
  /** Directories made first (relative to the base). */
  dirs: string[];
  /** Links made first: [target, where] (where relative to the base; an absolute target is made from the base). */
  links: [string, string][];
  /** The path (from the base) `root/l` points to. */
  target: string;
  /** Makes the target's path name another directory, with no `y` in it; then `y` made there; then the old one removed. */
  swap(base: string): void;
  /** Whether `y`, once it appears, is a directory (a link on the way), or a file (none). */
  appearsAsDir: boolean;
  appear(base: string): void;
  oldGone(base: string): void;
}

const LINK_SHAPES: LinkShape[] = [
  {
    name: 'a link on the way retargeted by rename (current -> X, then -> Z)',
    dirs: ['X/y', 'Z'],
    links: [['X', 'current']],
    target: 'current/y',
    swap: (b) => swapLink(join(b, 'Z'), join(b, 'current')),
    appearsAsDir: true,
    appear: (b) => mkdirSync(join(b, 'Z', 'y')),
    oldGone: (b) => rmSync(join(b, 'X', 'y'), { recursive: true }),
  },
  {
    name: 'a link on the way removed and made again, relative',
    dirs: ['X/y', 'Z'],
    links: [['X', 'current']],
    target: 'current/y',
    swap: (b) => (rmSync(join(b, 'current')), symlinkSync('Z', join(b, 'current'))),
    appearsAsDir: false,
    appear: (b) => writeFileSync(join(b, 'Z', 'y'), 'a file: no link on the way'),
    oldGone: (b) => rmSync(join(b, 'X', 'y'), { recursive: true }),
  },
  {
    name: 'a parent of the target renamed away, the path made again (mv P P-old; mkdir -p P/D)',
    dirs: ['P/D/y'],
    links: [],
    target: 'P/D/y',
    swap: (b) => (renameSync(join(b, 'P'), join(b, 'P-old')), mkdirSync(join(b, 'P', 'D'), { recursive: true })),
    appearsAsDir: true,
    appear: (b) => mkdirSync(join(b, 'P', 'D', 'y')),
    oldGone: (b) => rmSync(join(b, 'P-old', 'D', 'y'), { recursive: true }),
  },
  {
    name: 'a link two hops up retargeted (current -> releases/v, releases -> R1, then -> R2)',
    dirs: ['R1/v/y', 'R2/v'],
    links: [['R1', 'releases'], ['releases/v', 'current']],
    target: 'current/y',
    swap: (b) => swapLink('R2', join(b, 'releases')),
    appearsAsDir: true,
    appear: (b) => mkdirSync(join(b, 'R2', 'v', 'y')),
    oldGone: (b) => rmSync(join(b, 'R1', 'v', 'y'), { recursive: true }),
  },
  {
    name: "the target's directory replaced by a link to another",
    dirs: ['D/y', 'E'],
    links: [],
    target: 'D/y',
    swap: (b) => (renameSync(join(b, 'D'), join(b, 'D-old')), symlinkSync(join(b, 'E'), join(b, 'D'))),
    appearsAsDir: true,
    appear: (b) => mkdirSync(join(b, 'E', 'y')),
    oldGone: (b) => rmSync(join(b, 'D-old', 'y'), { recursive: true }),
  },
];

describeIf(linux('the index watches with inotify'))('a link out of the root whose target path changes under its watches', () => {
  it.each(LINK_SHAPES)('$name: every step answers as a fresh walk', async (shape) => {
    const base = tree(['root/a.ts']);
    for (const dir of shape.dirs) mkdirSync(join(base, dir), { recursive: true });
    for (const [target, where] of shape.links) symlinkSync(target, join(base, where));
    const root = join(base, 'root');
    symlinkSync(join(base, shape.target), join(root, 'l'));
    const options = { root };
    const index = await open(options);
    // `l/**` goes through `l` (linksOnTheWay, what a stale sentinel got wrong); `**` lists it.
    const step = async (expected: string[]) => {
      expect(((await expectFresh(index, options, { pattern: 'l/**' })) as { linksOnTheWay: string[] }).linksOnTheWay).toEqual(expected);
      await expectFresh(index, options, { pattern: '**', type: 'any' });
    };
    await step(['l']);
    shape.swap(base);
    await step([]);
    shape.appear(base);
    await step(shape.appearsAsDir ? ['l'] : []);
    shape.oldGone(base);
    await step(shape.appearsAsDir ? ['l'] : []);
    expect(index.stats().answersReused).toBeGreaterThan(0);
  });
});

interface IgnoreCase {
  name: string;
  /** Where the file is, from the base; the root is base/repo. */
  file: string;
  /** More of the tree (from the base). */
  files: string[];
  /** `ignoreFiles` names it (a tree option): it must exist when the index opens. */
  named?: boolean;
}

const IGNORE_FILES: IgnoreCase[] = [
  { name: 'the root .gitignore', file: 'repo/.gitignore', files: ['repo/.git/HEAD'] },
  { name: 'a subdirectory .gitignore', file: 'repo/sub/.gitignore', files: ['repo/.git/HEAD'] },
  { name: 'the root .ignore (no repository)', file: 'repo/.ignore', files: [] },
  { name: 'the root .rgignore', file: 'repo/.rgignore', files: ['repo/.git/HEAD'] },
  { name: '.git/info/exclude (info/ made with it)', file: 'repo/.git/info/exclude', files: ['repo/.git/HEAD'] },
  { name: "the parent's .gitignore, above the root", file: '.gitignore', files: ['.git/HEAD'] },
  { name: "the parent's .ignore, above the root, no repository", file: '.ignore', files: [] },
  { name: 'a file ignoreFiles names, outside the root', file: 'extra/rules', files: [], named: true },
];

type Operation = 'create' | 'edit' | 'replace' | 'delete';
const OPERATIONS: Operation[] = ['create', 'edit', 'replace', 'delete'];

const FAMILY = IGNORE_FILES.flatMap((where) => OPERATIONS.filter((op) => !(where.named && op === 'create')).map((op) => ({ ...where, op, label: `${where.name}, ${op}` })));

describeIf(linux('the index watches with inotify'))('gitignore: true answers are reused, and an ignore file changed is seen', () => {
  it.each(FAMILY)('$label', async ({ file, files, named, op }) => {
    const base = tree(['repo/a.ts', 'repo/b.ts', 'repo/sub/a.ts', 'repo/sub/b.ts', ...files]);
    const path = join(base, file);
    const write = (text: string) => (mkdirSync(dirname(path), { recursive: true }), writeFileSync(path, text));
    if (op !== 'create') write('a.ts\n');
    const options: IndexOptions = { root: join(base, 'repo'), gitignore: true, ...(named ? { ignoreFiles: [path] } : {}) };
    const index = await open(options);
    const query = { pattern: '**/*.ts' };
    const before = await expectFresh(index, options, query);
    expect(index.stats().answersReused).toBe(1);
    if (op === 'create') write('a.ts\n');
    else if (op === 'edit') writeFileSync(path, 'b.ts\n');
    else if (op === 'replace') (writeFileSync(path + '.tmp', 'b.ts\n'), renameSync(path + '.tmp', path));
    else rmSync(path);
    const after = await expectFresh(index, options, query);
    expect(after).not.toEqual(before);
    // Reused again once nothing changes.
    if (!(named && op === 'delete')) expect(index.stats().answersReused).toBe(2);
  });
});

describe('the families are what they say', () => {
  it('every ignore file is created, edited, replaced and deleted (a named one is never absent at open)', () => {
    expect(FAMILY).toHaveLength(IGNORE_FILES.length * OPERATIONS.length - 1);
  });
});

describeIf(linux('the index watches with inotify'))('an ignore file with another hard link, written through it, is seen', () => {
  // A write is an event in the directory of the path written: through a hard link elsewhere (outside
  // the root, or in a directory of the tree the answer never read), no watch of the answer hears it.
  // An adversarial run: the index answered from its kept answer as if the edit had not happened.
  const ELSEWHERE = ['outside/rules', 'repo/other/rules'];
  const cases = IGNORE_FILES.filter((where) => !where.named).flatMap((where) => ELSEWHERE.map((other) => ({ ...where, other, label: `${where.name}, linked from ${other}` })));

  it.each(cases)('$label', async ({ file, files, other }) => {
    const base = tree(['repo/a.ts', 'repo/b.ts', 'repo/sub/a.ts', 'repo/sub/b.ts', ...files]);
    const path = join(base, file);
    const link = join(base, other);
    mkdirSync(dirname(path), { recursive: true });
    mkdirSync(dirname(link), { recursive: true });
    writeFileSync(link, 'a.ts\n');
    linkSync(link, path);
    // `other` left out: the answer never reads the directory the write goes through.
    const options: IndexOptions = { root: join(base, 'repo'), gitignore: true, exclude: ['other'] };
    const index = await open(options);
    const query = { pattern: '**/*.ts' };
    const before = await expectFresh(index, options, query);
    writeFileSync(link, 'b.ts\n'); // the same file, written through its other name
    const after = await expectFresh(index, options, query);
    expect(after).not.toEqual(before);
    // Exact every time, and never from a kept answer: no watch would hear the next such write.
    expect(index.stats().answersReused).toBe(0);
  });
});

describeIf(linux('the index watches with inotify'))('a query with pruneDirectory is never answered from a kept answer', () => {
  it('the same pattern with and without the callback: each as a fresh walk gives it', async () => {
    const base = tree(['app/a.ts', 'app/node_modules/dep/x.ts', 'app/src/b.ts']);
    const options: IndexOptions = { root: join(base, 'app') };
    const index = await open(options);
    const plain = { pattern: '**/*.ts' };
    const pruned = { pattern: '**/*.ts', pruneDirectory: (dir: string) => dir.endsWith('node_modules/') };
    // Kept after the first asking; the pruned query's key must not find it (the callback is part of the query).
    expect(await expectFresh(index, options, plain)).toMatchObject({ matches: ['a.ts', 'node_modules/dep/x.ts', 'src/b.ts'] });
    expect(await expectFresh(index, options, pruned)).toMatchObject({ matches: ['a.ts', 'src/b.ts'], complete: true, excludedCount: 1 });
    // The plain query's second asking reused its kept answer; the pruned query's never did.
    expect(index.stats().answersReused).toBe(1);
  });
});
