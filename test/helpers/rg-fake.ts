/**
 * A scripted stand-in for ripgrep: each call of the runner plays the next script, step by step,
 * asynchronously (as a real child does), and records what it was asked to run and whether it was
 * killed. A killed child stops playing and reports exit `null`/`SIGTERM`, as Node does.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll } from 'vitest';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Deadline } from '../../src/limits.js';
import { buildFilesArgv } from '../../src/rg/argv.js';
import { runRipgrep, type RecordConsumer } from '../../src/rg/run.js';
import type { ProcessListener, ProcessRequest, ProcessRunner } from '../../src/rg/runner.js';

export type Step =
  | { stdout: string | Uint8Array }
  | { stderr: string | Uint8Array }
  | { exit: number | null; signal?: string }
  /** The runner's `error` report, with this errno name. */
  | { error: string }
  /** Runs test code between two chunks (advance a clock, abort a signal). */
  | { run: () => void }
  /** Holds until the child is killed. */
  | { hang: true }
  /** Holds until the promise settles (a gate the test opens) or the child is killed. */
  | { until: Promise<unknown> };

export interface Call {
  executable: string;
  argv: string[];
  cwd: string;
  env: Record<string, string>;
  killed: boolean;
}

export class FakeRipgrep {
  readonly calls: Call[] = [];
  private readonly scripts: Step[][];

  constructor(...scripts: Step[][]) {
    this.scripts = scripts;
  }

  readonly runner: ProcessRunner = (request: ProcessRequest, listener: ProcessListener) => {
    const call: Call = { executable: request.executable, argv: [...request.argv], cwd: request.cwd, env: { ...request.env }, killed: false };
    this.calls.push(call);
    const script = this.scripts[this.calls.length - 1];
    if (script === undefined) throw new Error(`fake ripgrep: no script for call ${this.calls.length}`);
    const killed = new Promise<void>((resolve) => {
      const onAbort = () => {
        call.killed = true;
        resolve();
      };
      if (request.signal.aborted) onAbort();
      else request.signal.addEventListener('abort', onAbort, { once: true });
    });
    void play(script, listener, call, killed);
  };
}

async function play(script: Step[], listener: ProcessListener, call: Call, killed: Promise<void>): Promise<void> {
  for (const step of script) {
    await new Promise((resolve) => setImmediate(resolve));
    if (call.killed) break;
    if ('stdout' in step) listener.stdout(bytes(step.stdout));
    else if ('stderr' in step) listener.stderr(bytes(step.stderr));
    else if ('exit' in step) listener.exit(step.exit, step.signal ?? null);
    else if ('error' in step) listener.error(Object.assign(new Error(`spawn ${step.error}`), { code: step.error }));
    else if ('run' in step) step.run();
    else if ('until' in step) await Promise.race([step.until, killed]);
    else await killed;
  }
  if (call.killed) listener.exit(null, 'SIGTERM');
}

function bytes(data: string | Uint8Array): Uint8Array {
  return typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
}

/** NUL-terminated records, as `rg --files --null` prints them. */
export function nul(...paths: string[]): string {
  return paths.map((p) => p + '\0').join('');
}

/** The panic ripgrep prints when it cannot create its worker threads. */
export const EAGAIN_PANIC =
  "thread 'main' panicked at 'failed to spawn scoped thread: Os { code: 11, kind: WouldBlock, message: \"Resource temporarily unavailable\" }', /build/ignore/src/walk.rs:1305:18\n" +
  'note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n';

/** A clock the test moves. */
export class FakeClock {
  t = 0;
  now = (): number => this.t;
  advance(ms: number): void {
    this.t += ms;
  }
}

/** A clock that moves 1 ms at each reading and counts them: a budget is then a number of readings. */
export function tickingClock(): { reads: number; now: () => number } {
  const clock = new FakeClock();
  const ticking = { reads: 0, now: () => (ticking.reads++, clock.advance(1), clock.now()) };
  return ticking;
}

/** `rg: ./<200 bytes 0xF8><i>: Permission denied (os error 13)` for i below `count`: how ripgrep prints a denied name that is not UTF-8. */
export function deniedUndecodableLines(count: number): Buffer {
  return Buffer.concat(Array.from({ length: count }, (_, i) => Buffer.concat([Buffer.from('rg: ./'), Buffer.alloc(200, 0xf8), Buffer.from(`${i}: Permission denied (os error 13)\n`)])));
}

/** An empty executable file to use as `rgPath` (resolution checks it exists), and an empty root. */
/**
 * A fake install for a whole test file: made before its tests, removed after them. `onReady`
 * receives it (tests keep `rgPath` and `root` in their own variables).
 */
export function useFakeInstall(onReady: (install: { rgPath: string; root: string; dir: string }) => void): void {
  let made: { rgPath: string; root: string; dir: string } | undefined;
  beforeAll(() => {
    made = makeFakeInstall();
    onReady(made);
  });
  afterAll(() => {
    if (made === undefined) return;
    for (const dir of [made.dir, made.root]) rmSync(dir, { recursive: true, force: true });
  });
}

export function makeFakeInstall(): { rgPath: string; root: string; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'ff-rg-fake-'));
  const rgPath = join(dir, process.platform === 'win32' ? 'rg.exe' : 'rg');
  writeFileSync(rgPath, '');
  chmodSync(rgPath, 0o755);
  const root = mkdtempSync(join(tmpdir(), 'ff-rg-root-'));
  return { rgPath, root, dir };
}

/** Takes every stdout record, asking for more each time. */
export class CollectRecords implements RecordConsumer {
  readonly records: string[] = [];
  record(text: string): boolean {
    this.records.push(text);
    return true;
  }
}

/**
 * One `--files` run of the fake below the public API (run.ts alone), no budget, no signal: what
 * test/rg/run.test.ts and test/rg/stderr-flood.test.ts drive. `at`: the fake install's rg and root.
 */
export function runFakeListing(script: Step[], at: { rgPath: string; root: string }, platform: 'posix' | 'win32' = 'posix', maxRecordBytes = 1 << 20) {
  const fake = new FakeRipgrep(script);
  const argv = buildFilesArgv({ threads: 4, maxDepth: Infinity, excludes: [], hidden: true, caseSensitive: platform !== 'win32', gitignore: false, ignoreFiles: [], gitDirsIgnored: false });
  const outcome = runRipgrep({
    rg: { path: at.rgPath, selectionMode: 'system' },
    argv,
    cwd: at.root,
    env: {},
    runner: fake.runner,
    platform,
    signal: undefined,
    deadline: new Deadline(new FakeClock(), Infinity, 0),
    delimiter: 0,
    maxRecordBytes,
    newConsumer: () => new CollectRecords(),
  });
  return { fake, outcome };
}
