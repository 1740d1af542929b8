/**
 * Brace sets in ignore files, a generated family against the real rg: `{...}` with empty
 * alternatives (`a{b,}`, `{,a}b`, `a{b,,c}`, `x{,}y`) beside stars, sets and `?`. globset drops an
 * empty alternative (all empty, the group is nothing), so `a{b,}` ignores `ab` and keeps `a`, where
 * bash's reading would ignore both. An adversarial fuzzer found the walker hiding `a` and `sub/a`
 * that `rg --files` lists (10 of its 290 seeds, each with an empty alternative). Each rule here is
 * one tree; every form with `gitignore: true` must list what the real rg lists.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Rng } from '../conformance/generate.js';
import { searchForms } from '../helpers/forms.js';
import { buildTrees, files, rgFiles, type Trees } from '../helpers/ignore-trees.js';
import { realRg } from '../helpers/real-rg.js';

const RULES = 60;
const NAMES = ['a', 'ab', 'ac', 'abc', 'b', 'c', 'x', 'xy', 'xby', 'a.txt', 'ab.txt', 'y', 'by', 'sub/a', 'sub/ab', 'sub/b', 'sub/xy'];

function generateRules(count: number): string[] {
  const rng = new Rng(20261206);
  const rules = new Set<string>();
  while (rules.size < count) {
    const alternatives = Array.from({ length: rng.range(1, 4) }, () => rng.pick(['', '', '', 'b', 'c', '*', 'b*', '?', '[bc]']));
    const rule = `${rng.pick(['', 'a', 'x', '*', 'sub/', '/'])}{${alternatives.join(',')}}${rng.pick(['', 'y', '.txt', 'c'])}`;
    // A rule of `/` and braces alone may ignore everything or nothing: still a row, as rg reads it.
    rules.add(rule);
  }
  return [...rules];
}

const rules = generateRules(RULES);
let trees: Trees;
const oracle = new Map<string, string[]>();

beforeAll(() => {
  trees = buildTrees('ff-ignore-braces-', Object.fromEntries(rules.map((rule, i) => [`r${i}`, { '.git/': '', '.gitignore': `${rule}\n`, ...files(...NAMES) }])));
  rules.forEach((_rule, i) => oracle.set(`r${i}`, rgFiles(trees.dirOf(`r${i}`))));
});

afterAll(() => trees?.cleanup());

describe('brace sets with empty alternatives in a .gitignore', () => {
  it('the family holds the shapes it is about: most rules have an empty alternative, and rg keeps a name one would ignore', () => {
    const withEmpty = (rule: string) => /[{,](,|\})/.test(rule);
    expect(rules.filter(withEmpty).length).toBeGreaterThanOrEqual(RULES / 2);
    // `a{b,}`'s kind: the name the empty alternative spells (`a`) is kept, where reading it as "nothing here" would ignore it.
    const keptEmptyReading = rules.filter((rule, i) => {
      const [, before, inside, after] = /^([^{]*)\{([^}]*)\}(.*)$/.exec(rule)!;
      const alternatives = inside!.split(',');
      const spelled = `${before}${after}`.replace(/^\//, '');
      return alternatives.includes('') && alternatives.some((alt) => alt !== '') && NAMES.includes(spelled) && oracle.get(`r${i}`)!.includes(spelled);
    });
    expect(keptEmptyReading.length).toBeGreaterThanOrEqual(3);
  });

  // `auto` is ripgrep again where rg is installed; the ripgrep form costs a process per rule.
  describe.each(searchForms(realRg.path).filter(([form]) => form !== 'auto'))('%s lists what rg lists', (_form, search) => {
    it.each(rules.map((rule, i) => [rule, i] as const))('%s', async (_rule, i) => {
      const result = await search({ root: trees.dirOf(`r${i}`), pattern: '**', gitignore: true });
      expect([...result.matches].sort()).toEqual(oracle.get(`r${i}`));
      expect(result.complete).toBe(true);
    });
  });
});
