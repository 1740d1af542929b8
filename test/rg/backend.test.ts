/**
 * The ripgrep backend through `findFiles`, with a fake runner playing ripgrep: every branch of the
 * exit-status contract, the retry, the limits, the settlement guard, and how `auto` decides.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FindFileError, findFiles, findFilesStream, findFilesSync, type FindOptions, type RecoveryEvent } from '../../src/index.js';
import { defaultThreads } from '../../src/rg/argv.js';
import { EAGAIN_PANIC, FakeClock, FakeRipgrep, useFakeInstall, nul, type Step } from '../helpers/rg-fake.js';

let rgPath: string;
let root: string;
useFakeInstall((made) => {
  ({ rgPath, root } = made);
});

const THREADS = String(defaultThreads());
const FIXED = ['--files', '--hidden', '--no-ignore', '--no-config', '--null', '--path-separator', '/', '--threads', THREADS];

/** Runs a ripgrep search against scripted runs; returns the result, the fake and the events. */
async function search(scripts: Step[][], options: Partial<FindOptions> = {}) {
  const fake = new FakeRipgrep(...scripts);
  const events: RecoveryEvent[] = [];
  const result = await findFiles({
    root,
    pattern: '*.ts',
    backend: 'ripgrep',
    rgPath,
    runner: fake.runner,
    onEvent: (e) => events.push(e),
    ...options,
  });
  return { result, fake, events };
}

describe('running ripgrep', () => {
  it('runs the resolved executable with the fixed argv, in the root, with a minimal environment', async () => {
    const env = { PATH: '/usr/bin', RIPGREP_CONFIG_PATH: '/home/u/.ripgreprc', SECRET_TOKEN: 'x' };
    const { fake } = await search([[{ exit: 1 }]], { env, exclude: ['node_modules/'] });
    expect(fake.calls).toHaveLength(1);
    expect(fake.calls[0]).toEqual({
      executable: rgPath,
      argv: [...FIXED, '--glob=!node_modules/'],
      cwd: root,
      env: { PATH: '/usr/bin' },
      killed: false,
    });
  });

  it('exit 0: the listed paths, filtered by the walker matcher and sorted; complete; no event', async () => {
    const { result, events } = await search([[{ stdout: nul('src/b.ts', 'a.ts', 'notes.md') }, { exit: 0 }]]);
    expect(result).toMatchObject({
      matches: ['a.ts', 'src/b.ts'],
      matchedCount: 2,
      complete: true,
      incompleteReasons: [],
      skipped: [],
      backend: 'ripgrep',
      recovery: { selectionMode: 'explicit', retryTriggered: false },
    });
    expect(result.recovery).not.toHaveProperty('failureKind');
    expect(result).not.toHaveProperty('fallbackReason');
    expect(events).toEqual([]);
  });

  it('exit 1 with blank stderr: complete, no matches', async () => {
    const { result, events } = await search([[{ stderr: '\n' }, { exit: 1 }]]);
    expect(result).toMatchObject({ matches: [], complete: true, incompleteReasons: [] });
    expect(events).toEqual([]);
  });

  it('exit 1 with stderr: a failure, never "no matches"', async () => {
    const { result, events } = await search([[{ stderr: 'rg: something went wrong\n' }, { exit: 1 }]]);
    expect(result).toMatchObject({ matches: [], complete: false, incompleteReasons: ['io-error'], recovery: { failureKind: 'exit' } });
    expect(events).toEqual([{ type: 'ripgrep-recovery', selectionMode: 'explicit', retryTriggered: false, failureKind: 'exit' }]);
  });

  it('exit 2 with ripgrep 13 permission lines: every printed path kept, the directories skipped, EACCES/EPERM', async () => {
    const { result, events } = await search([
      [
        { stdout: nul('a.ts', 'ok/b.ts') },
        { stderr: './deny: Permission denied (os error 13)\n./ok/locked: Operation not permitted (os error 1)\n' },
        { stdout: nul('z.ts') },
        { exit: 2 },
      ],
    ]);
    expect(result).toMatchObject({
      matches: ['a.ts', 'ok/b.ts', 'z.ts'],
      skipped: [
        { path: 'deny', code: 'EACCES' },
        { path: 'ok/locked', code: 'EPERM' },
      ],
      skippedCount: 2,
      complete: false,
      incompleteReasons: ['permission-denied'],
    });
    expect(result.recovery).not.toHaveProperty('failureKind');
    expect(events).toEqual([]); // a permission gap is an answer, not a runtime failure
  });

  it('exit 2 with ripgrep 14.1 rg:-prefixed lines reads the same', async () => {
    const { result } = await search([[{ stderr: 'rg: ./deny: Permission denied (os error 13)\n' }, { exit: 2 }]]);
    expect(result).toMatchObject({ matches: [], skipped: [{ path: 'deny', code: 'EACCES' }], incompleteReasons: ['permission-denied'] });
  });

  it('exit 2 with blank stderr is a failure: success is never inferred from silence', async () => {
    const { result } = await search([[{ stdout: nul('a.ts') }, { exit: 2 }]]);
    expect(result).toMatchObject({ matches: ['a.ts'], complete: false, incompleteReasons: ['io-error'], recovery: { failureKind: 'exit' } });
  });

  it('exit 2 with an unclassifiable line: io-error and failure, the classified lines still skipped, no raw text kept', async () => {
    const { result } = await search([[{ stderr: './deny: Permission denied (os error 13)\nrg: weird secret-looking text\n' }, { exit: 2 }]]);
    expect(result).toMatchObject({
      skipped: [{ path: 'deny', code: 'EACCES' }],
      incompleteReasons: ['permission-denied', 'io-error'],
      recovery: { failureKind: 'exit' },
    });
    expect(JSON.stringify(result)).not.toContain('secret-looking');
  });

  it('drops a partial last record (no NUL after it)', async () => {
    const { result } = await search([[{ stdout: nul('a.ts') + 'cut/b.t' }, { exit: 0 }]]);
    expect(result.matches).toEqual(['a.ts']);
  });

  it('gives the same matches for stdout split at every byte offset, inside multi-byte characters too', async () => {
    const names = ['ünï/ä.ts', '日本/語.ts', '😀.ts', 'new\nline.ts', 'sp ace.ts'];
    const stdout = Buffer.from(nul(...names), 'utf8');
    for (let at = 0; at <= stdout.length; at++) {
      const { result } = await search([[{ stdout: stdout.subarray(0, at) }, { stdout: stdout.subarray(at) }, { exit: 0 }]]);
      expect(result.matches, `split at byte ${at}`).toEqual([...names].sort());
    }
  });
});

describe('the EAGAIN retry', () => {
  it('retries once with --threads 1 and returns a clean, complete result', async () => {
    const { result, fake, events } = await search([
      [{ stdout: nul('partial.ts') }, { stderr: EAGAIN_PANIC }, { exit: 101 }],
      [{ stdout: nul('a.ts', 'b.ts') }, { exit: 0 }],
    ]);
    expect(fake.calls).toHaveLength(2);
    const [first, second] = fake.calls;
    expect(second!.argv).toEqual(first!.argv.map((arg, i) => (first!.argv[i - 1] === '--threads' ? '1' : arg)));
    expect(second!.executable).toBe(first!.executable);
    expect(result).toMatchObject({ matches: ['a.ts', 'b.ts'], complete: true, incompleteReasons: [], skipped: [] });
    expect(result.recovery).toEqual({ selectionMode: 'explicit', retryTriggered: true, retrySucceeded: true });
    expect(events).toEqual([{ type: 'ripgrep-recovery', selectionMode: 'explicit', retryTriggered: true, retrySucceeded: true }]);
  });

  it('reports eagain when the retry fails the same way, and runs no third time', async () => {
    const panic: Step[] = [{ stderr: EAGAIN_PANIC }, { exit: 101 }];
    const { result, fake, events } = await search([panic, panic]);
    expect(fake.calls).toHaveLength(2);
    expect(result).toMatchObject({ matches: [], complete: false, incompleteReasons: ['io-error'] });
    expect(result.recovery).toEqual({ selectionMode: 'explicit', retryTriggered: true, retrySucceeded: false, failureKind: 'eagain' });
    expect(events).toEqual([{ type: 'ripgrep-recovery', selectionMode: 'explicit', retryTriggered: true, retrySucceeded: false, failureKind: 'eagain' }]);
  });

  it('uses the normal thread count again on the next search', async () => {
    await search([[{ stderr: EAGAIN_PANIC }, { exit: 101 }], [{ exit: 1 }]]);
    const { fake } = await search([[{ exit: 1 }]]);
    expect(fake.calls[0]!.argv.slice(0, FIXED.length)).toEqual(FIXED);
  });

  it('does not retry once the caller has aborted', async () => {
    const controller = new AbortController();
    const { result, fake, events } = await search(
      [[{ stdout: nul('a.ts') }, { stderr: EAGAIN_PANIC }, { run: () => controller.abort() }, { exit: 101 }]],
      { signal: controller.signal },
    );
    expect(fake.calls).toHaveLength(1);
    expect(fake.calls[0]!.killed).toBe(true);
    // The panic lines printed before the abort are a gap no path explains: io-error after the stop.
    expect(result).toMatchObject({ matches: ['a.ts'], complete: false, incompleteReasons: ['aborted', 'io-error'] });
    expect(result.recovery).toEqual({ selectionMode: 'explicit', retryTriggered: false });
    expect(events).toEqual([]); // cancellation is not a failure
  });

  it('does not retry when the caller aborts between the EAGAIN exit and the retry decision', async () => {
    // Kills an EAGAIN retry that starts after the caller aborted: the exit settles the run, then the abort lands before the decision.
    // The mutant's retry stops before spawning (the signal is checked first), so what shows is recovery claiming a retry.
    const controller = new AbortController();
    const fake = new FakeRipgrep([{ stderr: EAGAIN_PANIC }, { exit: 101 }], [{ stdout: nul('a.ts') }, { exit: 0 }]);
    const runner: typeof fake.runner = (request, listener) =>
      fake.runner(request, {
        ...listener,
        exit: (code, signal) => {
          listener.exit(code, signal);
          controller.abort();
        },
      });
    const result = await findFiles({ root, pattern: '*.ts', backend: 'ripgrep', rgPath, runner, signal: controller.signal });
    expect(fake.calls).toHaveLength(1);
    expect(result).toMatchObject({ matches: [], complete: false, recovery: { retryTriggered: false } });
  });

  it('does not retry a spawn failure, even EAGAIN: kind spawn', async () => {
    const { result, fake, events } = await search([[{ error: 'EAGAIN' }], [{ exit: 0 }]]);
    expect(fake.calls).toHaveLength(1);
    expect(result).toMatchObject({ matches: [], complete: false, incompleteReasons: ['io-error'] });
    expect(result.recovery).toEqual({ selectionMode: 'explicit', retryTriggered: false, failureKind: 'spawn' });
    expect(events).toEqual([{ type: 'ripgrep-recovery', selectionMode: 'explicit', retryTriggered: false, failureKind: 'spawn' }]);
  });
});

describe('one settlement per run', () => {
  it('settles a failure reported by both the error and the exit channel once', async () => {
    const { result, fake } = await search([[{ error: 'EAGAIN' }, { exit: -11 }, { error: 'EAGAIN' }, { exit: 2 }], [{ exit: 0 }]]);
    expect(fake.calls).toHaveLength(1);
    expect(result.recovery?.failureKind).toBe('spawn');
  });

  it('starts exactly one retry when an EAGAIN run reports its end twice', async () => {
    const { fake, result } = await search([
      [{ stderr: EAGAIN_PANIC }, { exit: 101 }, { exit: 101 }, { error: 'EPIPE' }],
      [{ stdout: nul('a.ts') }, { exit: 0 }, { error: 'EPIPE' }],
      [{ exit: 0 }],
    ]);
    expect(fake.calls).toHaveLength(2);
    expect(result).toMatchObject({ matches: ['a.ts'], complete: true, recovery: { retryTriggered: true, retrySucceeded: true } });
  });

  it('ignores a runner that reports synchronously, twice, from inside the call', async () => {
    let calls = 0;
    const result = await findFiles({
      root,
      pattern: '*',
      backend: 'ripgrep',
      rgPath,
      runner: (_request, listener) => {
        calls++;
        listener.error(Object.assign(new Error('x'), { code: 'ENOENT' }));
        listener.exit(-2, null);
      },
    });
    expect(calls).toBe(1);
    expect(result.recovery?.failureKind).toBe('spawn');
  });
});

describe('limits', () => {
  it('stops at match maxResults + 1 and kills the child; not a failure', async () => {
    const { result, fake, events } = await search([[{ stdout: nul('a.ts', 'skip.md', 'b.ts', 'c.ts', 'd.ts') }, { hang: true }]], { maxResults: 2 });
    expect(fake.calls[0]!.killed).toBe(true);
    expect(result).toMatchObject({ matches: ['a.ts', 'b.ts'], matchedCount: 2, complete: false, incompleteReasons: ['result-limit'] });
    expect(result.recovery).toEqual({ selectionMode: 'explicit', retryTriggered: false });
    expect(events).toEqual([]);
  });

  it('is complete when exactly maxResults matches exist', async () => {
    const { result, fake } = await search([[{ stdout: nul('a.ts', 'b.ts') }, { exit: 0 }]], { maxResults: 2 });
    expect(fake.calls[0]!.killed).toBe(false);
    expect(result).toMatchObject({ matches: ['a.ts', 'b.ts'], complete: true });
  });

  it('stops at the time budget by an injected clock, keeps what came before, kills the child', async () => {
    const clock = new FakeClock();
    const { result, fake, events } = await search(
      [[{ stdout: nul('a.ts') }, { run: () => clock.advance(60) }, { stdout: nul('late.ts') }, { hang: true }]],
      { clock, timeBudgetMs: 50 },
    );
    expect(fake.calls[0]!.killed).toBe(true);
    expect(result).toMatchObject({ matches: ['a.ts'], complete: false, incompleteReasons: ['time-budget'], recovery: { failureKind: 'timeout' } });
    expect(result.stats.elapsedMs).toBe(60);
    expect(events).toEqual([{ type: 'ripgrep-recovery', selectionMode: 'explicit', retryTriggered: false, failureKind: 'timeout' }]);
  });

  it('stops a silent child at the time budget with the real clock', async () => {
    const started = performance.now();
    const { result, fake } = await search([[{ stdout: nul('a.ts') }, { hang: true }]], { timeBudgetMs: 40 });
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(fake.calls[0]!.killed).toBe(true);
    expect(result).toMatchObject({ matches: ['a.ts'], incompleteReasons: ['time-budget'] });
  });

  it('stops on abort and kills the child', async () => {
    const controller = new AbortController();
    const { result, fake } = await search([[{ stdout: nul('a.ts') }, { run: () => controller.abort() }, { hang: true }]], { signal: controller.signal });
    expect(fake.calls[0]!.killed).toBe(true);
    expect(result).toMatchObject({ matches: ['a.ts'], incompleteReasons: ['aborted'] });
  });

  it('starts nothing when already aborted or when the budget is zero', async () => {
    const aborted = await search([[{ exit: 0 }]], { signal: AbortSignal.abort() });
    expect(aborted.fake.calls).toHaveLength(0);
    expect(aborted.result).toMatchObject({ matches: [], complete: false, incompleteReasons: ['aborted'] });
    const spent = await search([[{ exit: 0 }]], { timeBudgetMs: 0 });
    expect(spent.fake.calls).toHaveLength(0);
    expect(spent.result).toMatchObject({ complete: false, incompleteReasons: ['time-budget'] });
  });

  it('reports the depth limit whenever the patterns reach past maxDepth, and not when they cannot', async () => {
    const deep = await search([[{ stdout: nul('a.ts') }, { exit: 0 }]], { maxDepth: 1 });
    expect(deep.fake.calls[0]!.argv).toEqual([...FIXED, '--max-depth', '1']);
    expect(deep.result).toMatchObject({ matches: ['a.ts'], complete: false, incompleteReasons: ['depth-limit'] });
    const anchored = await search([[{ stdout: nul('src/a.ts') }, { exit: 0 }]], { maxDepth: 2, pattern: 'src/*.ts' });
    expect(anchored.result).toMatchObject({ matches: ['src/a.ts'], complete: true });
  });

  it('reports the depth limit when the patterns reach exactly one level past maxDepth (src/*.ts, maxDepth 1)', async () => {
    // Kills an off-by-one in isDepthLimited (`reach - 1`): src/x.ts lies at depth 2, past the limit, unread.
    const { result } = await search([[{ exit: 1 }]], { maxDepth: 1, pattern: 'src/*.ts' });
    expect(result).toMatchObject({ matches: [], complete: false, incompleteReasons: ['depth-limit'] });
  });

  it('a `/` inside a group does not make a path pattern: @(a/b|c.ts) is a name at any depth, so maxDepth 3 leaves some unread', async () => {
    // Read as two segments, it reached depth 2 only, and the answer said complete while c.ts could lie at depth 4.
    const { result } = await search([[{ stdout: nul('c.ts') }, { exit: 0 }]], { maxDepth: 3, pattern: '@(a/b|c.ts)' });
    expect(result).toMatchObject({ matches: ['c.ts'], complete: false, incompleteReasons: ['depth-limit'] });
  });
});

describe('the walker decides what is returned', () => {
  it('filters listed paths through hidden, exclude and the pattern, as the walker would', async () => {
    const { result } = await search([[{ stdout: nul('a.ts', '.git/x.ts', 'src/.env.ts', 'dist/out.ts', 'src/dist/y.ts', 'b.js') }, { exit: 0 }]], {
      hidden: false,
      exclude: ['dist'],
    });
    expect(result.matches).toEqual(['a.ts']);
    expect(result.excludedCount).toBe(2);
  });

  it('each option alone still filters the listed paths: hidden: false, maxDepth, exclude (a file, and all in a directory)', async () => {
    // ripgrep lists a dot path a whitelist rule names, and its --glob and --max-depth need not be the walker's: each alone must take the filtering path.
    const hidden = await search([[{ stdout: nul('a.ts', '.github/x.ts', 'src/.b.ts', 'src/c.ts') }, { exit: 0 }]], { hidden: false });
    expect(hidden.result.matches).toEqual(['a.ts', 'src/c.ts']);
    const depth = await search([[{ stdout: nul('a.ts', 'src/b.ts', 'src/deep/c.ts', 'src/deep/er/d.ts') }, { exit: 0 }]], { maxDepth: 2 });
    expect(depth.result).toMatchObject({ matches: ['a.ts', 'src/b.ts'], complete: false, incompleteReasons: ['depth-limit'] });
    const excluded = await search([[{ stdout: nul('a.ts', 'x.gen.ts', 'dist/out.ts', 'src/dist/y.ts', 'src/b.ts', 'src/c.ts') }, { exit: 0 }]], { exclude: ['dist', '*.gen.ts'] });
    expect(excluded.result).toMatchObject({ matches: ['a.ts', 'src/b.ts', 'src/c.ts'], excludedCount: 3, complete: true });
    // A path pattern with an exclusion: the file is matched by its whole path, a name pattern by its name alone.
    const byPath = await search([[{ stdout: nul('src/b.ts', 'lib/c.ts', 'x/a1.ts') }, { exit: 0 }]], { pattern: ['src/b.ts', 'a*'], exclude: ['none'] });
    expect(byPath.result.matches).toEqual(['src/b.ts', 'x/a1.ts']);
    const byName = await search([[{ stdout: nul('x/a1.ts', 'b.ts') }, { exit: 0 }]], { pattern: 'a*' });
    expect(byName.result.matches).toEqual(['x/a1.ts']);
  });

  it('keeps a skipped directory only where the walker would have read it', async () => {
    const stderr = ['./lib/deny', './src/deny', './.cache', './src/dist', './src/deep/er'].map((p) => `${p}: Permission denied (os error 13)\n`).join('');
    const { result } = await search([[{ stderr }, { exit: 2 }]], { pattern: 'src/**/*.ts', hidden: false, exclude: ['dist/'], maxDepth: 3 });
    // lib: pruned (no pattern reaches it); .cache: hidden; src/dist: excluded; src/deep/er: at the limit (a peek).
    expect(result.skipped).toEqual([{ path: 'src/deny', code: 'EACCES' }]);
  });

  it('keeps the root and a directory within the depth limit, as the walker reads them, with hidden: false', async () => {
    // The root is read whatever its name looks like ("." is not a hidden name); src/a is at depth 2 < maxDepth 3, src/a/b at the limit (a peek);
    // .cache and src/.git are hidden, though the pattern could reach into them.
    // lib and a/b are excluded (by name and by path): nothing under them is read either.
    const stderr = ['./', './src/a', './src/a/b', './.cache', './src/.git', './lib/x', './a/b/c'].map((p) => `${p}: Permission denied (os error 13)\n`).join('');
    const { result } = await search([[{ stderr }, { exit: 2 }]], { pattern: '**/*.ts', hidden: false, maxDepth: 3, exclude: ['lib', 'a/b'] });
    expect(result.skipped).toEqual([
      { path: '.', code: 'EACCES' },
      { path: 'src/a', code: 'EACCES' },
    ]);
    // Each directory on the way is judged by its own path: a/b is excluded, so a/b/c/d is never read.
    const byPath = await search([[{ stderr: './a/b/c/d: Permission denied (os error 13)\n' }, { exit: 2 }]], { pattern: '**/*.ts', exclude: ['a/b'] });
    expect(byPath.result.skipped).toEqual([]);
  });

  it('skips names that are not valid UTF-8 as EILSEQ, the walker way, and keeps a real U+FFFD name', async () => {
    const { writeFileSync, mkdirSync } = await import('node:fs');
    mkdirSync(join(root, 'utf8'), { recursive: true });
    writeFileSync(join(root, 'utf8', 'real-\uFFFD.ts'), '');
    const raw = Buffer.concat([
      Buffer.from('utf8/bad'), Buffer.from([0xff]), Buffer.from('/in.ts\0'), // a directory name with a bad byte
      Buffer.from('utf8/f'), Buffer.from([0xfe]), Buffer.from('.ts\0'), // a file name with a bad byte
      Buffer.from('utf8/bad'), Buffer.from([0xff]), Buffer.from('/other.ts\0'), // the same directory again: one entry
      Buffer.from('utf8/real-\uFFFD.ts\0'),
    ]);
    const { result } = await search([[{ stdout: raw }, { exit: 0 }]]);
    rmSync(join(root, 'utf8'), { recursive: true, force: true });
    expect(result.matches).toEqual(['utf8/real-\uFFFD.ts']);
    expect(result.skipped).toEqual([
      { path: 'utf8/bad\uFFFD', code: 'EILSEQ' },
      { path: 'utf8/f\uFFFD.ts', code: 'EILSEQ' },
    ]);
    expect(result).toMatchObject({ complete: false, incompleteReasons: ['io-error'] });
  });

  it('returns native absolute paths with absolute: true', async () => {
    const { result } = await search([[{ stdout: nul('a/b.ts') }, { exit: 0 }]], { absolute: true });
    expect(result.matches).toEqual([join(root, 'a', 'b.ts')]);
  });

  it('rejects a missing root with the walker error, before starting anything', async () => {
    const fake = new FakeRipgrep([{ exit: 0 }]);
    await expect(findFiles({ root: join(root, 'nope'), pattern: '*', backend: 'ripgrep', rgPath, runner: fake.runner })).rejects.toMatchObject({
      name: 'FindFileError',
      code: 'ENOENT',
    });
    expect(fake.calls).toHaveLength(0);
  });
});

describe('recovery events', () => {
  it('never carry the pattern, a path, stdout or stderr', async () => {
    const { events } = await search([[{ stdout: nul('secret-dir/secret-file.ts') }, { stderr: './secret-deny: nope (os error 13)\nsecret text\n' }, { exit: 2 }]], {
      pattern: 'secret-*.ts',
    });
    expect(events).toHaveLength(1);
    expect(Object.keys(events[0]!).sort()).toEqual(['failureKind', 'retryTriggered', 'selectionMode', 'type']);
    expect(JSON.stringify(events)).not.toMatch(/secret/);
  });

  it('a throwing onEvent does not change the answer', async () => {
    const fake = new FakeRipgrep([{ stdout: nul('a.ts') }, { exit: 2 }]);
    const result = await findFiles({ root, pattern: '*.ts', backend: 'ripgrep', rgPath, runner: fake.runner, onEvent: () => { throw new Error('telemetry down'); } });
    expect(result).toMatchObject({ matches: ['a.ts'], recovery: { failureKind: 'exit' } });
  });
});

describe('backend selection', () => {
  const emptyPath = () => ({ PATH: join(rgPath, '..', 'nothing-here') });

  it('auto runs ripgrep when it resolves', async () => {
    const { result } = await search([[{ stdout: nul('a.ts') }, { exit: 0 }]], { backend: 'auto' });
    expect(result).toMatchObject({ backend: 'ripgrep', matches: ['a.ts'] });
    expect(result).not.toHaveProperty('fallbackReason');
  });

  it('ripgrep cannot see links and says so: linkMatches empty, linksExamined false', async () => {
    const { result } = await search([[{ exit: 1 }]]);
    expect(result).toMatchObject({ backend: 'ripgrep', complete: true, matchedCount: 0, linkMatches: [], linkMatchedCount: 0, linksExamined: false });
    expect(result).not.toHaveProperty('fallbackReason');
  });

  it('auto lets the walker answer a complete, empty ripgrep listing (links-unexamined), keeping the recovery record', async () => {
    const { result, fake, events } = await search([[{ exit: 1 }]], { backend: 'auto' });
    expect(fake.calls).toHaveLength(1);
    expect(result).toMatchObject({ backend: 'walker', fallbackReason: 'links-unexamined', linksExamined: true, complete: true, recovery: { selectionMode: 'explicit', retryTriggered: false } });
    expect(result.recovery).not.toHaveProperty('failureKind');
    expect(events).toEqual([]); // not a failure: nothing to report
  });

  it('auto keeps ripgrep\'s answer when it found a file, or when its empty answer is incomplete', async () => {
    const found = await search([[{ stdout: nul('a.ts') }, { exit: 0 }]], { backend: 'auto' });
    expect(found.result).toMatchObject({ backend: 'ripgrep', matches: ['a.ts'], linksExamined: false });
    expect(found.result).not.toHaveProperty('fallbackReason');
    const denied = await search([[{ stderr: './deny: Permission denied (os error 13)\n' }, { exit: 2 }]], { backend: 'auto' });
    expect(denied.result).toMatchObject({ backend: 'ripgrep', complete: false, linksExamined: false });
    expect(denied.result).not.toHaveProperty('fallbackReason');
  });

  it('the links-unexamined walk runs in the time ripgrep left', async () => {
    const clock = new FakeClock();
    const { result } = await search([[{ run: () => clock.advance(10) }, { exit: 1 }]], { backend: 'auto', clock, timeBudgetMs: 10 });
    expect(result).toMatchObject({ backend: 'walker', fallbackReason: 'links-unexamined', complete: false, incompleteReasons: ['time-budget'], stats: { dirsRead: 0 } });
  });

  it('auto runs the walker, saying why, when ripgrep is not found', async () => {
    const { result, fake } = await search([], { backend: 'auto', rgPath: undefined, env: emptyPath() });
    expect(fake.calls).toHaveLength(0);
    expect(result).toMatchObject({ backend: 'walker', fallbackReason: 'rg-not-found', complete: true });
    expect(result).not.toHaveProperty('recovery');
  });

  it('auto runs the walker for an injected fs, without resolving or starting ripgrep', async () => {
    const fs = await import('node:fs');
    const { result, fake } = await search([], { backend: 'auto', fs });
    expect(fake.calls).toHaveLength(0);
    expect(result).toMatchObject({ backend: 'walker', fallbackReason: 'fs-injected' });
  });

  it('auto runs the walker when maxDepth hides what the patterns could reach', async () => {
    const { result, fake } = await search([], { backend: 'auto', maxDepth: 2 });
    expect(fake.calls).toHaveLength(0);
    expect(result).toMatchObject({ backend: 'walker', fallbackReason: 'max-depth' });
  });

  it('auto falls back to the walker when ripgrep failed without a match, keeping the recovery record', async () => {
    const { result, events } = await search([[{ error: 'ENOEXEC' }]], { backend: 'auto' });
    expect(result).toMatchObject({ backend: 'walker', fallbackReason: 'spawn', complete: true, recovery: { failureKind: 'spawn' } });
    expect(events).toEqual([{ type: 'ripgrep-recovery', selectionMode: 'explicit', retryTriggered: false, failureKind: 'spawn' }]);
  });

  it('auto lets the walker answer a listing after a failure with matches (none was handed on), keeping the recovery record', async () => {
    const { result } = await search([[{ stdout: nul('a.ts') }, { stderr: 'rg: odd\n' }, { exit: 2 }]], { backend: 'auto' });
    expect(result).toMatchObject({ backend: 'walker', fallbackReason: 'exit', recovery: { failureKind: 'exit' } });
  });

  it('auto keeps a permission-denied ripgrep answer (it is an answer, not a failure)', async () => {
    const { result } = await search([[{ stderr: './deny: Permission denied (os error 13)\n' }, { exit: 2 }]], { backend: 'auto' });
    expect(result).toMatchObject({ backend: 'ripgrep', skipped: [{ path: 'deny', code: 'EACCES' }] });
  });

  it('auto does not run the walker after a spent time budget', async () => {
    const clock = new FakeClock();
    const { result } = await search([[{ run: () => clock.advance(20) }, { stderr: 'x\n' }, { hang: true }]], { backend: 'auto', clock, timeBudgetMs: 10 });
    expect(result).toMatchObject({ backend: 'ripgrep', incompleteReasons: ['time-budget'] });
  });

  it('forced ripgrep that cannot be found rejects with FF_RG_NOT_FOUND, not a result', async () => {
    const error = await search([], { rgPath: undefined, env: emptyPath() }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FindFileError);
    expect(error).toMatchObject({ code: 'FF_RG_NOT_FOUND', option: 'backend' });
  });

  it('refuses, before any I/O, ripgrep with an injected fs, and bad backend options', async () => {
    const fs = await import('node:fs');
    const cases: [Partial<FindOptions>, string][] = [
      [{ backend: 'ripgrep', fs }, 'backend'],
      [{ rgPath: 'rg' }, 'rgPath'],
      [{ rgPath: 'bin/rg' }, 'rgPath'],
      [{ runner: 'spawn' as never }, 'runner'],
      [{ onEvent: 1 as never }, 'onEvent'],
      [{ env: { PATH: 1 } as never }, 'env'],
      [{ backend: 'rg' as never }, 'backend'],
    ];
    for (const [options, option] of cases) {
      await expect(findFiles({ root: join(root, 'no-such-root'), pattern: '*', ...options }), option).rejects.toMatchObject({ code: 'FF_INVALID_OPTION', option });
    }
  });

  it('the sync and stream forms refuse ripgrep and run the walker for auto, saying so', async () => {
    expect(() => findFilesSync({ root, pattern: '*', backend: 'ripgrep' })).toThrow(expect.objectContaining({ code: 'FF_INVALID_OPTION' }));
    expect(() => findFilesStream({ root, pattern: '*', backend: 'ripgrep' })).toThrow(expect.objectContaining({ code: 'FF_INVALID_OPTION' }));
    expect(findFilesSync({ root, pattern: '*', backend: 'auto' })).toMatchObject({ backend: 'walker', fallbackReason: 'api' });
    const stream = findFilesStream({ root, pattern: '*', backend: 'auto' });
    for await (const _ of stream);
    expect(await stream.summary).toMatchObject({ backend: 'walker', fallbackReason: 'api' });
  });

  it('walker stays the default and never resolves ripgrep', async () => {
    const fake = new FakeRipgrep();
    const result = await findFiles({ root, pattern: '*', runner: fake.runner, rgPath: join(root, 'missing-rg') });
    expect(result.backend).toBe('walker');
    expect(result).not.toHaveProperty('recovery');
    expect(fake.calls).toHaveLength(0);
  });
});
