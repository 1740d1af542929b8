/**
 * node-glob's adapter hears an abort during the stats it makes after the walk (an adversary's
 * find): where a returned link leads (links.ts) and `stat: true` / `withFileTypes` (path-entry.ts)
 * were awaited as long as a stat hung, and the aborted call rejected 20 s late. A family: each of
 * those stats hung in turn x the options that make it; the signal fired at the hung call. The
 * verdict is the rejection itself, with the signal's reason (no clock): before, none came.
 */
import fsPromises from 'node:fs/promises';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import { glob } from '../../src/compat/glob.js';
import { describeIf, posix } from '../helpers/skip-why.js';

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'ff-compat-abort-'));
  mkdirSync(join(root, 'dir'));
  writeFileSync(join(root, 'dir', 'g.js'), '');
  writeFileSync(join(root, 'a.js'), '');
  symlinkSync(join(root, 'dir'), join(root, 'ldir'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));
afterEach(() => {
  vi.restoreAllMocks();
  syncBuiltinESMExports();
});

/** `method` of fs/promises never answers under the root; the first such call aborts `controller`. */
function hangUnderRoot(method: 'stat' | 'lstat', controller: AbortController): void {
  const original = fsPromises[method] as (...args: unknown[]) => Promise<unknown>;
  vi.spyOn(fsPromises, method).mockImplementation(((target: unknown, ...rest: unknown[]) => {
    if (!String(target).startsWith(root)) return original.call(fsPromises, target, ...rest);
    controller.abort(new Error('stop: test'));
    return new Promise(() => {});
  }) as never);
  syncBuiltinESMExports();
}

const CASES = [
  ['stat', 'where a returned link leads (ldir/**)', ['ldir', 'ldir/**'], {}],
  ['lstat', 'stat: true', ['**/*.js'], { stat: true }],
  ['stat', 'withFileTypes, a returned link', ['ldir', 'ldir/**'], { withFileTypes: true }],
] as const;

describeIf(posix('a link to a directory'))('an abort during the stats after the walk', () => {
  for (const [method, what, patterns, extra] of CASES) {
    it(`${method} hangs (${what}): rejects with the signal's reason`, async () => {
      const controller = new AbortController();
      hangUnderRoot(method, controller);
      await expect(glob([...patterns], { cwd: root, signal: controller.signal, ...extra })).rejects.toThrow('stop: test');
      expect(controller.signal.aborted, 'the hung stat was made').toBe(true);
    });
  }
});
