/**
 * Ranges with ASCII ends, ignoring case, asked of bash's pathname expansion under `nocaseglob` on
 * a tree of one-character names (every printable ASCII character but `/` and `.`). bash lowers the
 * range's ends and the character before it compares: `[0-Z]` is `[0-z]` (so `^` and `_` are in
 * it), `[!:-a]` keeps `B` (`b` is past `a`), `[a-Z]` is `[a-z]`. find-file asked whether any case
 * partner was in the range as written, and found fewer. Every range between ends drawn around the
 * letters, negated or not, alone and beside a letter.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFiles } from '../../src/index.js';
import { bashGlobEach, bashVersion } from './oracles.js';

const NAMES = Array.from({ length: 94 }, (_, k) => String.fromCharCode(33 + k)).filter((c) => c !== '/' && c !== '.');
const ENDS = ['0', '9', ':', '@', 'A', 'M', 'Z', '[', '_', '`', 'a', 'm', 'z', '{', '~', '#'];
const patterns = ENDS.flatMap((lo) => ENDS.flatMap((hi) => [`[${lo}-${hi}]`, `[!${lo}-${hi}]`, `[${lo}-${hi}Q]`, `[!q${lo}-${hi}]`]));

/** One bash for every pattern, read NUL-separated from stdin (never script text): its matches, NUL-separated, then a line feed. */

describe(`ASCII ranges ignoring case, as bash ${bashVersion() ?? '(missing: this test needs bash 4+)'} reads them under nocaseglob: ${patterns.length} patterns`, () => {
  let root: string;
  let expected: string[][];
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'ff-nocase-range-'));
    for (const name of NAMES) writeFileSync(join(root, name), '');
    expected = bashGlobEach(root, patterns, ['extglob', 'dotglob', 'nullglob', 'nocaseglob']);
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('finds what bash finds, on both engines (a range alone is a regex, between two stars the state sets)', async () => {
    expect(expected).toHaveLength(patterns.length);
    const differ: string[] = [];
    for (const [i, pattern] of patterns.entries()) {
      for (const form of [pattern, `*${pattern}*`]) {
        const result = await findFiles({ root, pattern: form, caseSensitive: false });
        const got = [...result.matches].sort();
        if (JSON.stringify(got) !== JSON.stringify(expected[i])) differ.push(`${form}: bash ${JSON.stringify(expected[i])}, find-file ${JSON.stringify(got)}`);
      }
    }
    expect(differ.slice(0, 20), `${differ.length} of ${2 * patterns.length} differ`).toEqual([]);
  });

  it('asks the shapes that matter', () => {
    const found = (pattern: string) => expected[patterns.indexOf(pattern)]!;
    expect(found('[0-Z]')).toContain('^');
    expect(found('[!:-a]')).toContain('B');
    expect(found('[a-Z]')).toContain('Q');
  });
});
