/**
 * Whole answers reused (src/watch/coverage.ts, answers.ts), on the real disk, in a generated
 * family, each step checked against a fresh `findFiles` and asked twice (the second may be the kept
 * answer): a link out of the root whose target's path changes under a sentinel watch (a link on the
 * way retargeted, a parent renamed away and made again) is never answered from the old directory.
 */
import { mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
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
