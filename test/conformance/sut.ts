/**
 * The system under test for the conformance suites, run in a child process (sut-child.mjs) so that
 * a pattern that hangs find-file is a reported answer (`hang`), not a hung test run.
 *
 * A process, not a worker thread: the backends spawn rg for their cases (about 1,000 per run), and
 * Node spawns by forking the process it runs in. From vitest's worker, whose memory grows with
 * every test file it has run (isolate: false), a spawn cost 13-23 ms of CPU against 2 from a small
 * process (docs/reliability.md): the conformance file took 69 s of CPU, 25 s of it on rg's cases.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { realRg } from '../helpers/real-rg.js';

/**
 * The SUT's PATH: the folder of the ripgrep the suite found (test/helpers/real-rg.ts, found the way
 * find-file finds it), alone. Its ripgrep and auto searches (~1,000 a run) each look rg up on the
 * PATH: 0.24 ms of CPU in one folder, 0.61 ms in a developer's eleven. The same rg is found either way.
 */
const SUT_ENV = realRg.path === undefined ? process.env : { ...process.env, PATH: dirname(realRg.path) };

export type Mode = 'async' | 'sync' | 'stream' | 'ripgrep' | 'auto';

/** find-file's answer for one case in one API form. */
export type Answer =
  | { kind: 'result'; matches: string[]; complete: boolean; reasons: readonly string[] }
  | { kind: 'refused'; code: string; message: string }
  | { kind: 'error'; message: string }
  | { kind: 'hang'; message: string };

/** One child process running the SUT; replaced when a case misses its deadline or kills it. */
export class SutRunner {
  private child: ChildProcess | undefined;
  private ready: Promise<void> | undefined;
  private nextId = 0;

  constructor(
    /** The built module under test (dist/lib/index.js, the shipped bundle). */
    private readonly sut: string,
    /** A case not answered by then (every mode asked) is a hang: the process is replaced. */
    private readonly caseTimeoutMs: number,
    /**
     * Ask a case that missed the deadline once more, with ten times the time, before calling it a hang
     * (the conformance suite: ordinary patterns on tiny trees, where a miss means a starved process).
     * The stress family keeps one strict deadline: its patterns are the ones built to backtrack.
     */
    private readonly askAgain = false,
  ) {}

  private start(): Promise<void> {
    const child = fork(fileURLToPath(new URL('./sut-child.mjs', import.meta.url)), [pathToFileURL(this.sut).href], {
      // An endless loop that allocates must not take the machine with it.
      execArgv: ['--max-old-space-size=768'],
      env: SUT_ENV,
      // Its stdout and stderr are the suite's (a crash's message shows there); only the channel is private.
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.child = child;
    this.ready = new Promise((resolveReady, reject) => {
      // It ends before saying it is ready when the build cannot be imported (its error is on stderr).
      const onExit = (code: number | null) => reject(new Error(`the SUT process exited (${code}) before it was ready: ${this.sut}`));
      const onMessage = (m: { ready?: boolean }) => {
        if (m.ready) {
          child.off('error', reject);
          child.off('exit', onExit);
          resolveReady();
        }
      };
      child.once('message', onMessage);
      child.once('error', reject);
      child.once('exit', onExit);
    });
    return this.ready;
  }

  /** Cases that did not answer within the deadline and did when asked again (a loaded machine, not a hang). */
  slowOnce = 0;

  /**
   * A case's answers. With `askAgain`, one not answered within the deadline is asked again in a fresh process with ten
   * times the time: a pattern that backtracks does not answer then either (a hang, reported), while a
   * case whose process was starved by a loaded machine, or whose rg runs waited for a core, does. The
   * verdict then never depends on the machine being idle.
   */
  async run(root: string, c: { pattern: string; nocase: boolean }, modes: Mode[]): Promise<Partial<Record<Mode, Answer>>> {
    const first = await this.attempt(root, c, modes, this.caseTimeoutMs);
    if (!this.askAgain || Object.values(first).every((a) => a?.kind !== 'hang')) return first;
    const again = await this.attempt(root, c, modes, this.caseTimeoutMs * 10);
    if (Object.values(again).some((a) => a?.kind === 'hang')) {
      const message = `no answer within ${this.caseTimeoutMs} ms, nor within ${this.caseTimeoutMs * 10} ms when asked again`;
      return Object.fromEntries(modes.map((m) => [m, { kind: 'hang', message }])) as Partial<Record<Mode, Answer>>;
    }
    this.slowOnce++;
    return again;
  }

  private async attempt(root: string, c: { pattern: string; nocase: boolean }, modes: Mode[], timeoutMs: number): Promise<Partial<Record<Mode, Answer>>> {
    if (this.child === undefined) await this.start();
    else await this.ready;
    const child = this.child!;
    const id = this.nextId++;
    const all = (answer: Answer) => Object.fromEntries(modes.map((m) => [m, answer])) as Partial<Record<Mode, Answer>>;
    return new Promise((done) => {
      const finish = (answers: Partial<Record<Mode, Answer>>, kill: boolean) => {
        clearTimeout(timer);
        child.off('message', onMessage);
        child.off('error', onError);
        child.off('exit', onExit);
        if (kill) this.stop();
        done(answers);
      };
      const onMessage = (m: { id?: number; answers?: Partial<Record<Mode, Answer>> }) => {
        if (m.id === id) finish(m.answers!, false);
      };
      const onError = (error: Error) => finish(all({ kind: 'error', message: `the SUT process failed: ${error.message}` }), true);
      const onExit = (code: number | null, signal: NodeJS.Signals | null) => finish(all({ kind: 'error', message: `the SUT process exited (${code ?? signal})` }), true);
      const timer = setTimeout(() => finish(all({ kind: 'hang', message: `no answer within ${timeoutMs} ms` }), true), timeoutMs);
      child.on('message', onMessage);
      child.once('error', onError);
      child.once('exit', onExit);
      child.send({ id, root, pattern: c.pattern, nocase: c.nocase, modes });
    });
  }

  stop(): void {
    // SIGKILL: a child stuck in a loop never reads a gentler request.
    this.child?.kill('SIGKILL');
    this.child = undefined;
  }
}

