/**
 * Issue 12, row 6: a crafted directory name must not turn a denied directory into "complete" on
 * ripgrep or auto. A directory named `x: gone (os error 2)⏎.` holding a denied `deny` makes ripgrep
 * print one message that reads as two lines: `./src/x: gone (os error 2)` (a forged "vanished") and
 * `./deny: Permission denied (os error 13)` (a path the pattern `src/**` prunes, so it was dropped).
 * The search said complete. Now every path line is held to the disk first (src/rg/stderr.ts).
 *
 * The real attack runs on the real disk as nobody (root reads everything); the line checks run
 * here, as any user, against a real tree.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { findFiles, searchContent } from '../../src/index.js';
import { needsRg, realRg, requireRipgrepInCi } from '../helpers/real-rg.js';
import { buildNobodySandbox, isRoot, writeProbe, type Sandbox } from '../helpers/unprivileged.js';
import { describeIf, posix } from '../helpers/skip-why.js';
import type { SearchAnswer } from '../helpers/search-answer.js';

/** The directory name of the attack: a forged message, a real newline, then `.` so the rest reads `./deny`. */
const CRAFTED = 'x: gone (os error 2)\n.';


/** src/lib/a.ts and src/index.ts readable; src/<CRAFTED>/deny/b.ts denied. With decoys: a denied `deny` at the root too. */
function buildAttackTree(decoys: boolean): string {
  const dir = mkdtempSync(join(tmpdir(), 'ff-hardening-stderr-'));
  for (const file of ['src/lib/a.ts', 'src/index.ts', `src/${CRAFTED}/deny/b.ts`, ...(decoys ? ['deny/c.ts'] : [])]) {
    mkdirSync(join(dir, file, '..'), { recursive: true });
    writeFileSync(join(dir, file), '// TODO\n');
  }
  for (const sub of ['.', 'src', 'src/lib', `src/${CRAFTED}`]) chmodSync(join(dir, sub), 0o755);
  chmodSync(join(dir, `src/${CRAFTED}/deny`), 0o000);
  if (decoys) chmodSync(join(dir, 'deny'), 0o000);
  return dir;
}

function openUp(dir: string): void {
  for (const sub of [`src/${CRAFTED}/deny`, 'deny']) {
    try {
      chmodSync(join(dir, sub), 0o755);
    } catch {
      // not in this tree
    }
  }
  rmSync(dir, { recursive: true, force: true });
}

const PROBE = `
import { findFiles, searchContent } from './dist/index.js';
const [root, rgPath] = process.argv.slice(2);
const out = [];
const keep = (name, r) => out.push({ name, backend: r.backend, matches: r.matches ?? r.hits?.map((h) => h.path) ?? [], skipped: r.skipped, complete: r.complete, incompleteReasons: r.incompleteReasons, fallbackReason: r.fallbackReason });
for (const backend of ['walker', 'ripgrep', 'auto']) {
  keep(backend, await findFiles({ root, pattern: 'src/**/*.ts', backend, rgPath }));
}
// Nothing else matches: auto's ripgrep run fails (an unexplained line) with no match, so the walker answers.
keep('auto-no-match', await findFiles({ root, pattern: 'src/**/*.rs', backend: 'auto', rgPath }));
keep('content-ripgrep', await searchContent({ root, query: 'TODO', pattern: 'src/**/*.ts', backend: 'ripgrep', rgPath }));
console.log(JSON.stringify(out));
`;

requireRipgrepInCi();

describeIf(posix('the forged name holds characters Windows names cannot, and its denied folders need chmod and runuser/setpriv'), needsRg)('a directory name that forges a ripgrep stderr line (real disk)', () => {
  let sandbox: Sandbox | undefined;
  const trees: string[] = [];

  beforeAll(() => {
    if (isRoot) sandbox = buildNobodySandbox();
  }, 120_000);

  afterAll(() => {
    for (const tree of trees) openUp(tree);
    if (sandbox !== undefined) rmSync(sandbox.dir, { recursive: true, force: true });
  });

  async function searchAll(tree: string): Promise<SearchAnswer[]> {
    if (!isRoot) {
      const out: SearchAnswer[] = [];
      const keep = (name: string, r: Omit<SearchAnswer, 'name'> & { hits?: { path: string }[] }) =>
        out.push({ ...r, name, matches: r.matches ?? r.hits?.map((h) => h.path) ?? [] });
      for (const backend of ['walker', 'ripgrep', 'auto'] as const) keep(backend, await findFiles({ root: tree, pattern: 'src/**/*.ts', backend }));
      keep('auto-no-match', await findFiles({ root: tree, pattern: 'src/**/*.rs', backend: 'auto' }));
      keep('content-ripgrep', (await searchContent({ root: tree, query: 'TODO', pattern: 'src/**/*.ts', backend: 'ripgrep' })) as never);
      return out;
    }
    const probe = writeProbe(sandbox!, 'probe-stderr.mjs', PROBE);
    return JSON.parse(sandbox!.runAsNobody(probe, [tree, sandbox!.reachable(realRg.path!)], { PATH: process.env.PATH ?? '/usr/bin:/bin' })) as SearchAnswer[];
  }

  it.each([
    ['the crafted name alone', false],
    ['with decoys that make each half name a real path (a denied ./deny at the root, no src/x)', true],
  ])(`ripgrep and auto are never complete: %s${isRoot ? ' (run as nobody)' : ''}`, async (_, decoys) => {
    const tree = buildAttackTree(decoys);
    trees.push(tree);
    const results = await searchAll(tree);
    const byName = Object.fromEntries(results.map((r) => [r.name, r]));
    // The walker's answer, for reference: the real denied directory, by its real path.
    expect(byName.walker).toMatchObject({
      complete: false,
      incompleteReasons: ['permission-denied'],
      skipped: [{ path: `src/${CRAFTED}/deny`, code: 'EACCES' }],
      matches: ['src/index.ts', 'src/lib/a.ts'],
    });
    // ripgrep's run is not believed (io-error); auto's listing, handed on only at the end, is the walker's.
    const { name: _walker, ...walked } = byName.walker!;
    expect(byName.auto).toMatchObject({ ...walked, backend: 'walker', fallbackReason: 'exit' });
    for (const name of ['ripgrep', 'auto']) {
      const result = byName[name]!;
      expect(result.complete, name).toBe(false);
      expect(result.matches, name).toEqual(['src/index.ts', 'src/lib/a.ts']);
      if (name === 'ripgrep') expect(result.incompleteReasons, name).toContain('io-error');
      // The forged "vanished" line is not believed: no entry for a src/x that never existed.
      expect(result.skipped.map((s) => s.path), name).not.toContain('src/x');
    }
    expect(byName['auto-no-match']).toMatchObject({ backend: 'walker', fallbackReason: 'exit', complete: false, incompleteReasons: ['permission-denied'] });
    expect(byName['content-ripgrep']).toMatchObject({ complete: false });
  }, 60_000);
});
