/**
 * The stream as the command reads it (src/walk/main-thread.ts): the sync walk on the main thread,
 * in slices. Its answers are held to the other forms by test/helpers/every-form.ts and forms.ts;
 * here, what the slices are for: the event loop turns between them (a caller's abort, a stream's
 * reader, a progress timer), a reader that stops reading stops the walk, and a missing root
 * surfaces from the reading. memfs and a fake clock; `SLICE.ms = 0` gives a turn after every step.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findFilesWith, streamFiles } from '../../src/find.js';
import type { FindOptions } from '../../src/index.js';
import { SLICE } from '../../src/walk/main-thread.js';
import { FakeClock, asFs, buildVolume, type Tree } from '../helpers/memfs.js';

const ROOT = '/root';

/** 40 directories of 50 files each: 2,000 paths, far past the stream's 1,024 waiting. */
const wide: Tree = {};
for (let d = 0; d < 40; d++) {
  const dir: Tree = {};
  for (let f = 0; f < 50; f++) dir[`f${f}.txt`] = '';
  wide[`d${d}`] = dir;
}
const volume = buildVolume(wide);
const options = (more: Partial<FindOptions> = {}): FindOptions => ({ root: ROOT, platform: 'posix', pattern: '**/*.txt', fs: asFs(volume), clock: new FakeClock(), ...more });

describe('the main-thread stream gives the event loop its turns', () => {
  let saved: number;
  beforeEach(() => {
    saved = SLICE.ms;
    SLICE.ms = 0;
  });
  afterEach(() => {
    SLICE.ms = saved;
  });

  it('turns between directories: an immediate queued at the start runs before the walk ends', async () => {
    let turns = 0;
    let ended = false;
    const tick = () => {
      if (ended) return;
      turns++;
      setImmediate(tick);
    };
    setImmediate(tick);
    const stream = streamFiles(options(), 'main-thread');
    const paths: string[] = [];
    for await (const path of stream) paths.push(path);
    ended = true;
    expect(paths).toHaveLength(2000);
    expect((await stream.summary).complete).toBe(true);
    // One turn a slice at least: 41 directories listed, each its own slice.
    expect(turns).toBeGreaterThanOrEqual(40);
  });

  it('hears an abort fired by the event loop between directories, and keeps what it found', async () => {
    const controller = new AbortController();
    let listed = 0;
    const onDirectory = () => {
      if (++listed === 3) setImmediate(() => controller.abort());
    };
    const stream = streamFiles(options({ signal: controller.signal, onDirectory }), 'main-thread');
    const paths: string[] = [];
    for await (const path of stream) paths.push(path);
    const summary = await stream.summary;
    expect(summary).toMatchObject({ complete: false, incompleteReasons: ['aborted'] });
    // Heard within a slice or two of the third listing: not all 41 directories.
    expect(summary.stats.dirsRead).toBeLessThan(10);
    expect(paths.length).toBe(summary.matchedCount);
    expect(paths.length).toBeGreaterThan(0);
  });

  it('walks no further while its reader does not read, and goes on when it does', async () => {
    const stream = streamFiles(options(), 'main-thread');
    const iterator = stream[Symbol.asyncIterator]();
    const first = await iterator.next();
    expect(first.done).toBe(false);
    // Many turns later, unread: the walk stopped once 1,024 paths waited (plus the directory it was in).
    for (let i = 0; i < 50; i++) await new Promise((resolve) => setImmediate(resolve));
    const waiting = stream.progress();
    expect(waiting.matchedCount).toBeLessThan(1024 + 2 * 50);
    let rest = 0;
    for (;;) {
      const next = await iterator.next();
      if (next.done === true) break;
      rest++;
    }
    expect(1 + rest).toBe(2000);
    expect((await stream.summary).complete).toBe(true);
  });

  it('turns inside a directory whose entries are lstat\'ed (a size filter), not only after its last lstat', async () => {
    const one: Tree = {};
    for (let f = 0; f < 2000; f++) one[`f${f}.txt`] = 'x';
    const vol = buildVolume({ big: one });
    let lstats = 0;
    const fs = Object.assign(Object.create(vol) as object, {
      lstatSync: (...args: unknown[]) => {
        lstats++;
        return (vol.lstatSync as (...a: unknown[]) => unknown)(...args);
      },
    });
    // The most lstats between two turns of the event loop.
    let most = 0;
    let since = 0;
    let ended = false;
    const tick = () => {
      if (ended) return;
      most = Math.max(most, lstats - since);
      since = lstats;
      setImmediate(tick);
    };
    setImmediate(tick);
    const stream = streamFiles(options({ fs: asFs(fs), minSize: 1 }), 'main-thread');
    let found = 0;
    for await (const _path of stream) found++;
    ended = true;
    most = Math.max(most, lstats - since);
    expect(found).toBe(2000);
    expect(lstats).toBe(2000);
    expect((await stream.summary).complete).toBe(true);
    // Every 128 lstats at most (as the budget is asked): 2,000 in one go held Ctrl-C and the progress line.
    expect(most).toBeLessThanOrEqual(128);
  });

  it('a missing root rejects the reading and the summary, as the pool stream does', async () => {
    const stream = streamFiles(options({ root: '/nowhere' }), 'main-thread');
    await expect(async () => {
      for await (const _path of stream) expect.unreachable();
    }).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(stream.summary).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('creating the stream does no I/O: the first read waits for the next turn', () => {
    let listed = 0;
    streamFiles(options({ onDirectory: () => void listed++ }), 'main-thread');
    expect(listed).toBe(0);
  });

  // The helper's second finding: a long ignore file was parsed at once by the sync walk, holding
  // Ctrl-C and the stream's reader for the whole compile (100,000 lines: 1.2 s), where the pool's walk
  // parses in slices. An abort two turns after the start must be heard before anything is judged.
  for (const where of ['parent', 'root'] as const) {
    it(`parses a long .ignore of the ${where} a slice at a time: an abort two turns in ends the walk before it judges anything`, async () => {
      // 3,000 rules slow to compile (test/walk/ignore-slices.test.ts): far more than one slice of 10 ms.
      const text = Array.from({ length: 3000 }, (_, i) => `**/${Array.from({ length: 40 }, (_, j) => 'ab*?'[(i * 7 + j * 13 + i * j) % 4]).join('')}/**/x${i}*y*z*`).join('\n');
      const vol = buildVolume({ root: { 'a.txt': '', ...(where === 'root' ? { '.ignore': text } : {}) }, ...(where === 'parent' ? { '.ignore': text } : {}) }, '/base');
      for (const form of ['stream', 'promise'] as const) {
        const controller = new AbortController();
        const options = { root: '/base/root', platform: 'posix' as const, pattern: '**', gitignore: true, fs: asFs(vol), clock: new FakeClock(), signal: controller.signal };
        setImmediate(() => setImmediate(() => controller.abort()));
        let summary: { complete: boolean; incompleteReasons: string[]; matchedCount: number };
        if (form === 'promise') summary = await findFilesWith(options, 'main-thread');
        else {
          const stream = streamFiles(options, 'main-thread');
          for await (const _path of stream);
          summary = await stream.summary;
        }
        // Parsed at once, the walk would have judged a.txt (and ended complete) before the abort.
        expect(summary, `${where}, ${form}`).toMatchObject({ complete: false, incompleteReasons: ['aborted'], matchedCount: 0 });
      }
    });
  }
});
