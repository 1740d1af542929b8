/**
 * `gitignore: true` against its oracle, the real ripgrep 13: for each fixture (fixtures.ts) every
 * search form lists exactly the files `rg --files --hidden --no-ignore-global` lists in the same
 * root, and says `complete: true` (an ignored entry is policy, never a gap). Content search reads
 * the same file set: a query that hits every non-empty file hits exactly the files rg lists.
 *
 * Two steps per fixture, so a failure says which side is wrong: first the machine's rg must still
 * list what the fixture says rg 13 lists (the oracle); then find-file must list what that rg lists.
 * No test here skips when ripgrep is missing: the oracle is the point, so they fail.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchContent, type BackendName } from '../../src/index.js';
import { searchForms } from '../helpers/forms.js';
import { buildTrees, rgVersion, runRg, type Trees } from '../helpers/ignore-trees.js';
import { realRg } from '../helpers/real-rg.js';
import { FIXTURES, type IgnoreFixture } from './fixtures.js';

const isPosix = process.platform !== 'win32';
const CASES = FIXTURES.filter((f) => f.onlyOn === undefined || (f.onlyOn === 'posix' ? isPosix : process.platform === 'linux'));

let trees: Trees;
/** rg's answer for each fixture's root, asked once. */
const oracle = new Map<string, string[]>();
const warnings = new Map<string, string>();
const rootOf = (f: IgnoreFixture) => join(trees.dirOf(f.name), ...(f.root ?? '').split('/').filter(Boolean));

beforeAll(() => {
  trees = buildTrees('ff-ignore-parity-', Object.fromEntries(CASES.map((f) => [f.name, f.tree])));
  for (const f of CASES) {
    const listing = runRg(rootOf(f), ['--files']);
    oracle.set(f.name, listing.files);
    warnings.set(f.name, listing.stderr);
  }
});

afterAll(() => trees?.cleanup());

/** Every regular file below `dir` (no fixture holds a link). */
function allFiles(dir: string, base = ''): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? allFiles(join(dir, e.name), `${base}${e.name}/`) : e.isFile() ? [base + e.name] : [],
  );
}

/**
 * `ignoredCount` by the contract: ripgrep applies the rules itself and reports 0; the walker counts
 * what it left out (an ignored directory once), so it is 0 exactly when rg left nothing out.
 */
function expectIgnoredCount(backend: BackendName, ignoredCount: number, f: IgnoreFixture): void {
  if (backend === 'ripgrep') return void expect(ignoredCount).toBe(0);
  const leftOut = allFiles(rootOf(f)).length - oracle.get(f.name)!.length;
  if (leftOut === 0) expect(ignoredCount).toBe(0);
  else expect(ignoredCount).toBeGreaterThan(0);
}

describe('the oracle: the real rg lists what each fixture says ripgrep 13 lists', () => {
  it('is ripgrep 13', () => {
    expect(rgVersion()).toMatch(/^ripgrep 13\./);
  });

  it('rg --files-with-matches . reads exactly the listed files (what the content tests compare with)', () => {
    for (const f of CASES) expect(runRg(rootOf(f), ['--files-with-matches', '--regexp', '.']).files, f.name).toEqual(oracle.get(f.name));
  });

  it.each(CASES.map((f) => [f.name, f] as const))('%s', (_name, f) => {
    expect(oracle.get(f.name)).toEqual(f.lists);
    if (f.warns === undefined) expect(warnings.get(f.name)).toBe('');
    else for (const warning of f.warns) expect(warnings.get(f.name)).toMatch(warning);
  });
});

describe.each(searchForms(realRg.path))('%s lists what rg lists', (_form, search) => {
  it.each(CASES.map((f) => [f.name, f] as const))('%s', async (_name, f) => {
    const result = await search({ root: rootOf(f), pattern: '**', gitignore: true });
    expect([...result.matches].sort()).toEqual(oracle.get(f.name));
    expect(result.complete).toBe(true);
    expect(result.incompleteReasons).toEqual([]);
    expectIgnoredCount(result.backend, result.ignoredCount, f);
  });
});

describe.each(['walker', 'ripgrep'] as const)('searchContent (%s) reads the files rg lists', (backend) => {
  it.each(CASES.map((f) => [f.name, f] as const))('%s', async (_name, f) => {
    const root = rootOf(f);
    // `.` (any character) has a hit in every file that is not empty: every fixture file is text
    // and holds something, so that is rg's listing (the oracle's tests check it once: a process each).
    const expected = oracle.get(f.name);
    const result = await searchContent({ root, query: '.', mode: 'regex', gitignore: true, backend, rgPath: realRg.path });
    expect([...new Set(result.hits.map((h) => h.path))].sort()).toEqual(expected);
    expect(result.complete).toBe(true);
    expectIgnoredCount(result.backend, result.ignoredCount, f);
  });
});
