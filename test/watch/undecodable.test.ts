/**
 * Paths that are not UTF-8 (Linux names are bytes): Node decodes them with U+FFFD, and that text
 * names another file or none. Coverage derived from such a text watched nothing the walk read, and
 * took its "ENOENT" for a proof of absence: a kept answer was reused after the real file changed
 * (an adversarial run: `.gitignore` -> `out/d\xff/rules` edited, the old rules answered, complete).
 * A generated family, on the real disk: shapes that reach a directory named `d\xff` (links, ignore
 * files, the root's own path) x changes there x with or without a twin (the same files under the
 * valid name `d\uFFFD`, the text Node reads for `d\xff`: a watch set up on that text finds a
 * directory, the wrong one), each answer asked twice (the second may be the kept one) against a
 * fresh `findFiles`. The same shapes through a valid name (`dok`) show the answers are reused where
 * nothing is undecodable.
 */
import { mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findFiles, type FindOptions } from '../../src/index.js';
import { linux, describeIf } from '../helpers/skip-why.js';
import { openIndexWith, type IndexOptions, type IndexQuery } from '../../src/watch/watched-index.js';
import { closedAfterEach, comparable } from './helpers.js';

const { opened, tree } = closedAfterEach();

/** A path as bytes: `D` stands for the directory name under test. */
type At = (...parts: string[]) => Buffer;

function pathsUnder(base: string, name: Buffer): At {
  return (...parts) => Buffer.concat([Buffer.from(base), ...parts.flatMap((part) => [Buffer.from('/'), part === 'D' ? name : Buffer.from(part)])]);
}

interface Shape {
  name: string;
  /** Makes what is under `out/D` (`at` makes byte paths). */
  out(at: At): void;
  /** Makes the root's side; returns the index's options. */
  root(at: At, base: string): IndexOptions;
  query: IndexQuery;
  /** Each changes the answer a fresh walk gives (but see `unseenThroughBadName`). */
  changes: { name: string; run(at: At, base: string): void; badOnly?: boolean; unseenThroughBadName?: boolean }[];
}

const write = (path: Buffer, text: string) => writeFileSync(path, text);
const dirs = (path: Buffer) => mkdirSync(path, { recursive: true });

/** The rules file an ignore-file link points to: edited, replaced by a rename, removed. */
const RULES_CHANGES: Shape['changes'] = [
  { name: 'rules edited', run: (at) => write(at('out', 'D', 'rules'), 'keep.txt\n') },
  { name: 'rules replaced', run: (at) => (write(at('out', 'D', 'new'), 'keep.txt\n'), renameSync(at('out', 'D', 'new'), at('out', 'D', 'rules'))) },
  { name: 'rules removed', run: (at) => rmSync(at('out', 'D', 'rules')) },
];

const rules = (at: At) => (dirs(at('out', 'D')), write(at('out', 'D', 'rules'), 'secret.txt\n'));

const SHAPES: Shape[] = [
  {
    name: 'a link whose target is in D (root/l -> out/D/sub/t)',
    out: (at) => (dirs(at('out', 'D', 'sub')), write(at('out', 'D', 'sub', 't'), 'x')),
    root: (at, base) => (symlinkSync(at('out', 'D', 'sub', 't'), at('root', 'l')), { root: join(base, 'root') }),
    query: { pattern: 'l/**' },
    changes: [
      { name: 'the target turned into a directory', run: (at) => (rmSync(at('out', 'D', 'sub', 't')), mkdirSync(at('out', 'D', 'sub', 't'))) },
      { name: 'its directory replaced by one holding a directory t', run: (at) => (renameSync(at('out', 'D', 'sub'), at('out', 'D', 'old')), dirs(at('out', 'D', 'sub', 't'))) },
    ],
  },
  {
    name: 'a chain whose middle link is in D (root/l -> out/D/hop -> ../t)',
    out: (at) => (dirs(at('out', 'D')), dirs(at('out', 't')), write(at('out', 'u'), 'a file'), symlinkSync('../t', at('out', 'D', 'hop'))),
    root: (at, base) => (symlinkSync(at('out', 'D', 'hop'), at('root', 'l')), { root: join(base, 'root') }),
    query: { pattern: 'l/**' },
    changes: [{ name: 'the middle link retargeted to a file', run: (at) => (symlinkSync('../u', at('out', 'D', 'new')), renameSync(at('out', 'D', 'new'), at('out', 'D', 'hop'))) }],
  },
  {
    name: 'root/.gitignore a link into D',
    out: rules,
    root: (at, base) => (dirs(at('root', '.git')), symlinkSync(at('out', 'D', 'rules'), at('root', '.gitignore')), { root: join(base, 'root'), gitignore: true }),
    query: { pattern: '*.txt' },
    changes: RULES_CHANGES,
  },
  {
    name: 'root/.git/info/exclude a link into D',
    out: rules,
    root: (at, base) => (dirs(at('root', '.git', 'info')), symlinkSync(at('out', 'D', 'rules'), at('root', '.git', 'info', 'exclude')), { root: join(base, 'root'), gitignore: true }),
    query: { pattern: '*.txt' },
    changes: RULES_CHANGES,
  },
  {
    name: 'root/.git a link to a directory in D',
    out: (at) => dirs(at('out', 'D', 'git')),
    root: (at, base) => (write(at('root', '.gitignore'), 'secret.txt\n'), symlinkSync(at('out', 'D', 'git'), at('root', '.git')), { root: join(base, 'root'), gitignore: true }),
    query: { pattern: '*.txt' },
    changes: [{ name: 'the git directory removed (.gitignore no longer applies)', run: (at) => rmSync(at('out', 'D', 'git'), { recursive: true }) }],
  },
  {
    name: 'a directory D inside the root',
    out: () => {},
    root: (at, base) => (mkdirSync(at('root', 'D')), write(at('root', 'D', 'in.txt'), 'x'), { root: join(base, 'root') }),
    query: { pattern: '**', type: 'any' },
    changes: [
      { name: 'it renamed to a valid name', run: (at) => renameSync(at('root', 'D'), at('root', 'x')) },
      { name: 'it removed', run: (at) => rmSync(at('root', 'D'), { recursive: true }) },
    ],
  },
  {
    name: 'the root reached through a link into D, its parent ignoring (gitignore: true)',
    out: (at) => {
      dirs(at('out', 'D', 'repo', '.git'));
      dirs(at('out', 'D', 'repo', 'sub'));
      write(at('out', 'D', 'repo', '.gitignore'), 'secret.txt\n');
      for (const name of ['secret.txt', 'keep.txt']) write(at('out', 'D', 'repo', 'sub', name), 'x');
    },
    root: (at, base) => (symlinkSync(at('out', 'D', 'repo', 'sub'), at('rootlink')), { root: join(base, 'rootlink'), gitignore: true }),
    query: { pattern: '*.txt' },
    changes: [
      // A walk through the undecodable real path finds no parent ignore file (docs/contract.md, Ignore files).
      { name: 'the parent rules edited', unseenThroughBadName: true, run: (at) => write(at('out', 'D', 'repo', '.gitignore'), 'keep.txt\n') },
      // The text Node reads for the real path names this twin: a walk reads its rules.
      { name: 'the twin made or changed', badOnly: true, run: (_at, base) => (dirs(Buffer.from(join(base, 'out', TWIN, 'repo', '.git'))), dirs(Buffer.from(join(base, 'out', TWIN, 'repo', 'sub'))), writeFileSync(join(base, 'out', TWIN, 'repo', '.gitignore'), 'keep.txt\n')) },
    ],
  },
];

/** The valid name whose text is what Node reads for `d\xff`. */
const TWIN = 'd\uFFFD';

const NAMES = [
  { label: 'd\\xff', name: Buffer.from([0x64, 0xff]), bad: true, twin: false },
  { label: 'd\\xff, its twin d\\uFFFD beside it', name: Buffer.from([0x64, 0xff]), bad: true, twin: true },
  { label: 'dok', name: Buffer.from('dok'), bad: false, twin: false },
];

const FAMILY = SHAPES.flatMap((shape) => shape.changes.flatMap((change) => NAMES.filter((n) => n.bad || !change.badOnly).map((n) => ({ shape, change, ...n, title: `${shape.name}, ${change.name}, D = ${n.label}` }))));

async function answerOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    return comparable((await promise) as never);
  } catch (error) {
    return { rejected: (error as { code?: string }).code };
  }
}

describeIf(linux('the index watches with inotify; names are bytes'))('a path that is not UTF-8: never a stale kept answer', () => {
  it.each(FAMILY)('$title', async ({ shape, change, name, bad, twin }) => {
    const base = tree(['root/secret.txt', 'root/keep.txt']);
    const at = pathsUnder(base, name);
    shape.out(at);
    if (twin) shape.out(pathsUnder(base, Buffer.from(TWIN)));
    const options = shape.root(at, base);
    const index = await openIndexWith(options, {});
    opened.push(index);
    const fresh = () => answerOf(findFiles({ ...options, ...shape.query, backend: 'walker' } as FindOptions));
    const step = async () => {
      const expected = await fresh();
      expect(await answerOf(index.find(shape.query))).toEqual(expected);
      expect(await answerOf(index.find(shape.query))).toEqual(expected);
      return expected;
    };
    const before = await step();
    const reusedBefore = index.stats().answersReused;
    change.run(at, base);
    const after = await step();
    // The change matters to a walk: a stale answer would differ.
    if (!(bad && change.unseenThroughBadName)) expect(after, JSON.stringify(before)).not.toEqual(before);
    // Through a valid name the answers are reused (the same shapes, covered); through bytes that are not, never.
    if (bad) expect(reusedBefore).toBe(0);
    else expect(index.stats().answersReused).toBeGreaterThan(0);
  });
});

describe('the family is what it says', () => {
  it('every change of every shape, through d\\xff with and without its twin, and through a valid name (a twin change only where there is one)', () => {
    expect(FAMILY.length).toBe(SHAPES.reduce((n, shape) => n + shape.changes.reduce((m, c) => m + (c.badOnly ? 2 : 3), 0), 0));
  });
});
