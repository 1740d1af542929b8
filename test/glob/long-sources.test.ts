/**
 * Patterns of thousands of pieces, under the 10,000-character limit: V8's regex compiler recurses
 * per node and overflows its stack on a linear source that long (`?` 7,000 times: "Invalid regular
 * expression: Stack overflow" at the first match, thrown mid-walk; an adversarial run through the
 * agent tools, which then rejected). Such a source is matched another way (the state sets, the path
 * stepper): the search answers, and answers right. A generated family: each piece, each length,
 * a name that matches and one that does not, as a base name, under a folder, and merged with others.
 */
import { describe, expect, it } from 'vitest';
import { findFiles, findFilesSync } from '../../src/index.js';
import { buildVolume } from '../helpers/memfs.js';

/** Each piece matches one character, `a` among them; lengths up to the pattern limit. A name one short never matches. */
const PIECES = ['?', '[a]', '[!b]', '[a-c]', '@(a)'];
const LENGTHS = [1000, 4000, 7000];

describe('patterns thousands of pieces long answer, as the pieces say', () => {
  for (const piece of PIECES) {
    for (const length of LENGTHS) {
      const count = Math.min(length, Math.floor(9990 / piece.length));
      it(`${JSON.stringify(piece)} × ${count}`, async () => {
        const yes = 'a'.repeat(count);
        const no = 'a'.repeat(count - 1);
        const vol = buildVolume({ [yes]: '', [no]: '', d: { [yes]: '', [no]: '' }, short: '' });
        const pattern = piece.repeat(count);
        for (const [patterns, expected] of [
          [pattern, [yes, `d/${yes}`]],
          [`d/${pattern}`, [`d/${yes}`]],
          // Merged with other alternatives into one regex: the whole chunk falls back, each alone.
          [[pattern, 'short', 'x?'], [yes, `d/${yes}`, 'short']],
        ] as const) {
          const options = { root: '/root', fs: vol, pattern: patterns as string | string[] };
          expect((await findFiles(options)).matches, JSON.stringify(patterns).slice(0, 40)).toEqual(expected);
          expect(findFilesSync(options).matches).toEqual(expected);
        }
      });
    }
  }
});
