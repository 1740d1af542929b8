/**
 * Where a group ends, asked of bash itself: generated segments built from the characters that
 * open, split and close groups (`@( ?( *( +( !(`, plain `(`, `)`, `|`, `[`, `]`, `[:alpha:]`, `\`),
 * each matched against names made to catch both readings: the segment itself (what bash compares
 * a group left open as), the segment with a few characters dropped (`@(a(b|c))` is `a(b|c)` to
 * bash), names find-file's own reading matches, and random ones. Every pair is asked of bash 5 in
 * C.UTF-8 as `[[ $name == $pattern ]]` (the matcher its pathname expansion uses), and must get
 * find-file's answer; then again ignoring case (`nocasematch`, letters flipped at random). The family the adversary found: `@(a|@(b|c)`, which bash reads as plain
 * text, was read as a group inside plain text, and the file named by the pattern was missed.
 *
 * One bash process reads the pairs NUL-separated from stdin (the text is never part of the
 * script) and prints the indices of the pairs that match.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { compileSegment } from '../../src/glob/segment.js';
import type { GlobNode } from '../../src/glob/parse.js';
import { FindFileError } from '../../src/errors.js';
import { Rng, dropSome } from './generate.js';
import { bashMatchPairs, bashVersion } from './oracles.js';

const SEED = Number(process.env.FF_GROUP_SCAN_SEED ?? 20261205);
const PATTERNS = Number(process.env.FF_GROUP_SCAN_PATTERNS ?? 3000);
const bash = bashVersion();
const LONE_BACKSLASH = /(^|[^\\])(\\\\)*\\$/;

/**
 * Where find-file may say yes and bash no (never the other way), each in docs/contract.md: bash 5.2
 * matches nothing with a segment that has magic and ends in a lone `\` (find-file: the `\` is
 * itself); and after a `*`, bash's matcher never hands a later group the end of the name, nor goes
 * back on its first `*` once a second one is reached (`*+()` matches nothing, `a*!(@)` misses
 * `a@`), where find-file tries every split.
 */
function saysMoreOnPurpose(pattern: string): boolean {
  if (LONE_BACKSLASH.test(pattern)) return true;
  let star = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\') i++;
    else if (star && '?*+@!'.includes(c) && pattern[i + 1] === '(') return true;
    else if (c === '*') star = true;
  }
  return false;
}

const TOKENS = ['@(', '?(', '*(', '+(', '!(', '(', ')', ')', '|', '|', 'a', 'a', 'b', 'c', '[', ']', '[:alpha:]', '\\', '*', '?', '!', '@'];
const NAME_CHARS = ['a', 'b', 'c', '(', ')', '|', '@', '[', ']', '!', '*', '\\', 'x'];

function generatePattern(rng: Rng): string {
  let text = '';
  const n = rng.range(2, 8);
  for (let i = 0; i < n; i++) text += rng.pick(TOKENS);
  return text;
}

const randomName = (rng: Rng, max: number) => Array.from({ length: rng.range(0, max) }, () => rng.pick(NAME_CHARS)).join('');

/** A name the nodes match (a `!(...)` or a set of classes gets a random guess: asked either way). */
function sample(nodes: readonly GlobNode[], rng: Rng): string {
  let out = '';
  for (const node of nodes) {
    if (node.kind === 'char') out += String.fromCodePoint(node.cp);
    else if (node.kind === 'one') out += rng.pick(NAME_CHARS);
    else if (node.kind === 'star') out += randomName(rng, 2);
    else if (node.kind === 'class') {
      const item = node.items.length > 0 && !node.negated ? rng.pick(node.items) : undefined;
      out += item !== undefined && 'lo' in item && item.lo <= item.hi ? String.fromCodePoint(item.lo) : rng.pick(NAME_CHARS);
    } else if (node.kind === 'not') out += randomName(rng, 2);
    else {
      const times = node.op === '@' ? 1 : node.op === '?' ? rng.range(0, 1) : node.op === '+' ? rng.range(1, 2) : rng.range(0, 2);
      for (let t = 0; t < times; t++) out += sample(rng.pick(node.alternatives), rng);
    }
  }
  return out;
}

interface Pair {
  pattern: string;
  name: string;
  expected: boolean;
}

/** Ignoring case, each letter of a text flipped to upper case at random. */
const flipCase = (text: string, rng: Rng) => [...text].map((c) => (rng.chance(0.5) ? c.toUpperCase() : c)).join('');

function generatePairs(caseSensitive: boolean): { pairs: Pair[]; refused: number } {
  const rng = new Rng(caseSensitive ? SEED : SEED + 1);
  const pairs: Pair[] = [];
  let refused = 0;
  for (let k = 0; k < PATTERNS; k++) {
    const pattern = caseSensitive ? generatePattern(rng) : flipCase(generatePattern(rng), rng);
    let glob;
    try {
      glob = compileSegment(pattern, true, pattern, caseSensitive);
    } catch (error) {
      // `!(...)` before the end of a segment or inside a group: refused on purpose (docs/contract.md).
      if (!(error instanceof FindFileError) || error.code !== 'FF_INVALID_PATTERN') throw error;
      refused++;
      continue;
    }
    const names = new Set<string>([pattern]);
    for (let i = 0; i < 12; i++) names.add(dropSome(pattern, rng.range(1, 4), rng));
    for (let i = 0; i < 8; i++) names.add(sample(glob.nodes, rng));
    for (let i = 0; i < 6; i++) names.add(randomName(rng, 5));
    for (const drawn of names) {
      const name = caseSensitive ? drawn : flipCase(drawn, rng);
      pairs.push({ pattern, name, expected: glob.test(name) });
    }
  }
  return { pairs, refused };
}

describe.each([
  ['', true],
  [' ignoring case (nocasematch)', false],
])(`groups, open and closed, as bash ${bash ?? '(missing: this test needs bash 4+)'} scans them%s: ${PATTERNS} generated segments`, (_title, caseSensitive) => {
  let generated: { pairs: Pair[]; refused: number };
  let answer: { matched: Set<number>; read: number };
  /** Ignoring case, the pairs find-file matches and bash does not, that bash matches once both are written lower case. */
  let caseOnly: Set<Pair>;
  beforeAll(async () => {
    expect(bash, 'bash 4+ is on PATH').toBeDefined();
    generated = generatePairs(caseSensitive);
    answer = await bashMatchPairs(generated.pairs, caseSensitive, 'group pairs');
    // bash compares an open group's text with strcmp, case and all, even under nocasematch; find-file
    // folds it as it folds everything else (more, never less). Asked of bash itself, in one case.
    const more = caseSensitive ? [] : generated.pairs.filter((p, i) => p.expected && !answer.matched.has(i));
    const lower = await bashMatchPairs(more.map((p) => ({ ...p, pattern: p.pattern.toLowerCase(), name: p.name.toLowerCase() })), caseSensitive, 'group pairs');
    caseOnly = new Set(more.filter((_, i) => lower.matched.has(i)));
  }, 120_000);

  it('every pair gets bash answer', () => {
    const { pairs } = generated;
    expect(answer.read, 'bash read every pair').toBe(pairs.length);
    const differ = pairs.filter((p, i) => answer.matched.has(i) !== p.expected && !(p.expected && (saysMoreOnPurpose(p.pattern) || caseOnly.has(p))));
    // Where find-file says no first: those would be files missed.
    const shown = [...differ.filter((p) => !p.expected), ...differ.filter((p) => p.expected)].slice(0, 20).map((p) => `${JSON.stringify(p.pattern)} on ${JSON.stringify(p.name)}: bash ${!p.expected}, find-file ${p.expected}`);
    expect(shown, `${differ.length} of ${pairs.length} differ`).toEqual([]);
  });

  it('draws the shapes the family is about, matching and not', () => {
    const { pairs, refused } = generated;
    const matched = pairs.filter((p) => p.expected);
    // Each shape the adversary found, present among pairs bash matched (so the comparison saw it).
    const has = (re: RegExp) => matched.some((p) => re.test(p.pattern));
    expect(has(/[@?*+]\([^)]*$/), 'an opener left open').toBe(true);
    expect(has(/[@?*+]\([^)]*[^@?*+!]\(/), 'a plain ( inside a group').toBe(true);
    expect(has(/[@?*+]\([^)]*\[/), 'a [ inside a group').toBe(true);
    expect(matched.filter((p) => p.name === p.pattern).length, 'names that are their own pattern').toBeGreaterThan(100);
    expect(matched.length).toBeGreaterThan(pairs.length / 10);
    expect(refused).toBeLessThan(PATTERNS / 4);
  });
});
