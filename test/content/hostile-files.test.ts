/**
 * Issue 12, rows 5 and 8: content search opens only what the walk listed. Real disk, with an fs
 * that swaps an entry between the listing and the open (the race an attacker with write access
 * to the tree can win): a FIFO cannot block the search, a link is not read through, and a file
 * that waits for data (/proc/kmsg) cannot keep the process from exiting.
 */
import { spawnSync } from 'node:child_process';
import fsModule from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import * as nodeFs from 'node:fs';
import { existsSync, mkdtempSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ONE_THREAD } from '../../src/content/search.js';
import { searchContent } from '../../src/index.js';
import { describeIf, linux, posixOnly } from '../helpers/skip-why.js';

let base: string;
let root: string;
beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'ff-swap-'));
  root = join(base, 'root');
  nodeFs.mkdirSync(root);
  writeFileSync(join(root, 'a.txt'), 'needle in a\n');
  writeFileSync(join(root, 'z.txt'), 'needle in z\n');
  writeFileSync(join(base, 'secret'), 'needle SECRET\n');
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

/** node:fs, except that opening `victim` (through `open`, or `openSync` for one-thread.ts) first replaces it by what `swap` makes. */
function swappingFs(victim: string, swap: (path: string) => void) {
  const swapIfVictim = (path: string) => {
    if (path !== victim) return;
    unlinkSync(path);
    swap(path);
  };
  return {
    ...nodeFs,
    open(path: string, flags: string | number, callback: (error: NodeJS.ErrnoException | null, fd: number) => void) {
      swapIfVictim(path);
      nodeFs.open(path, flags, callback);
    },
    openSync(path: string, flags: string | number) {
      swapIfVictim(path);
      return nodeFs.openSync(path, flags);
    },
  };
}

// Both pure-TS engines: walker.ts (a time budget) and one-thread.ts (none; an injected fs reaches it through `ONE_THREAD.anyFs`).
const ENGINES = [
  { name: 'walker.ts', anyFs: false, options: { timeBudgetMs: 10_000 } },
  { name: 'one-thread.ts', anyFs: true, options: {} },
] as const;

describe.skipIf(process.platform === 'win32')(posixOnly('an entry swapped between listing and reading', 'the swaps need mkfifo, and the link case O_NOFOLLOW (ELOOP), which Windows opens do not have'), () => {
  afterEach(() => (ONE_THREAD.anyFs = false));

  it.each(ENGINES)('a FIFO swapped in for a file is not read (no blocked thread): skipped as EFTYPE, incomplete ($name)', async ({ anyFs, options }) => {
    ONE_THREAD.anyFs = anyFs;
    const fs = swappingFs(join(root, 'a.txt'), (path) => expect(spawnSync('mkfifo', [path]).status).toBe(0));
    const result = await searchContent({ root, query: 'needle', fs, ...options });
    expect(result.hits.map((h) => h.path)).toEqual(['z.txt']);
    expect(result.skipped).toEqual([{ path: 'a.txt', code: 'EFTYPE' }]);
    expect(result).toMatchObject({ complete: false, incompleteReasons: ['io-error'] });
  });

  it.each(ENGINES)('a link swapped in for a file is not followed: the file outside the root is never read ($name)', async ({ anyFs, options }) => {
    ONE_THREAD.anyFs = anyFs;
    const fs = swappingFs(join(root, 'z.txt'), (path) => symlinkSync(join(base, 'secret'), path));
    const result = await searchContent({ root, query: 'needle', fs, ...options });
    expect(result.hits.map((h) => h.text)).toEqual(['needle in a']);
    expect(JSON.stringify(result)).not.toContain('SECRET');
    expect(result.skipped).toEqual([{ path: 'z.txt', code: 'ELOOP' }]);
    expect(result.complete).toBe(false);
  });
});

// Both pure-TS engines: walker.ts opens through the pool (`open`), one-thread.ts synchronously (`openSync`).
for (const engine of [
  { name: 'walker.ts, a time budget set', call: 'open', options: { timeBudgetMs: 60_000 } },
  { name: 'one-thread.ts, no time budget', call: 'openSync', options: {} },
] as const) {
  describeIf(linux('the place check reads /proc/self/fd'))(`a directory on the way swapped for a link (Linux: /proc/self/fd), ${engine.name}`, () => {
    /** The walk listed y/ as a directory; before y/z.txt is opened, y becomes a link to `outside` (below base). */
    async function searchThroughSwap(outside: string) {
      nodeFs.mkdirSync(join(root, 'y'));
      writeFileSync(join(root, 'y', 'z.txt'), 'needle in y\n');
      nodeFs.mkdirSync(join(base, outside), { recursive: true });
      writeFileSync(join(base, outside, 'z.txt'), 'needle SECRET\n');
      // The check runs for the real node:fs only, so the real module's open is patched for this test.
      const module = fsModule as unknown as Record<string, (path: string, ...rest: unknown[]) => unknown>;
      const realOpen = module[engine.call]!;
      let swaps = 0;
      module[engine.call] = (path: string, ...rest: unknown[]) => {
        if (path === join(root, 'y', 'z.txt') && !existsSync(join(base, 'y-moved'))) {
          nodeFs.renameSync(join(root, 'y'), join(base, 'y-moved'));
          symlinkSync(join(base, outside), join(root, 'y'));
          swaps++;
        }
        return realOpen(path, ...rest);
      };
      syncBuiltinESMExports();
      try {
        // The pure-TS path's own defence (the default, auto, would run ripgrep here).
        const result = await searchContent({ root, query: 'needle', backend: 'walker', ...engine.options });
        expect(swaps).toBe(1);
        return result;
      } finally {
        module[engine.call] = realOpen;
        syncBuiltinESMExports();
      }
    }

    it('the file is reached through the link, so it is closed unread: ELOOP, and the file outside the root is never searched', async () => {
      const result = await searchThroughSwap('outside');
      expect(JSON.stringify(result)).not.toContain('SECRET');
      expect(result.skipped).toContainEqual({ path: 'y/z.txt', code: 'ELOOP' });
      expect(result.complete).toBe(false);
    });

    it('a link target that shares the file\'s tail (outside/y/z.txt for y/z.txt) is still not the file: ELOOP, never searched', async () => {
      // Kills a place check that accepts any target ending in /rel: the opened file must be root/rel exactly.
      const result = await searchThroughSwap('outside/y');
      expect(JSON.stringify(result)).not.toContain('SECRET');
      expect(result.skipped).toContainEqual({ path: 'y/z.txt', code: 'ELOOP' });
      expect(result.complete).toBe(false);
    });
  });
}

describeIf(linux('/proc/kmsg is a Linux file'), [existsSync('/proc/kmsg'), 'no /proc/kmsg here'])('a file that waits for data', () => {
  it('/proc/kmsg: the search returns and the process exits (it used to stay blocked in a libuv thread)', () => {
    // Loaded with require, as bin/find-file.mjs loads the command: the ESM loader opens every file of
    // the module graph at once, and under 32 descriptors it fails before the search starts.
    const dist = fileURLToPath(new URL('../../dist/index.js', import.meta.url));
    const script = `
      const { createRequire } = await import('node:module');
      const { searchContent } = createRequire(${JSON.stringify(dist)})(${JSON.stringify(dist)});
      const r = await searchContent({ root: '/proc', pattern: 'kmsg', query: 'zzzz-not-there', maxDepth: 1, timeBudgetMs: 2000 });
      console.log(JSON.stringify(r.skipped.filter((s) => s.path === 'kmsg')));`;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 15_000 });
    expect(run.error).toBeUndefined(); // a timeout would be ETIMEDOUT here
    expect(run.status).toBe(0);
    // Root can open it: the read answers EAGAIN at once. Anyone else: EACCES/EPERM. Never a hang.
    expect(JSON.parse(run.stdout.trim())).toEqual([{ path: 'kmsg', code: expect.stringMatching(/^(EAGAIN|EACCES|EPERM)$/) }]);
  });
});

describe.skipIf(process.platform === 'win32')(posixOnly('a low open-file limit', 'the limit is set with bash\'s ulimit -n, which Windows has no counterpart of'), () => {
  // Both pure-TS engines (auto would run ripgrep here): walker.ts's read-ahead holds many files open
  // at once and must shrink; one-thread.ts holds one.
  it.each([
    ['the read-ahead (walker.ts, a time budget set) shrinks instead of turning its own EMFILEs into gaps', { timeBudgetMs: 600_000 }],
    ['one-thread.ts (no time budget) searches every file', {}],
  ])('ulimit -n 32: %s', (_name, extra) => {
    // Files larger than one chunk stay open while they wait to be searched: 150 of them.
    for (let d = 0; d < 5; d++) {
      nodeFs.mkdirSync(join(root, `d${d}`));
      for (let f = 0; f < 30; f++) writeFileSync(join(root, `d${d}`, `big${f}.txt`), `${'a'.repeat(200_000)}\nneedle\n`);
    }
    // Loaded with require, as bin/find-file.mjs loads the command: the ESM loader opens every file of
    // the module graph at once, and under 32 descriptors it fails before the search starts.
    const dist = fileURLToPath(new URL('../../dist/index.js', import.meta.url));
    const options = JSON.stringify({ root, query: 'needle', backend: 'walker', ...extra });
    const script = `
      const { createRequire } = await import('node:module');
      const { searchContent } = createRequire(${JSON.stringify(dist)})(${JSON.stringify(dist)});
      const r = await searchContent(${options});
      console.log(JSON.stringify({ hits: r.hitCount, skipped: r.skipped, complete: r.complete }));`;
    const run = spawnSync('bash', ['-c', 'ulimit -n 32 && exec "$0" --input-type=module -e "$1"', process.execPath, script], { encoding: 'utf8', timeout: 30_000 });
    expect(run.status, run.stderr).toBe(0);
    // 150 big files and a.txt, z.txt: every one searched.
    expect(JSON.parse(run.stdout.trim())).toEqual({ hits: 152, skipped: [], complete: true });
  });
});
