/**
 * Ignore rules in shapes an adversary found the walker misreading, each a generated family judged
 * by the real rg (`rg --files`):
 *
 * - names holding a newline, under rules ripgrep answers with its regex set (no name or extension
 *   shortcut: see src/walk/gitignore-rules.ts), by both of the walker's engines (V8's regex, RE2
 *   for rules with many stars): `*` and `?` span a newline, `**` does not;
 * - runs of three or more stars: globset reads `***` as `*` (`***\/a` ignores `s/a`, never `a` or
 *   `s/t/a`), the walker read it as `**`;
 * - sets in rules with many stars, which run on RE2: RE2 read `[[:digit:]` as a POSIX class
 *   (`*[[:digit:]]*b*` ignored `ab`; `*[[:foo:]]*b*` threw, and the search failed);
 * - rules of thousands of pieces, which V8's regex compiler cannot compile (a stack overflow: the
 *   search failed);
 * - rules a backtracking regex takes minutes over (`*?*?*?*?*?*?*?*?*b` against a 50-character
 *   name): a repository's `.gitignore` held every search, past its time budget. These run through
 *   the command, a process with a deadline, so a regression fails instead of holding the suite.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Rng } from '../conformance/generate.js';
import { runFindFile } from '../helpers/cli.js';
import { searchForms } from '../helpers/forms.js';
import { buildTrees, files, rgFilesOfRoots, type Trees } from '../helpers/ignore-trees.js';
import { realRg, requireRipgrepInCi } from '../helpers/real-rg.js';

requireRipgrepInCi();

// No name with a dot, and no rule that is a literal, a `**/`-literal or a `/**`-literal: globset answers those without its regex set.
const NEWLINE_NAMES = ['d\ne/keep', 'd\ne/a', 'a/\n\n', 'x\ny', 'plain', 'keep', 'a/b\nc/d', 's/t\n/a', 'q\nq/r\nr/s', 'ab\nab/e'];
const NEWLINE_RULES = ['d*', '*/*', 's/**/a', '**/a/**', '*e', '?', 'x*', '*a*b*', '**/*e*p*', 'q*/**/s', '*/*/*'];
// Directories named with the other line breaks: V8's `.` (under `u`) stops at `\r`, U+2028 and
// U+2029 where Rust's spans them, so `**` on V8 did not reach below them (an adversarial run).
const LINE_BREAK_NAMES = ['d\re/x.min.js', 'f\u2028g/x.min.js', 'h\rk/app.min.js', 'h\rk/app.js', 'p\u2029q/r/s.log', 'plain/x.min.js', 'plain/y.txt', 'z.log'];
const LINE_BREAK_RULES = ['*.min.*', '*.log', '**/r/*', 'h?k/*', '/h?k/*', '**/s.*', 'p*q/**', '*/x*']; // (`?` is one byte in rg: not over U+2029)

function lineBreakRules(): string[] {
  const rng = new Rng(20261207);
  const rules = new Set<string>(LINE_BREAK_RULES);
  while (rules.size < 24) rules.add(`${rng.pick(LINE_BREAK_RULES)}\n${rng.pick(LINE_BREAK_RULES)}\n!${rng.pick(['*.min.*', '**/s.log', 'app*', '**/*.js'])}`);
  return [...rules];
}

// Paths past 512 characters: a rule V8 may run is tested on RE2 there (V8's worst case grows with the path).
const LONG_DIR = `${'d'.repeat(200)}/${'e'.repeat(200)}/${'f'.repeat(200)}`;
const LONG_PATH_NAMES = [`${LONG_DIR}/x.min.js`, `${LONG_DIR}/y.txt`, `${LONG_DIR}/g/z.log`, `${LONG_DIR}/g/keep`, 'x.min.js', 'g/z.log'];
const LONG_PATH_RULES = ['*.min.*', '**/g/*', '*.log', 'd*/**/y*', '/d*/*/f*', '**/f*/g', 'g/', '*/e*/'];

function longPathRules(): string[] {
  const rng = new Rng(20261208);
  const rules = new Set<string>(LONG_PATH_RULES);
  while (rules.size < 16) rules.add(`${rng.pick(LONG_PATH_RULES)}\n!${rng.pick(['*.min.*', 'keep', '**/g/z*', 'y.*'])}`);
  return [...rules];
}

// Rules with no `/` whose set matches one (a range over it, a negated set): globset tests them on
// the whole path, where the set spans the separator (`a[.-0]b` ignores `a/b`); the base-name
// shortcut had them wrong both ways, complete (an adversarial run).
const SLASH_SET_NAMES = ['a/b', 'sub/a/b', 'keep', 'a.b', 'a0b', 'a-b', 'x/.y', 'ab'];
const SLASH_SETS = ['a[.-0]b', '*[.-0]*', 'a[ -~]b', 'a[+-0]b', 'a[--0]b', 'a[%-0]b', 'a[!x]b', 'a[^.]b', '[.-0]y', 'a[/]b'];

function slashSetRules(): string[] {
  return SLASH_SETS.flatMap((set) => [set, `*\n!*/\n!${set}`]);
}

const STAR_NAMES = ['a', 's/a', 's/t/a', 's/t/u/a', 'ab', 's/ab', 'x/y', 'x/s/a', 'aaa/a'];

/** Pairs of a rule and a `!` rule, and single rules: a rule that ignores, and one that takes a name back. */
function newlineRules(): string[] {
  const rng = new Rng(20261206);
  const rules = new Set<string>(NEWLINE_RULES);
  while (rules.size < 40) rules.add(`${rng.pick(NEWLINE_RULES)}\n!${rng.pick(['*p', 'd*', '**/k*', '*/*/*', '*a*b*e*'])}`);
  return [...rules];
}

/** Star runs of 3 to 5 in every place a segment can hold them. */
function starRules(): string[] {
  const rules = new Set<string>();
  for (const run of ['***', '****', '*****']) {
    for (const shape of ['R/a', 's/R/a', '**/R/a', 'R/**', 'R', 'aR', 'R/t/a', '/R/a', 'x/R']) rules.add(shape.replace('R', run));
  }
  return [...rules];
}

/** Rules whose regex backtracks without bound over a long name or a deep path, by size. */
function backtrackingRules(): string[] {
  const rules: string[] = [];
  for (const k of [4, 8, 12]) rules.push(`${'*?'.repeat(k)}*b`, `${'*a'.repeat(k)}*b`, `${'**/'.repeat(k)}b`, `${'*'.repeat(2)}/${'*a'.repeat(k)}b`);
  return rules;
}

/** Sets (globset reads `[[:digit:]]` as the set `[[:digit:]` then `]`) in rules with many stars, which run on RE2, and few, on V8. */
const SETS = ['[[:digit:]]', '[[:alpha:]x]', '[x[:digit:]]', '[!x[:digit:]]', '[\\[:digit:]]', '[[:alpha:]', '[[:foo:]]', '[[:^alpha:]]', '[]a]', '[!]]', '[a-c]', '[^b]', '[\\]]', '[-a]', '[a-]', '[[]', '[[-]]'];
const SET_NAMES = ['ab', 'ab.txt', 'd]b', '1b', 'xb', ':b', '[b', 'a[b', '-b', 'b', 'zzb', ']b', 'x/y/1/q/y', 'x1/y'];

function setRules(): string[] {
  return SETS.flatMap((set) => [`*${set}*b*`, `${set}*b`, `**/x*/${set}/**/y`, `*${set}*`]);
}

/** Rules of thousands of pieces: V8's regex compiler overflowed its stack on them, and every search in the tree failed. */
function longRules(): string[] {
  return [7_000, 20_000].flatMap((n) => [`${'a'.repeat(10)}${'?'.repeat(n)}`, `${'?'.repeat(n)}`, `*${'[ab]'.repeat(n / 4)}`, `/${'a'.repeat(n)}`]);
}

const LONG = 'a'.repeat(50);
const DEEP = `${Array.from({ length: 20 }, () => 'a').join('/')}/aab`;

const families = {
  newline: newlineRules(),
  lineBreak: lineBreakRules(),
  longPath: longPathRules(),
  slashSets: slashSetRules(),
  stars: starRules(),
  backtracking: backtrackingRules(),
  sets: setRules(),
  long: longRules(),
};
let trees: Trees;
const oracle = new Map<string, string[]>();
const treeName = (family: string, i: number) => `${family}-${i}`;

beforeAll(() => {
  const specs: Record<string, Record<string, string>> = {};
  families.newline.forEach((rule, i) => (specs[treeName('newline', i)] = { '.git/': '', '.gitignore': `${rule}\n`, ...files(...NEWLINE_NAMES) }));
  families.slashSets.forEach((rule, i) => (specs[treeName('slashSets', i)] = { '.git/': '', '.gitignore': `${rule}\n`, ...files(...SLASH_SET_NAMES) }));
  families.longPath.forEach((rule, i) => (specs[treeName('longPath', i)] = { '.git/': '', '.gitignore': `${rule}\n`, ...files(...LONG_PATH_NAMES) }));
  families.lineBreak.forEach((rule, i) => (specs[treeName('lineBreak', i)] = { '.git/': '', '.gitignore': `${rule}\n`, ...files(...LINE_BREAK_NAMES) }));
  families.stars.forEach((rule, i) => {
    specs[treeName('stars', i)] = { '.git/': '', '.gitignore': `${rule}\n`, ...files(...STAR_NAMES) };
    // The same rule read from a subfolder's ignore file.
    specs[treeName('stars-sub', i)] = { '.git/': '', 'x/.gitignore': `${rule}\n`, ...files(...STAR_NAMES.map((name) => `x/${name}`)) };
  });
  families.long.forEach((rule, i) => (specs[treeName('long', i)] = { '.git/': '', '.gitignore': `${rule}\n`, ...files('a', 'ab', 'b'.repeat(200)) }));
  families.sets.forEach((rule, i) => (specs[treeName('sets', i)] = { '.git/': '', '.gitignore': `${rule}\n`, ...files(...SET_NAMES) }));
  families.backtracking.forEach((rule, i) => (specs[treeName('backtracking', i)] = { '.git/': '', '.gitignore': `${rule}\n`, ...files(LONG, `${LONG}b`, DEEP, 'b') }));
  trees = buildTrees('ff-ignore-shapes-', specs);
  const listings = rgFilesOfRoots(Object.keys(specs).map((name) => trees.dirOf(name)));
  for (const name of Object.keys(specs)) oracle.set(name, listings.get(trees.dirOf(name))!);
});

afterAll(() => trees?.cleanup());

describe('the families hold the shapes they are about', () => {
  it('rg ignores some newline names and keeps others; a star run ignores something; a backtracking rule keeps the long names', () => {
    const ignoresANewlineName = families.newline.filter((_rule, i) => NEWLINE_NAMES.some((name) => name.includes('\n') && !oracle.get(treeName('newline', i))!.includes(name)));
    const keepsANewlineName = families.newline.filter((_rule, i) => NEWLINE_NAMES.some((name) => name.includes('\n') && oracle.get(treeName('newline', i))!.includes(name)));
    expect(ignoresANewlineName.length).toBeGreaterThanOrEqual(10);
    expect(keepsANewlineName.length).toBeGreaterThanOrEqual(10);
    expect(families.stars.filter((_rule, i) => oracle.get(treeName('stars', i))!.length < STAR_NAMES.length + 1).length).toBeGreaterThanOrEqual(8);
    expect(families.backtracking.filter((_rule, i) => oracle.get(treeName('backtracking', i))!.includes(LONG)).length).toBeGreaterThanOrEqual(6);
  });
});

// The walker's three forms: these shapes are about its reading of the rules. (`ripgrep` and
// `auto` would ask rg itself, a process per case, to agree with rg: test/ignore/parity.test.ts
// holds the ripgrep backend's own filtering.)
describe.each(searchForms(realRg.path).filter(([form]) => form !== 'auto' && form !== 'ripgrep'))('%s lists what rg lists', (_form, search) => {
  const cases = [
    ...families.newline.map((rule, i) => [`newline: ${JSON.stringify(rule)}`, treeName('newline', i)] as const),
    ...families.slashSets.map((rule, i) => [`sets that match /: ${JSON.stringify(rule)}`, treeName('slashSets', i)] as const),
    ...families.longPath.map((rule, i) => [`paths past 512 characters: ${JSON.stringify(rule)}`, treeName('longPath', i)] as const),
    ...families.lineBreak.map((rule, i) => [`line breaks in folder names: ${JSON.stringify(rule)}`, treeName('lineBreak', i)] as const),
    ...families.stars.flatMap((rule, i) => [[`stars: ${rule}`, treeName('stars', i)] as const, [`stars in x/: ${rule}`, treeName('stars-sub', i)] as const]),
    ...families.sets.map((rule, i) => [`sets: ${rule}`, treeName('sets', i)] as const),
    ...families.long.map((rule, i) => [`long: ${rule.length} characters, ${rule.slice(0, 12)}...`, treeName('long', i)] as const),
  ];
  it.each(cases)('%s', async (_label, name) => {
    const result = await search({ root: trees.dirOf(name), pattern: '**', gitignore: true });
    expect([...result.matches].sort()).toEqual(oracle.get(name));
    expect(result.complete).toBe(true);
  });
});

describe('rules a backtracking regex would take minutes over', () => {
  // The command, a process with a deadline (test/helpers/cli.ts): a regression fails, never hangs the suite.
  it.each(families.backtracking.map((rule, i) => [rule, i] as const))('%s: the command lists what rg lists, complete', (_rule, i) => {
    const root = trees.dirOf(treeName('backtracking', i));
    for (const args of [['**', '-0'], ['**', '-0', '--backend', 'walker', '--time-budget-ms', '60000']]) {
      const run = runFindFile(args, { cwd: root });
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout.split('\0').filter(Boolean).map((p) => p.replace(/^\.\//, '')).sort()).toEqual(oracle.get(treeName('backtracking', i)));
      expect(run.stderr).toMatch(/: complete, /);
    }
  });
});
