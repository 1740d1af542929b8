/**
 * The system under test for the conformance suites, run in a worker thread (sut-worker.mjs) so that
 * a pattern that hangs find-file is a reported answer (`hang`), not a hung test run.
 */
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

export type Mode = 'async' | 'sync' | 'stream' | 'ripgrep' | 'auto';

/** find-file's answer for one case in one API form. */
export type Answer =
  | { kind: 'result'; matches: string[]; complete: boolean; reasons: readonly string[] }
  | { kind: 'refused'; code: string; message: string }
  | { kind: 'error'; message: string }
  | { kind: 'hang'; message: string };

/** One worker thread running the SUT; replaced when a case misses its deadline or kills it. */
export class SutRunner {
  private worker: Worker | undefined;
  private ready: Promise<void> | undefined;
  private nextId = 0;

  constructor(
    /** The built module under test (dist/lib/index.js, the shipped bundle). */
    private readonly sut: string,
    /** A case not answered by then (every mode asked) is a hang: the worker is replaced. */
    private readonly caseTimeoutMs: number,
    /**
     * Ask a case that missed the deadline once more, with ten times the time, before calling it a hang
     * (the conformance suite: ordinary patterns on tiny trees, where a miss means a starved worker).
     * The stress family keeps one strict deadline: its patterns are the ones built to backtrack.
     */
    private readonly askAgain = false,
  ) {}

  private start(): Promise<void> {
    const worker = new Worker(new URL('./sut-worker.mjs', import.meta.url), {
      workerData: { sut: pathToFileURL(this.sut).href },
      // An endless loop that allocates must not take the machine with it.
      resourceLimits: { maxOldGenerationSizeMb: 768 },
    });
    this.worker = worker;
    this.ready = new Promise((resolveReady, reject) => {
      const onMessage = (m: { ready?: boolean }) => {
        if (m.ready) {
          worker.off('error', reject);
          resolveReady();
        }
      };
      worker.once('message', onMessage);
      worker.once('error', reject);
    });
    return this.ready;
  }

  /** Cases that did not answer within the deadline and did when asked again (a loaded machine, not a hang). */
  slowOnce = 0;

  /**
   * A case's answers. With `askAgain`, one not answered within the deadline is asked again in a fresh worker with ten
   * times the time: a pattern that backtracks does not answer then either (a hang, reported), while a
   * case whose worker was starved by a loaded machine, or whose rg runs waited for a core, does. The
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
    if (this.worker === undefined) await this.start();
    else await this.ready;
    const worker = this.worker!;
    const id = this.nextId++;
    const all = (answer: Answer) => Object.fromEntries(modes.map((m) => [m, answer])) as Partial<Record<Mode, Answer>>;
    return new Promise((done) => {
      const finish = (answers: Partial<Record<Mode, Answer>>, kill: boolean) => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        if (kill) this.stop();
        done(answers);
      };
      const onMessage = (m: { id?: number; answers?: Partial<Record<Mode, Answer>> }) => {
        if (m.id === id) finish(m.answers!, false);
      };
      const onError = (error: Error) => finish(all({ kind: 'error', message: `the worker died: ${error.message}` }), true);
      const onExit = (code: number) => finish(all({ kind: 'error', message: `the worker exited (${code})` }), true);
      const timer = setTimeout(() => finish(all({ kind: 'hang', message: `no answer within ${timeoutMs} ms` }), true), timeoutMs);
      worker.on('message', onMessage);
      worker.once('error', onError);
      worker.once('exit', onExit);
      worker.postMessage({ id, root, pattern: c.pattern, nocase: c.nocase, modes });
    });
  }

  stop(): void {
    void this.worker?.terminate();
    this.worker = undefined;
  }
}

