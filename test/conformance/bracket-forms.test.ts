/**
 * Sets as bash reads them, asked of bash itself: generated segments built from the pieces of a
 * bracket expression (`[`, `]`, `!`, `-`, `\`, `[:`, `:]`, `[.`, `[=`, class names, escaped ones),
 * each matched against names made to catch both readings (single characters, the segment itself,
 * the segment with characters dropped, names find-file's reading matches), as
 * `[[ $name == $pattern ]]` in bash 5 (C.UTF-8), one process. The family the adversary found:
 * a `[:` never closed (bash 5.2 drops its `[`: `[[:alpha]` is the set of `:alpha`), a `[.` never
 * closed (the whole set is never closed: its `[` is literal), a backslash in a class name (bash
 * removes it: `[[:al\pha:]]` is `[[:alpha:]]`). Collating symbols and equivalence classes closed
 * with `.]` or `=]` are refused on purpose (docs/contract.md).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { compileSegment } from '../../src/glob/segment.js';
import type { GlobNode } from '../../src/glob/parse.js';
import { FindFileError } from '../../src/errors.js';
import { Rng, dropSome } from './generate.js';
import { bashMatchPairs, bashVersion } from './oracles.js';

const PATTERNS = 3000;
const bash = bashVersion();
/** bash 5.2 matches nothing with a segment that has magic and ends in a lone `\` (find-file: the `\` itself): more, on purpose. */
const LONE_BACKSLASH = /(^|[^\\])(\\\\)*\\$/;

const TOKENS = ['[', '[', '[', ']', ']', '!', '^', '-', ':', '.', '=', 'a', 'l', 'x', '1', '\\', '[:', '[:', '[.', '[=', ':]', '.]', 'alpha', 'al\\pha', 'digit\\', '\\:', 'upper', '*', '?', '[:al\\pha:]', '[:alpha\\:]', '[:\\d\\igit:]', '[:upp\\\\er:]'];
const NAME_CHARS = ['a', 'l', 'p', 'h', 'x', 'X', '1', '[', ']', ':', '.', '=', '!', '^', '-', '\\', '_'];

/**
 * Not drawn: shapes where bash 5.2's matcher ends a set in one place when it looks for a member and
 * in another when it skips the rest after a match (so a set means one thing for one name and
 * another for the next), and others, left alone: more than one `[:`, `[.` or `[=` in a set
 * (`[l[:[:]` matches `l`), a class name ended by an escaped `\:]` after another member (`[]a[:x\:]`
 * matches `a`), a `]` inside a class name (`[-=[:]^]:]]` does not match `=`), a `[.` or `[:` as a
 * range's end (bash reads a collating symbol or a class there: find-file the `[`), and a set never
 * closed that ends in a range to the end of the pattern (`[a-`: bash matches nothing, find-file
 * the text). Each is tested on the text after the opening `[`.
 */
const QUIRKS = [/\[[:.=].*\[[:.=]/, /^[!^]?(?!\[:).*\\:\]/, /\[:[^:]*\][^:]*:\]/, /-\[[:.=]/, /-$/];
function generatePattern(rng: Rng): string {
  for (;;) {
    let text = '[';
    for (let n = rng.range(1, 7); n > 0; n--) text += rng.pick(TOKENS);
    if (rng.chance(0.7)) text += ']';
    if (!QUIRKS.some((quirk) => quirk.test(text.slice(1)))) return text;
  }
}

/** A name the nodes match (a negated set or a class gets a random guess: asked either way). */
function sample(nodes: readonly GlobNode[], rng: Rng): string {
  let out = '';
  for (const node of nodes) {
    if (node.kind === 'char') out += String.fromCodePoint(node.cp);
    else if (node.kind === 'class') {
      const item = node.items.length > 0 && !node.negated ? rng.pick(node.items) : undefined;
      out += item !== undefined && 'lo' in item && item.lo <= item.hi ? String.fromCodePoint(rng.range(item.lo, Math.min(item.hi, item.lo + 3))) : rng.pick(NAME_CHARS);
    } else out += rng.pick(NAME_CHARS);
  }
  return out;
}

interface Pair {
  pattern: string;
  name: string;
  expected: boolean;
}

function generatePairs(): { pairs: Pair[]; refused: number } {
  const rng = new Rng(20261207);
  const pairs: Pair[] = [];
  let refused = 0;
  for (let k = 0; k < PATTERNS; k++) {
    const pattern = generatePattern(rng);
    let glob;
    try {
      glob = compileSegment(pattern, true, pattern, true);
    } catch (error) {
      if (!(error instanceof FindFileError) || !/collating/.test(error.message)) throw error;
      refused++;
      continue;
    }
    const names = new Set<string>([pattern, ...NAME_CHARS]);
    for (let i = 0; i < 6; i++) names.add(dropSome(pattern, rng.range(1, 4), rng));
    for (let i = 0; i < 6; i++) names.add(sample(glob.nodes, rng));
    // A name holds no `/` (a set meets one only in bash's `[[ ]]`).
    for (const name of names) if (name !== '' && !name.includes('/')) pairs.push({ pattern, name, expected: glob.test(name) });
  }
  return { pairs, refused };
}

describe(`sets, closed and not, as bash ${bash ?? '(missing: this test needs bash 4+)'} reads them: ${PATTERNS} generated segments`, () => {
  let generated: { pairs: Pair[]; refused: number };
  let matched: Set<number>;
  let read = -1;
  beforeAll(async () => {
    expect(bash, 'bash 4+ is on PATH').toBeDefined();
    generated = generatePairs();
    ({ matched, read } = await bashMatchPairs(generated.pairs, true, 'bracket pairs'));
  }, 120_000);

  it('every pair gets bash answer', () => {
    const { pairs } = generated;
    expect(read, 'bash read every pair').toBe(pairs.length);
    const differ = pairs.filter((p, i) => matched.has(i) !== p.expected && !(p.expected && LONE_BACKSLASH.test(p.pattern)));
    const shown = differ.slice(0, 20).map((p) => `${JSON.stringify(p.pattern)} on ${JSON.stringify(p.name)}: bash ${!p.expected}, find-file ${p.expected}`);
    expect(shown, `${differ.length} of ${pairs.length} differ`).toEqual([]);
  });

  it('draws the shapes the family is about, matching and not', () => {
    const { pairs, refused } = generated;
    const hits = pairs.filter((p) => p.expected);
    const has = (re: RegExp) => hits.some((p) => re.test(p.pattern));
    expect(has(/\[[^\]]*\[:(?!.*:\])/), 'a [: never closed').toBe(true);
    expect(pairs.some((p) => /\[[^\]]*\[\.(?!.*\.\])/.test(p.pattern) && p.name === p.pattern && p.expected), 'a [. never closed: the text itself').toBe(true);
    expect(has(/\[:[a-z]*\\[a-z:]*:\]/), 'a backslash in a class name').toBe(true);
    expect(hits.length).toBeGreaterThan(pairs.length / 20);
    expect(refused).toBeLessThan(PATTERNS / 4);
  });
});
