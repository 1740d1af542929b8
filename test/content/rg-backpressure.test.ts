/**
 * A stream's slow reader holds ripgrep back. ripgrep's hits used to wait in memory whatever the
 * reader did (the command lifts the 1 MiB cap on hit text, since it prints as it goes): an
 * adversarial `find-file --contains e --root /usr/include | less`, left on its first page, held
 * 466 MB and growing; over a larger tree it would end in V8's out-of-memory abort. Now, while the
 * stream's hand-off is full, ripgrep's stdout is not read: the pipe fills and ripgrep waits.
 *
 * The real ripgrep, wrapped to see the hold (the runner's `stdout` answered with a promise) and
 * the exit; every wait is on an event, never on time.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { searchContentStream, type ContentOptions } from '../../src/index.js';
import { spawnRunner, type ProcessRunner } from '../../src/rg/runner.js';
import { needsRg, realRg, requireRipgrepInCi } from '../helpers/real-rg.js';
import { describeIf } from '../helpers/skip-why.js';

requireRipgrepInCi();

// ~3 MB of `--json` events: far past a pipe's 64 KiB and the hand-off's 1,024 hits.
const LINES = 20_000;
let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'ff-rg-backpressure-'));
  writeFileSync(join(root, 'many.txt'), 'a needle here\n'.repeat(LINES));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** spawnRunner, watched: `held` settles at the first hold, `exited` once ripgrep has ended and its pipes closed. */
function watchedRunner() {
  let onHold!: () => void;
  let onExit!: (how: string) => void;
  const held = new Promise<'held'>((resolve) => (onHold = () => resolve('held')));
  const exited = new Promise<string>((resolve) => (onExit = resolve));
  const runner: ProcessRunner = (request, listener) =>
    spawnRunner(request, {
      ...listener,
      stdout(chunk) {
        const wait = listener.stdout(chunk);
        if (wait !== undefined) onHold();
        return wait;
      },
      exit(code, signal) {
        onExit(`exit ${code} ${signal}`);
        listener.exit(code, signal);
      },
    });
  return { runner, held, exited };
}

const options = (runner: ProcessRunner, extra: Partial<ContentOptions> = {}) =>
  ({ root, query: 'needle', backend: 'ripgrep', rgPath: realRg.path, runner, ...extra }) as ContentOptions;

describeIf(needsRg)('a slow reader holds ripgrep back', () => {
  it('ripgrep waits while the reader has not taken its hits; then every hit comes, complete', async () => {
    const { runner, held, exited } = watchedRunner();
    const stream = searchContentStream(options(runner));
    const batches = stream.batches()[Symbol.asyncIterator]();
    // Nothing read yet: ripgrep must be held before it can finish (without the hold it ends first).
    expect(await Promise.race([held, exited])).toBe('held');
    const first = await batches.next();
    // What waited is the hand-off's fill and the chunk that passed it, not the whole answer.
    expect(first.value!.length).toBeLessThan(LINES / 4);
    let hits = first.value!.length;
    for (let step = await batches.next(); step.done !== true; step = await batches.next()) hits += step.value.length;
    const summary = await stream.summary;
    expect({ hits, hitCount: summary.hitCount, complete: summary.complete, reasons: summary.incompleteReasons }).toEqual({ hits: LINES, hitCount: LINES, complete: true, reasons: [] });
    expect(await exited).toBe('exit 0 null');
  });

  it('a held run the caller aborts ends: ripgrep is killed, and the answer says aborted', async () => {
    const { runner, held, exited } = watchedRunner();
    const controller = new AbortController();
    const stream = searchContentStream(options(runner, { signal: controller.signal }));
    const batches = stream.batches()[Symbol.asyncIterator]();
    expect(await Promise.race([held, exited])).toBe('held');
    controller.abort();
    expect(await exited).toMatch(/^exit (null SIGTERM|\d+ null)$/);
    await batches.return?.(undefined);
    const summary = await stream.summary;
    expect({ complete: summary.complete, aborted: summary.incompleteReasons.includes('aborted') }).toEqual({ complete: false, aborted: true });
  });

  it('the end of the run releases the hold: a runner waiting on it is not left waiting (the reader never came back)', async () => {
    // A runner that waits on every hold, as spawnRunner's pipe does, but that nothing else resumes.
    const event = (n: number) =>
      JSON.stringify({ type: 'match', data: { path: { text: './many.txt' }, lines: { text: 'a needle here\n' }, line_number: n, absolute_offset: 0, submatches: [{ match: { text: 'needle' }, start: 2, end: 8 }] } }) + '\n';
    let onHold!: () => void;
    const held = new Promise<void>((resolve) => (onHold = resolve));
    let ended!: (released: boolean) => void;
    const end = new Promise<boolean>((resolve) => (ended = resolve));
    const runner: ProcessRunner = (request, listener) => {
      void (async () => {
        for (let n = 1; n <= LINES && !request.signal.aborted; n++) {
          const wait = listener.stdout(Buffer.from(event(n)));
          if (wait === undefined) continue;
          onHold();
          await wait;
          return ended(true);
        }
        ended(false);
      })();
    };
    const controller = new AbortController();
    const stream = searchContentStream(options(runner, { signal: controller.signal }));
    await held;
    controller.abort();
    expect(await end).toBe(true);
    await stream.batches()[Symbol.asyncIterator]().return?.(undefined); // the reader leaves: the summary settles
    const summary = await stream.summary;
    expect(summary.incompleteReasons).toContain('aborted');
  });
});
