/**
 * Escaped dots and slashes, asked of bash's pathname expansion on a real tree, the pattern typed as
 * script text (as at a prompt): bash reads a segment spelled `\.` as `.`, `\.\.` (or `.\.`, `\..`)
 * as `..`, and an escaped `/` as a separator (`src\/*.ts` is `src/*.ts`, `**\/*.ts` a globstar).
 * find-file read `\.` as a name no listing holds (complete, empty), and `\/` as part of a name.
 * Every pattern of two segments, and of three from a smaller set, each joined by `/` or `\/`: a
 * pattern with a `..` segment, however spelled, is refused as `..` is; every other one finds what
 * bash finds (`./` and `.` segments normalised away), regular files only.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, posix } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFiles } from '../../src/index.js';
import { bashSync, bashVersion } from './oracles.js';

const FILES = ['src/a.ts', 'src/lib/b.ts', 'src/lib/c.js', 'lib/d.ts', '.hid/e.ts', 'f.ts'];
const DOTS = ['.', '\\.'];
const DOT_DOTS = ['..', '\\..', '.\\.', '\\.\\.'];
const SEGMENTS = ['src', 'lib', '*.ts', '**', '*', 's\\rc', ...DOTS, ...DOT_DOTS];
const THREE = ['src', 'lib', '**', '*.ts', '\\.', '\\.\\.', 's\\rc'];
const SEPARATORS = ['/', '\\/'];

function join2(parts: readonly string[], seps: readonly string[]): string {
  return parts.map((p, i) => (i === 0 ? p : seps[i - 1]! + p)).join('');
}

const patterns = [
  ...SEGMENTS.flatMap((a) => SEGMENTS.flatMap((b) => SEPARATORS.map((s) => join2([a, b], [s])))),
  ...THREE.flatMap((a) => THREE.flatMap((b) => THREE.flatMap((c) => SEPARATORS.flatMap((s) => SEPARATORS.map((t) => join2([a, b, c], [s, t])))))),
];

/** True when some segment of the pattern is `..`, however its dots are escaped. */
const climbs = (pattern: string) => pattern.split(/\\?\//).some((s) => DOT_DOTS.includes(s));

/**
 * One bash for every pattern, each typed into the script (the patterns are drawn from the fixed
 * lists above: no quotes, spaces or `$`). Each pattern's regular files, NUL-separated, then a line feed.
 */
function askBash(root: string): string[][] {
  // A climbing pattern is refused, never asked: `..\/**` would list the whole temporary folder.
  const loops = patterns.map((p) => `${climbs(p) ? '' : `for f in ${p}; do [[ -f $f && ! -L $f ]] && printf '%s\\0' "$f"; done; `}printf '\\n'`);
  const run = bashSync(['--norc', '--noprofile', '-s'], `shopt -s extglob dotglob nullglob globstar\n${loops.join('\n')}\n`, { cwd: root });
  if (run.status !== 0) throw new Error(`bash exited ${run.status}: ${run.error?.message ?? run.stderr.toString()}`);
  return run.stdout
    .toString('utf8')
    .split('\n')
    .slice(0, -1)
    .map((line) => [...new Set(line.split('\0').filter((f) => f !== '').map((f) => posix.normalize(f)))].sort());
}

describe(`escaped dots and slashes, as bash ${bashVersion() ?? '(missing: this test needs bash 4+)'} globs them: ${patterns.length} patterns`, () => {
  let root: string;
  let expected: string[][];
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'ff-escaped-sep-'));
    for (const file of FILES) {
      mkdirSync(join(root, dirname(file)), { recursive: true });
      writeFileSync(join(root, file), '');
    }
    expected = askBash(root);
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('refuses each .. however spelled, and finds what bash finds for the rest', async () => {
    expect(expected).toHaveLength(patterns.length);
    const differ: string[] = [];
    for (const [i, pattern] of patterns.entries()) {
      let got: string[] | string;
      try {
        const result = await findFiles({ root, pattern });
        expect(result.complete, pattern).toBe(true);
        got = [...result.matches].sort();
      } catch (error) {
        got = (error as { code?: string }).code ?? String(error);
      }
      // Ending in `.`: a directory (no file), refused as `x/.` is (docs/contract.md).
      const want = climbs(pattern) ? 'FF_PATTERN_OUTSIDE_ROOT' : DOTS.includes(pattern.split(/\\?\//).at(-1)!) ? 'FF_INVALID_PATTERN' : expected[i]!;
      if (JSON.stringify(got) !== JSON.stringify(want)) differ.push(`${pattern}: want ${JSON.stringify(want)}, find-file ${JSON.stringify(got)}`);
    }
    expect(differ.slice(0, 40), `${differ.length} of ${patterns.length} differ`).toEqual([]);
  });

  it('asks the shapes that matter: bash reads \\. as ., \\/ as /', () => {
    const found = (pattern: string) => expected[patterns.indexOf(pattern)];
    expect(found('\\./src')).toEqual([]);
    expect(found('\\./*.ts')).toEqual(['f.ts']);
    expect(found('src\\/*.ts')).toEqual(['src/a.ts']);
    expect(found('**\\/*.ts')).toEqual(['.hid/e.ts', 'f.ts', 'lib/d.ts', 'src/a.ts', 'src/lib/b.ts']);
    expect(found('src/\\./*.ts')).toEqual(['src/a.ts']);
    expect(found('src\\/lib\\/*.ts')).toEqual(['src/lib/b.ts']);
    expect(patterns.filter(climbs).length).toBeGreaterThan(100);
  });
});
