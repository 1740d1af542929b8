/**
 * The read-ahead under a file-handle limit. Files are opened ahead of the one being searched, and a
 * file larger than one chunk keeps its handle until it is searched. When the next file to search
 * cannot be opened (EMFILE) because the files opened after it hold every handle, those files can
 * never give them back: they are searched only after it. Seen under load with `ulimit -n 32`
 * (test/content/hostile-files.test.ts): opens finished out of order, and the next file's retries ran
 * out, a gap in the answer. Here the same race is forced on memfs: the first open answers last.
 */
import { describe, expect, it } from 'vitest';
import type { FileReaderFs } from '../../src/fs.js';
import { searchContent } from '../../src/index.js';
import { READ_CHUNK_BYTES } from '../../src/content/scanner.js';
import { FakeClock, asFs, buildVolume, type Tree } from '../helpers/memfs.js';

/** At most `cap` files open at once (EMFILE past it, checked when an open answers); the first `slow` opens answer last. */
function cappedFs(base: FileReaderFs, cap: number, slow: number) {
  let open = 0;
  let peak = 0;
  let opens = 0;
  const fs: FileReaderFs = {
    readdir: (path, options, callback) => base.readdir(path, options, callback),
    readdirSync: (path, options) => base.readdirSync(path, options),
    lstat: (path, callback) => base.lstat(path, callback),
    lstatSync: (path) => base.lstatSync(path),
    read: (fd, buffer, offset, length, position, callback) => base.read(fd, buffer, offset, length, position, callback),
    open(path, flags, callback) {
      const delay = opens++ < slow ? 30 : 0;
      setTimeout(() => {
        if (open >= cap) return callback(Object.assign(new Error(`EMFILE: open '${path}'`), { code: 'EMFILE' }), -1);
        base.open(path, flags, (error, fd) => {
          if (!error) peak = Math.max(peak, ++open);
          callback(error, fd);
        });
      }, delay);
    },
    close(fd, callback) {
      open--;
      base.close(fd, callback);
    },
  };
  return { fs, peak: () => peak };
}

describe('the read-ahead at a file-handle limit', () => {
  it('gives back the handles of files opened after the next one, so the next one opens: every file searched, no gap', async () => {
    const big = 'a'.repeat(READ_CHUNK_BYTES * 2) + '\nneedle\n';
    const tree: Tree = {};
    for (let i = 0; i < 12; i++) tree[`big${String(i).padStart(2, '0')}.txt`] = big;
    const vol = buildVolume(tree);
    const { fs, peak } = cappedFs(asFs(vol) as FileReaderFs, 4, 1);
    const result = await searchContent({ root: '/root', query: 'needle', fs, clock: new FakeClock(), platform: 'posix' });
    expect({ hits: result.hitCount, skipped: result.skipped, complete: result.complete }).toEqual({ hits: 12, skipped: [], complete: true });
    expect(peak()).toBeLessThanOrEqual(4);
  });
});
