/**
 * What a ripgrep search reads before it runs rg (the root's real path when rg is looked up, the
 * root's stat and access, the ignore files named) is bounded by the budget and the signal (an
 * adversary's find): a root on a hung mount held findFiles with `auto`, `ripgrep`, and content
 * search's default for as long as the read hung (20 s for a 300 ms budget). A family: each of
 * those reads hung in turn x the three searches x a budget or a signal that fires at the hung call.
 * The verdict is the answer itself, incomplete and saying why (no clock): before, none came.
 */
import { promises as fsp, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import { findFiles, searchContent } from '../../src/index.js';
import { needsRg, requireRipgrepInCi } from '../helpers/real-rg.js';
import { describeIf } from '../helpers/skip-why.js';

requireRipgrepInCi();

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'ff-pre-run-'));
  writeFileSync(join(root, 'a.txt'), 'needle\n');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

/** `method` of fs.promises never answers for the root; `onHang` runs when it is called so. */
function hangOnRoot(method: 'stat' | 'access' | 'realpath', onHang: () => void): void {
  const original = fsp[method] as (...args: unknown[]) => Promise<unknown>;
  vi.spyOn(fsp, method).mockImplementation(((target: unknown, ...rest: unknown[]) => {
    if (String(target) !== root) return original.call(fsp, target, ...rest);
    onHang();
    return new Promise(() => {});
  }) as never);
}

const SEARCHES = [
  ['findFiles auto', (extra: object) => findFiles({ root, pattern: '*.txt', backend: 'auto', ...extra })],
  ['findFiles ripgrep', (extra: object) => findFiles({ root, pattern: '*.txt', backend: 'ripgrep', ...extra })],
  ['searchContent (auto)', (extra: object) => searchContent({ root, query: 'needle', ...extra })],
] as const;

describeIf(needsRg)('a read of the root that hangs before ripgrep runs', () => {
  for (const method of ['stat', 'access', 'realpath'] as const) {
    for (const [what, search] of SEARCHES) {
      it(`${method} hangs, ${what}, a 100 ms budget: answers time-budget`, async () => {
        let hung = 0;
        hangOnRoot(method, () => hung++);
        const result = await search({ timeBudgetMs: 100 });
        expect(hung, 'the read was made and hung').toBeGreaterThan(0);
        expect(result).toMatchObject({ complete: false, incompleteReasons: ['time-budget'] });
      });

      it(`${method} hangs, ${what}, the signal fired at the hung read: answers aborted`, async () => {
        const controller = new AbortController();
        hangOnRoot(method, () => controller.abort());
        const result = await search({ signal: controller.signal });
        expect(result).toMatchObject({ complete: false, incompleteReasons: ['aborted'] });
      });
    }
  }
});
