/**
 * The literal reading beside braces, asked of bash on a real tree (the pattern typed as script
 * text, so bash expands its braces). docs/contract.md: a pattern's literal text also matches the
 * path it names (`app/[id]/page.tsx` finds the folder `[id]`), but not a brace set, which expands
 * first: `a{1,2}[x].txt` is `a1[x].txt` and `a2[x].txt`, never the file named `a{1,2}[x].txt`
 * (find-file found it with a `[...]` beside the braces). Every brace shape (sets, sequences,
 * braces that are no set) beside every kind of magic, in a name and after a folder: find-file
 * finds exactly what bash finds, plus the literal path only where bash's expansion leaves the
 * text as it is.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, posix } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFiles } from '../../src/index.js';
import { bashSync, bashVersion } from './oracles.js';

const BRACES = ['{1,2}', '{1..2}', '{a,b}c', '{x}', '{,1}', '{a}{b,c}', '{1..2}{x,y}', ''];
const MAGIC = ['[x]', '[id]', '@(x)', '+(x)', '[!y]', '?(i)', ''];
const FORMS = ['a%B%M.txt', 'a%M%B.txt', 'd/%M%B', 'd/%B/%M'];
/** Names the expansions and the magic may take, crossed into the tree. */
const BRACE_VALUES = ['1', '2', 'ac', 'bc', '{x}', '', '1x', 'abb', '{1,2}', '1y', '[x]'];
const MAGIC_VALUES = ['x', 'i', 'xx', 'z', '[x]', '@(x)'];

const patterns = [
  ...new Set(FORMS.flatMap((form) => BRACES.flatMap((b) => MAGIC.map((m) => form.replace('%B', b).replace('%M', m))))),
  // None that ends in `/` in some alternative (`d/{,1}`: a directory, refused).
].filter((p) => !p.includes('//') && !p.endsWith('/') && !p.endsWith('/{,1}'));

const files = new Set<string>(patterns.filter((p) => /[[(]/.test(p)));
for (const b of BRACE_VALUES) {
  for (const m of MAGIC_VALUES) for (const form of FORMS) files.add(form.replace('%B', b).replace('%M', m));
}
const paths = [...files].filter((f) => !f.includes('//') && !f.endsWith('/') && !f.startsWith('/'));
// A name that is also a folder of another path stays a folder.
const tree = paths.filter((f) => !paths.some((g) => g.startsWith(`${f}/`)));

/**
 * One bash for every pattern: its brace expansion (noglob), a line feed, the regular files its
 * words match, a line feed. The patterns come from the fixed lists above (no quotes, spaces or `$`).
 */
function askBash(root: string): { words: string[]; found: string[] }[] {
  const script = patterns.map((p) => `set -f; printf '%s\\0' ${p}; printf '\\n'; set +f; for f in ${p}; do [[ -f $f && ! -L $f ]] && printf '%s\\0' "$f"; done; printf '\\n'`);
  const run = bashSync(['--norc', '--noprofile', '-s'], `shopt -s extglob dotglob nullglob globstar\n${script.join('\n')}\n`, { cwd: root });
  if (run.status !== 0) throw new Error(`bash exited ${run.status}: ${run.error?.message ?? run.stderr.toString()}`);
  const lines = run.stdout.toString('utf8').split('\n');
  const split = (line: string) => line.split('\0').filter((f) => f !== '');
  return patterns.map((_, i) => ({ words: split(lines[2 * i]!), found: [...new Set(split(lines[2 * i + 1]!).map((f) => posix.normalize(f)))].sort() }));
}

describe(`the literal reading beside braces, as bash ${bashVersion() ?? '(missing: this test needs bash 4+)'} expands them: ${patterns.length} patterns`, () => {
  let root: string;
  let answers: { words: string[]; found: string[] }[];
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'ff-literal-brace-'));
    for (const file of tree) {
      mkdirSync(join(root, dirname(file)), { recursive: true });
      writeFileSync(join(root, file), '');
    }
    answers = askBash(root);
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('finds what bash finds, and the literal path only when no brace set expands', async () => {
    const differ: string[] = [];
    for (const [i, pattern] of patterns.entries()) {
      const { words, found } = answers[i]!;
      // Not for a `*` or `?` either (docs/contract.md: no one types such a name to find it).
      const literal = words.length === 1 && words[0] === pattern && !/[*?]/.test(pattern);
      const want = [...new Set([...found, ...(literal && tree.includes(pattern) ? [pattern] : [])])].sort();
      const result = await findFiles({ root, pattern });
      expect(result.complete, pattern).toBe(true);
      const got = [...result.matches].sort();
      if (JSON.stringify(got) !== JSON.stringify(want)) differ.push(`${pattern}: want ${JSON.stringify(want)}, find-file ${JSON.stringify(got)}`);
    }
    expect(differ.slice(0, 20), `${differ.length} of ${patterns.length} differ`).toEqual([]);
  });

  it('asks the shapes that matter', () => {
    const of = (pattern: string) => answers[patterns.indexOf(pattern)]!;
    expect(of('a{1,2}[x].txt').found).toEqual(['a1x.txt', 'a2x.txt']);
    expect(of('a{x}[x].txt').words).toEqual(['a{x}[x].txt']);
    expect(patterns.filter((p, i) => p.includes('{') && answers[i]!.words.length > 1).length).toBeGreaterThan(50);
  });
});
