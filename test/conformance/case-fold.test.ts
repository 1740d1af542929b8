/**
 * Ignoring case, letter by letter, against bash's nocaseglob (C.UTF-8), the dialect oracle: every
 * difference must be one docs/contract.md lists and test/conformance/deviations.ts holds. An
 * adversarial run found the documented list naming only the KELVIN SIGN and LONG S while bash also
 * joins ẞ/ß, İ/i, ϴ/θ, 𐐀/𐐨 and the OHM and ANGSTROM signs, and find-file matches more in `[Ç-ç]`,
 * `[ÿ-Ÿ]` and `[µ]`. The seeded conformance trees hold none of these letters: this family does.
 *
 * Each letter alone in brackets (bash then globs the segment), and ranges with non-ASCII ends, in
 * both case modes; case-sensitive must agree exactly. The ripgrep backend must answer as the walker.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { findFiles } from '../../src/index.js';
import { hasRg } from '../helpers/real-rg.js';
import { describeIf, posix } from '../helpers/skip-why.js';
import { knownDeviation, type Disagreement } from './deviations.js';
import { bashOracle, bashVersion, listRegularFiles, type OracleCase } from './oracles.js';

const LETTERS = [
  'ß', 'ẞ', 's', 'S', 'ſ', 'i', 'I', 'İ', 'ı', 'θ', 'Θ', 'ϴ', 'ϑ', 'ω', 'Ω', '\u2126', 'å', 'Å', '\u212B', 'k', 'K', '\u212A',
  '𐐀', '𐐨', 'µ', 'μ', 'Μ', 'ς', 'σ', 'Σ', 'ϐ', 'β', 'ϕ', 'φ', 'Φ', 'ç', 'Ç', 'è', 'È', 'ÿ', 'Ÿ', 'à', 'À', 'a', 'z', '_',
];
const RANGES = ['Ç-ç', 'ÿ-Ÿ', 'à-ÿ', 'À-Þ', 'a-z', 'α-ω', 'Α-Ω'];
const PATTERNS = [...LETTERS, ...RANGES].map((inside) => `f[${inside}].t`);

let root: string;
let files: string[];
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'ff-case-fold-'));
  for (const letter of LETTERS) writeFileSync(join(root, `f${letter}.t`), '');
  files = listRegularFiles(root);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describeIf(posix('bash is the oracle'), [bashVersion() !== undefined, 'bash is not installed'])('ignoring case, letter by letter, as bash or as documented', () => {
  it('every difference from bash is a listed deviation, and both fold deviations are met', async () => {
    const cases: OracleCase[] = PATTERNS.flatMap((pattern) => [{ pattern, nocase: true }, { pattern, nocase: false }]);
    const answers = bashOracle(root, cases, new Set(files));
    const unexplained: Disagreement[] = [];
    const met = new Set<string>();
    for (const [i, c] of cases.entries()) {
      const ours = (await findFiles({ root, pattern: c.pattern, caseSensitive: !c.nocase })).matches.map(String);
      const expected = answers[i]!.expected;
      const d: Disagreement = { oracle: 'bash', pattern: c.pattern, nocase: c.nocase, tree: 0, root, expectedOnly: [...expected].filter((p) => !ours.includes(p)), actualOnly: ours.filter((p) => !expected.has(p)) };
      // Each side on its own: a range can miss what bash folds in and hold what bash folds out.
      const sides = [{ ...d, actualOnly: [] }, { ...d, expectedOnly: [] }].filter((side) => side.expectedOnly.length + side.actualOnly.length > 0);
      for (const side of sides) {
        const deviation = knownDeviation(side);
        if (deviation === undefined || !c.nocase) unexplained.push(side);
        else met.add(deviation.reason.slice(0, 40));
      }
    }
    expect(unexplained).toEqual([]);
    // The towlower joins bash has and find-file does not, and the joins and ranges find-file has.
    expect([...met].sort()).toEqual(["bash's nocaseglob folds with towlower, w", 'ignoring case, find-file joins what Java']);
  });

  it.runIf(hasRg)('the ripgrep backend folds as the walker', async () => {
    const differ: string[] = [];
    for (const pattern of PATTERNS) {
      const walker = (await findFiles({ root, pattern, caseSensitive: false, backend: 'walker' })).matches.map(String).sort();
      const rg = (await findFiles({ root, pattern, caseSensitive: false, backend: 'ripgrep' })).matches.map(String).sort();
      if (walker.join('\0') !== rg.join('\0')) differ.push(pattern);
    }
    expect(differ).toEqual([]);
  });
});
