/**
 * How a child process is started: injected, so tests can play ripgrep's part byte by byte, and so
 * nothing here ever goes through a shell. The runner gets an absolute executable and an argv array;
 * it reports output as it comes, then exactly how the child ended.
 */
import { spawn, type ChildProcess } from 'node:child_process';

/** What a `ProcessRunner` is asked to start. */
export interface ProcessRequest {
  /** An absolute path. Never a bare name: nothing is looked up in the current or searched directory. */
  executable: string;
  /** Passed as is, one element per argument: no shell, no quoting, no splitting. */
  argv: readonly string[];
  /** The child's working directory: the search root (ripgrep's globs are anchored there). */
  cwd: string;
  /** The child's whole environment (nothing is inherited). */
  env: Readonly<Record<string, string>>;
  /** Aborted when no more output is wanted: the runner must kill the child. */
  signal: AbortSignal;
}

/**
 * What the runner reports. `stdout` and `stderr` chunks come first, in order; then `exit`, or
 * `error` when the child could not be started. A runner may report both `error` and `exit` for one
 * failure (Node's `child_process` does): the caller settles on the first and ignores the rest.
 */
export interface ProcessListener {
  /**
   * A chunk of the child's standard output, as it comes. A promise asks the runner to read no more
   * of it until the promise settles: the pipe fills and the child blocks on its writes (a slow
   * reader holds ripgrep back, as a pipe to a slow `less` does, instead of its output piling up here).
   */
  stdout(chunk: Uint8Array): void | Promise<void>;
  /** A chunk of the child's standard error, as it comes. */
  stderr(chunk: Uint8Array): void;
  /** The child ended, all its output delivered: the exit code, or null and the signal that ended it. */
  exit(code: number | null, signal: string | null): void;
  /** The child could not be started; `error` carries the errno name in `code` (ENOENT, EACCES, EAGAIN, ...). */
  error(error: unknown): void;
  /** The child started, with this process id (a runner that has none, a test's, never calls it). */
  started?(pid: number): void;
}

/**
 * Starts a child process (ripgrep) and reports on `listener`; injected as `runner` so tests can
 * play ripgrep's part. Must never use a shell. @default child_process.spawn with `shell: false`
 */
export type ProcessRunner = (request: ProcessRequest, listener: ProcessListener) => void;

/**
 * The real runner: `child_process.spawn` with `shell: false`. stdin is closed (`ignore`): ripgrep
 * reads stdin when it is not a terminal, and a pipe that never ends would hang it.
 */
export const spawnRunner: ProcessRunner = (request, listener) => {
  let child: ChildProcess;
  // Before the child exists: a signal that comes while it starts finds the listener (else node would
  // end at once, by the default action, and leave the child running).
  listen();
  try {
    child = spawn(request.executable, [...request.argv], {
      cwd: request.cwd,
      env: request.env,
      shell: false,
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
    });
  } catch (error) {
    // spawn throws synchronously for some bad inputs (e.g. EINVAL for a .cmd on Windows).
    release();
    listener.error(error);
    return;
  }
  running.add(child);
  if (child.pid !== undefined) listener.started?.(child.pid);
  // First: a spawn that fails (EMFILE, ENOENT) emits 'error' a tick later, with no stdio at all
  // (stdout is null), and an 'error' without a listener would crash the caller's process.
  child.on('error', (error) => {
    untrack(child);
    listener.error(error);
  });
  const kill = () => child.kill();
  if (request.signal.aborted) kill();
  else request.signal.addEventListener('abort', kill, { once: true });
  child.stdout?.on('data', (chunk: Buffer) => {
    const wait = listener.stdout(chunk);
    if (wait === undefined) return;
    child.stdout!.pause();
    const read = () => child.stdout!.resume();
    wait.then(read, read);
  });
  child.stderr?.on('data', (chunk: Buffer) => listener.stderr(chunk));
  // 'close', not 'exit': it comes after the last stdout and stderr chunk.
  child.on('close', (code, signal) => {
    untrack(child);
    request.signal.removeEventListener('abort', kill);
    listener.exit(code, signal);
  });
};

/*
 * A child outlives its parent unless someone kills it: a ripgrep blocked on a FIFO, or one with a
 * long search left, would run on, orphaned, after the process that wanted its answer was ended by
 * SIGTERM (SIGINT or SIGHUP sent to it alone). While children run, this module listens for those
 * signals: when it is the only listener, it kills the children, stops listening, and sends the
 * signal again, so the process ends as it would have (status 128 + the signal). Another listener
 * is the application's, which decides whether the process ends (the command's SIGINT aborts the
 * search, which kills the child); a `process.exit()` kills them on the way out.
 */
const running = new Set<ChildProcess>();
/** Runs started and not yet ended (a child may be starting, not yet in `running`). */
let users = 0;
const ENDING_SIGNALS: readonly NodeJS.Signals[] = ['SIGTERM', 'SIGINT', 'SIGHUP'];

function killAll(): void {
  for (const child of running) child.kill();
}

function onEndingSignal(signal: NodeJS.Signals): void {
  if (process.listenerCount(signal) > 1) return;
  killAll();
  running.clear();
  users = 0;
  stopListening();
  process.kill(process.pid, signal);
}

function listen(): void {
  if (users++ > 0) return;
  for (const signal of ENDING_SIGNALS) process.on(signal, onEndingSignal);
  process.on('exit', killAll);
}

function stopListening(): void {
  for (const signal of ENDING_SIGNALS) process.off(signal, onEndingSignal);
  process.off('exit', killAll);
}

function release(): void {
  if (users > 0 && --users === 0) stopListening();
}

function untrack(child: ChildProcess): void {
  if (running.delete(child)) release();
}
