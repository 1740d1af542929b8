/**
 * The CLI's smart case for `--name-regex` and `-F` against fd itself, decided by one rule
 * (src/regex-syntax.ts `ignoresCaseSmartly(.., 'fd')`). An adversarial run found the old test
 * (a `\p{Lu}` letter left after deleting every `\.` pair) wrong both ways: `\pN` and `\p{No}` made
 * it exact (fd: any case), `\x41` did not (fd: exact), nor `Ⓐ` and `Ⅻ` (Uppercase, not Lu).
 *
 * fd's decision is read from its answers: over a tree holding `readme` + X and `README` + X for
 * many characters X, fd with neither flag lists what `-i` lists or what `-s` lists; a pattern for
 * which `-i` and `-s` agree tells nothing and is counted out. Ours is the flag `nameOptions` puts
 * before the regex, in process (no child per case).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { CliArgs } from '../../src/cli/args.js';
import { nameOptions } from '../../src/cli/names.js';
import { isPosix, writeTree } from '../helpers/cli.js';
import { mulberry32 } from '../helpers/prng.js';
import { runEach } from '../helpers/run-each.js';
import { describeIf } from '../helpers/skip-why.js';

const which = (name: string) => (spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).stdout.trim() || undefined);
const fd = isPosix ? (which('fdfind') ?? which('fd')) : undefined;

const TAILS = ['1', '①', 'Ⅻ', 'ⅻ', 'A', 'a', 'Ⓐ', 'ⓐ', '_', '-', ' x', 'α', 'Α', 'ǅ', 'x', '\\A', '\\a', '.md'];
const FILES = TAILS.flatMap((tail) => [`readme${tail}`, `README${tail}`]);

/** Atoms written after `readme`: classes of every kind, literals however spelled (no octal nor \\Q..\\E: fd's regex refuses them). */
const ATOMS = [
  '\\pN', '\\p{N}', '\\p{No}', '\\p{Nd}', '\\p{Nl}', '\\PL', '\\pL', '\\p{Lu}', '\\p{Ll}', '\\p{Lt}', '\\p{So}', '\\p{Greek}',
  '\\w', '\\W', '\\d', '\\D', '\\s', '\\S', '.', '[[:upper:]]', '[[:lower:]]', '[[:alpha:]]', '[[:punct:]]', '[[:^upper:]]',
  '\\x41', '\\x{41}', '\\x61', '\\x{24b6}', '\\x{2160}', 'Ⓐ', 'ⓐ', 'Ⅻ', 'ⅻ', 'A', 'a', 'Α', 'ǅ', '\\\\A', '\\\\a',
  '[a-z]', '[A-Z]', '[^a]', '[^A]', '[0-9]', '[①-⑳]', '[Ⓐ-Ⓩ]', '[\\x41]', '[a\\pN]', '[\\p{Lu}\\d]', '[^\\pL]', '(?:1|①)', '\\.md',
  // Inline flags (adversary L): a letter under `i` is a class holding its capital to fd; a digit is not.
  '(?i:a)', '(?i)x', '(?i:1)', '(?i)1', '(?-i:a)', '(?i:x)(?-i)a', '(?:(?i)x)', '(?i:ⓐ)', '(?i:\\.md)',
];

/** The hand-picked atoms, then random pairs of them as alternatives (a pair in a row rarely matches a name here). */
function patterns(): string[] {
  const random = mulberry32(0x5eed);
  const pairs = Array.from({ length: 60 }, () => `(?:${ATOMS[Math.floor(random() * ATOMS.length)]!}|${ATOMS[Math.floor(random() * ATOMS.length)]!})`);
  return [...ATOMS, ...pairs].map((atom) => `^readme${atom}`);
}

let tree: string;
beforeAll(() => {
  tree = mkdtempSync(join(tmpdir(), 'ff-smart-case-'));
  writeTree(tree, FILES);
});
afterAll(() => rmSync(tree, { recursive: true, force: true }));

/**
 * fd's listing for each (flags, pattern), sorted lines: all ~400 runs from one bash
 * (test/helpers/run-each.ts), not each forked from the worker; `-j1`, as a listing of 36 names
 * is the same from one thread, and fd's thread pool cost more than its search (8.4 ms of CPU a run, 5.9 with -j1).
 */
function fdLists(asks: readonly { flags: string[]; pattern: string }[]): string[] {
  const runs = runEach(fd!, asks.map(({ flags, pattern }) => ['-j1', '--hidden', '--no-ignore', '--type', 'f', ...flags, '--', pattern]), tree);
  return runs.map((run, i) => {
    if (run.status !== 0) throw new Error(`fd ${asks[i]!.flags.join(' ')} ${asks[i]!.pattern}: ${run.stderr}`);
    return run.stdout.split('\n').sort().join('\n');
  });
}

/** For each pattern, 'ignore' or 'exact' as fd decided, or undefined when the tree cannot tell. */
function fdDecides(flags: string[], patterns: readonly string[]): ('ignore' | 'exact' | undefined)[] {
  // Each pattern three times: as typed (fd's smart case), then with -i, then with -s.
  const lists = fdLists(patterns.flatMap((pattern) => [flags, [...flags, '-i'], [...flags, '-s']].map((f) => ({ flags: f, pattern }))));
  return patterns.map((_, i) => {
    const [smart, ignore, exact] = lists.slice(3 * i, 3 * i + 3);
    if (ignore === exact) return undefined;
    return smart === ignore ? 'ignore' : smart === exact ? 'exact' : undefined;
  });
}

function oursDecides(args: Partial<CliArgs>, patterns: string[]): 'ignore' | 'exact' {
  const regex = nameOptions({ _: [], ...args } as CliArgs, patterns).nameRegex![0]!;
  return regex.startsWith('(?i)') ? 'ignore' : 'exact';
}

describeIf([fd !== undefined, 'fd is not installed'])('smart case of the name modes, as fd decides it', () => {
  it('--name-regex: every pattern the tree can tell, as fd', () => {
    const all = patterns();
    const decided = fdDecides([], all);
    const told = all.flatMap((pattern, i) => {
      const theirs = decided[i];
      return theirs === undefined ? [] : [{ pattern, theirs, ours: oursDecides({ nameRegex: pattern }, []) }];
    });
    expect(told.length).toBeGreaterThan(90);
    expect(told.filter((t) => t.ours !== t.theirs)).toEqual([]);
  });

  it('-F: a capital however it sits (after a backslash too, Ⓐ and Ⅻ too), as fd', () => {
    const texts = ['readme', 'READ', 'readmeⒶ', 'readmeⓐ', 'readmeⅫ', 'readmeⅻ', 'readme\\A', 'readme\\a', 'readmeǅ', 'readmeΑ', 'eadme1'];
    const decided = fdDecides(['-F'], texts);
    const told = texts.map((text, i) => ({ text, theirs: decided[i], ours: oursDecides({ fixedStrings: true }, [text]) }));
    expect(told.filter((t) => t.theirs !== undefined && t.ours !== t.theirs)).toEqual([]);
    expect(told.filter((t) => t.theirs !== undefined).length).toBe(texts.length);
  });
});
