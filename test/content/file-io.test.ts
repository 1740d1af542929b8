/**
 * How content search opens, checks, reads and closes a listed file (src/content/file-io.ts), on a
 * scripted fs: every outcome is a value the search can report, a retry only for running out of file
 * handles, and nothing but a regular file is ever read. The real-disk cases (links swapped in, FIFOs)
 * are in test/content/hostile-files.test.ts. Written for the Stryker survivors of issue 28.
 */
import { mkdtempSync, openSync, closeSync, rmSync, symlinkSync, writeFileSync, mkdirSync, fstatSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { defaultFs, type FileReaderFs, type StatsLike } from '../../src/fs.js';
import { buildCloser, buildPlaceCheck, openListedFile, placePrefix, readChunk } from '../../src/content/file-io.js';
import { RETRY_DELAYS_MS } from '../../src/limits.js';
import { describeIf, linux } from '../helpers/skip-why.js';

const errno = (code: string) => Object.assign(new Error(code), { code });
const stats = (isFile: boolean, size?: unknown) => ({ isFile: () => isFile, isDirectory: () => !isFile, isSymbolicLink: () => false, size }) as unknown as StatsLike;

/** A fs whose `open` answers from a script (one answer per call) and whose `fstat` answers `fstatWith`. */
function scriptedFs(opens: (Error | number)[], fstatWith?: (fd: number) => StatsLike | Error) {
  const closed: number[] = [];
  const fs = {
    open: (_path: string, _flags: string | number, cb: (e: Error | null, fd: number) => void) => {
      const next = opens.shift()!;
      if (next instanceof Error) cb(next, -1);
      else cb(null, next);
    },
    read: () => {},
    close: (fd: number, cb: () => void) => {
      closed.push(fd);
      cb();
    },
    ...(fstatWith === undefined
      ? {}
      : {
          fstat: (fd: number, cb: (e: Error | null, s?: StatsLike) => void) => {
            const answer = fstatWith(fd);
            if (answer instanceof Error) cb(answer);
            else cb(null, answer);
          },
        }),
  } as unknown as FileReaderFs;
  return { fs, closed };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('openListedFile', () => {
  it('opens a regular file and gives its size from fstat', async () => {
    const { fs, closed } = scriptedFs([7], () => stats(true, 42));
    expect(await openListedFile(fs, 'a.txt', () => true)).toEqual({ ok: true, fd: 7, size: 42 });
    expect(closed).toEqual([]);
  });

  it('opens without a size when fstat gives none, fails, or the fs has no fstat: the read will say', async () => {
    expect(await openListedFile(scriptedFs([7], () => stats(true)).fs, 'a', () => true)).toEqual({ ok: true, fd: 7 });
    expect(await openListedFile(scriptedFs([7], () => stats(true, '42')).fs, 'a', () => true)).toEqual({ ok: true, fd: 7 });
    expect(await openListedFile(scriptedFs([7], () => errno('EIO')).fs, 'a', () => true)).toEqual({ ok: true, fd: 7 });
    expect(await openListedFile(scriptedFs([7]).fs, 'a', () => true)).toEqual({ ok: true, fd: 7 });
  });

  it('an fstat that throws instead of calling back still opens the file (the read will say): the search never waits on it', async () => {
    const fs = { ...scriptedFs([7]).fs, fstat: () => { throw errno('EBADF'); } } as unknown as FileReaderFs;
    expect(await openListedFile(fs, 'a', () => true)).toEqual({ ok: true, fd: 7 });
  });

  it('closes a FIFO, device or directory swapped in since the listing, unread, and reports EFTYPE (a gap)', async () => {
    const { fs, closed } = scriptedFs([9], () => stats(false));
    const opened = await openListedFile(fs, 'swapped', () => true);
    expect(opened.ok).toBe(false);
    expect(!opened.ok && (opened.error as { code?: string }).code).toBe('EFTYPE');
    expect(closed).toEqual([9]);
  });

  it('gives an open error as it came, after no retry, unless it is running out of handles', async () => {
    const asked = vi.fn(() => true);
    const opened = await openListedFile(scriptedFs([errno('EACCES'), 5]).fs, 'a', asked);
    expect(opened).toMatchObject({ ok: false, error: { code: 'EACCES' } });
    expect(asked).not.toHaveBeenCalled();
  });

  it('an open that throws is a value too', async () => {
    const fs = { open: () => { throw errno('EBADF'); }, read: () => {}, close: () => {} } as unknown as FileReaderFs;
    expect(await openListedFile(fs, 'a', () => true)).toMatchObject({ ok: false, error: { code: 'EBADF' } });
  });

  it('out of handles (EMFILE): asks the caller to free some, waits the growing pause, and tries again', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    const asked = vi.fn(() => true);
    const pending = openListedFile(scriptedFs([errno('EMFILE'), errno('EMFILE'), 3], () => stats(true, 1)).fs, 'a', asked);
    await vi.advanceTimersByTimeAsync(RETRY_DELAYS_MS[0]! - 1);
    expect(asked).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(asked).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(RETRY_DELAYS_MS[1]!);
    expect(await pending).toEqual({ ok: true, fd: 3, size: 1 });
  });

  it('out of handles: gives up when the caller no longer wants the file, and after the last pause', async () => {
    expect(await openListedFile(scriptedFs([errno('EMFILE'), 3]).fs, 'a', () => false)).toMatchObject({ ok: false, error: { code: 'EMFILE' } });
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    const always = Array.from({ length: RETRY_DELAYS_MS.length + 2 }, () => errno('EMFILE'));
    const asked = vi.fn(() => true);
    const pending = openListedFile(scriptedFs(always).fs, 'a', asked);
    await vi.advanceTimersByTimeAsync(RETRY_DELAYS_MS.reduce((a, b) => a + b, 0));
    expect(await pending).toMatchObject({ ok: false, error: { code: 'EMFILE' } });
    expect(asked).toHaveBeenCalledTimes(RETRY_DELAYS_MS.length);
  });
});

describe('readChunk', () => {
  it('reads into the buffer from the offset to its end, at the current position, and gives errors as values', async () => {
    const calls: unknown[][] = [];
    const fs = {
      read: (fd: number, buffer: Uint8Array, offset: number, length: number, position: number | null, cb: (e: Error | null, n: number) => void) => {
        calls.push([fd, buffer.length, offset, length, position]);
        cb(null, 3);
      },
    } as unknown as FileReaderFs;
    expect(await readChunk(fs, 4, new Uint8Array(16), 6)).toEqual({ ok: true, bytes: 3 });
    expect(calls).toEqual([[4, 16, 6, 10, null]]);
    const failing = { read: (...args: unknown[]) => (args.at(-1) as (e: Error) => void)(errno('EIO')) } as unknown as FileReaderFs;
    expect(await readChunk(failing, 4, new Uint8Array(1), 0)).toMatchObject({ ok: false, error: { code: 'EIO' } });
    const throwing = { read: () => { throw errno('EBADF'); } } as unknown as FileReaderFs;
    expect(await readChunk(throwing, 4, new Uint8Array(1), 0)).toMatchObject({ ok: false, error: { code: 'EBADF' } });
  });
});

describe('buildCloser', () => {
  it('closes through an injected fs', () => {
    const { fs, closed } = scriptedFs([]);
    buildCloser(fs)(12);
    expect(closed).toEqual([12]);
  });

  it('closes a real descriptor, and a bad one quietly', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ff-file-io-'));
    try {
      writeFileSync(join(dir, 'a'), 'x');
      const fd = openSync(join(dir, 'a'), 'r');
      const close = buildCloser(defaultFs as FileReaderFs);
      close(fd);
      expect(() => fstatSync(fd)).toThrow(expect.objectContaining({ code: 'EBADF' }));
      expect(() => close(fd)).not.toThrow();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describeIf(linux('the place check reads /proc/self/fd'))('buildPlaceCheck (Linux, the real disk)', () => {
  it('says whether an opened descriptor is the file at root/rel: not through a link, not another file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ff-place-'));
    try {
      mkdirSync(join(dir, 'root', 'sub'), { recursive: true });
      writeFileSync(join(dir, 'root', 'sub', 'a.txt'), 'x');
      writeFileSync(join(dir, 'outside.txt'), 'x');
      symlinkSync(join(dir, 'root'), join(dir, 'link'));
      // The root named through a link: compared by its real path.
      const check = buildPlaceCheck(placePrefix(defaultFs, join(dir, 'link')))!;
      expect(check).toBeTypeOf('function');
      const fd = openSync(join(dir, 'root', 'sub', 'a.txt'), 'r');
      const other = openSync(join(dir, 'outside.txt'), 'r');
      try {
        expect([check(fd, 'sub/a.txt'), check(fd, 'a.txt'), check(other, 'sub/a.txt'), check(-1, 'sub/a.txt')]).toEqual([true, false, false, false]);
      } finally {
        closeSync(fd);
        closeSync(other);
      }
      // At the filesystem root, no doubled separator.
      const fromRoot = buildPlaceCheck(placePrefix(defaultFs, '/'))!;
      const rooted = openSync(join(dir, 'outside.txt'), 'r');
      try {
        expect(fromRoot(rooted, join(dir, 'outside.txt').slice(1))).toBe(true);
      } finally {
        closeSync(rooted);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('has no check for an injected fs, nor for a root it cannot resolve (the walk reports that)', () => {
    expect(buildPlaceCheck(placePrefix(scriptedFs([]).fs, '/'))).toBeUndefined();
    expect(buildPlaceCheck(placePrefix(defaultFs, join(tmpdir(), 'ff-no-such-root-', String(process.pid))))).toBeUndefined();
  });
});
