/**
 * bin/load-bundle.mjs: the bins start from the code V8 compiled for their bundle at build time
 * (scripts/code-cache.mjs), and only from code made for that very bundle. On copies of the real
 * build's bundle and cache (`npm test` builds first), in a temporary folder.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const loader = new URL('../../bin/load-bundle.mjs', import.meta.url);
const built = fileURLToPath(new URL('../../dist/cli/bundle.cjs', import.meta.url));
const keepCode = fileURLToPath(new URL('../../scripts/code-cache.mjs', import.meta.url));
const sources = fileURLToPath(new URL('../../src/walk', import.meta.url));

interface Compiled {
  kept: 'used' | 'none' | 'stale' | 'rejected';
  script: { runInThisContext(): unknown };
}
const { compileBundle, runBundle, cachePathOf, BUNDLE_MARK, MARK_BYTES, markFor } = (await import(loader.href)) as {
  compileBundle(bundle: string): Compiled;
  runBundle(script: Compiled['script'], bundle: string): { main?: unknown };
  cachePathOf(bundle: string): string;
  BUNDLE_MARK: string;
  MARK_BYTES: number;
  markFor(sha256Hex: string): string;
};

/** The bundle, compiled and run as the bins run it: its `main`, which they call. */
function mainOf(compiled: Compiled, bundle: string): unknown {
  return runBundle(compiled.script, bundle).main;
}

describe('the bins load their bundle with the code kept at build time', () => {
  let dir: string;
  let bundle: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'ff-load-bundle-'));
    bundle = join(dir, 'bundle.cjs');
    copyFileSync(built, bundle);
    copyFileSync(cachePathOf(built), cachePathOf(bundle));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("uses the build's code for the bundle it was made from (this Node, these flags)", () => {
    const compiled = compileBundle(bundle);
    expect(compiled.kept).toBe('used');
    expect(typeof mainOf(compiled, bundle)).toBe('function');
  });

  it('never uses code made from another build of the bundle, even of the same length (V8 checks only the length)', () => {
    // A rebuild: another digest in the mark, the old cache left beside it.
    const bytes = readFileSync(bundle);
    const markAt = bytes.lastIndexOf(BUNDLE_MARK);
    expect(markAt).toBeGreaterThan(0);
    const rebuilt = Buffer.concat([bytes.subarray(0, markAt), Buffer.from(markFor('0'.repeat(64)))]);
    expect(rebuilt.length).toBe(bytes.length);
    writeFileSync(bundle, rebuilt);
    const compiled = compileBundle(bundle);
    expect(compiled.kept).toBe('stale');
    expect(typeof mainOf(compiled, bundle)).toBe('function');
  });

  it('compiles from the source when V8 rejects the kept code, or there is none', () => {
    const cache = readFileSync(cachePathOf(bundle));
    // The mark matches, the bytes after it are not V8's: V8 says so, and the source is compiled.
    writeFileSync(cachePathOf(bundle), Buffer.concat([cache.subarray(0, MARK_BYTES), Buffer.alloc(cache.length - MARK_BYTES, 0x5a)]));
    const rejected = compileBundle(bundle);
    expect(rejected.kept).toBe('rejected');
    expect(typeof mainOf(rejected, bundle)).toBe('function');

    rmSync(cachePathOf(bundle));
    const none = compileBundle(bundle);
    expect(none.kept).toBe('none');
    expect(typeof mainOf(none, bundle)).toBe('function');
  });

  /** scripts/code-cache.mjs over the copy: its status and stderr, and the size of the code it kept. */
  function keepCodeOf(...args: string[]): { status: number | null; stderr: string; size: number } {
    rmSync(cachePathOf(bundle), { force: true });
    const run = spawnSync(process.execPath, [keepCode, bundle, ...args], { encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'], timeout: 120_000 });
    let size = 0;
    try {
      size = statSync(cachePathOf(bundle)).size;
    } catch {
      // none kept
    }
    return { status: run.status, stderr: run.stderr, size };
  }

  it('keeps the code of every run it is given (split by ---), so a content search starts compiled as a listing does', () => {
    const listing = ['--color', 'never', '**/*.ts', sources];
    const content = ['--color', 'never', '--contains', 'export', '--root', sources];
    const alone = keepCodeOf(...listing);
    const both = keepCodeOf(...listing, '---', ...content);
    expect([alone.status, both.status]).toEqual([0, 0]);
    // The content run compiled the content modules and the hits' path: more code kept (75-90 KB more
    // on Node 20), and V8 takes it.
    expect(both.size).toBeGreaterThan(alone.size + 20_000);
    expect(compileBundle(bundle).kept).toBe('used');
    // A run that fails is not kept quietly: the build step fails, naming it.
    const failed = keepCodeOf('--no-such-flag', '---', ...content);
    expect(failed.status).not.toBe(0);
    expect(failed.stderr).toMatch(/code-cache: the run --no-such-flag exited [12]/);
  });
});
