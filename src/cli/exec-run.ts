/**
 * Runs `-x`/`-X` commands on the matches of a search (exec.ts has the rules), as fd does:
 *
 * - every command is spawned with `shell: false`: its words are argv elements, never shell text;
 * - `-x` starts a run per path as the paths are found, at most `jobs` at a time. With more than
 *   one job, each run's stdout and stderr are held until it ends and then written whole, so the
 *   output of parallel runs never interleaves within a line; with one job (and for `-X`) the
 *   command gets the terminal itself, as fd gives it (an editor works);
 * - a run that cannot start, exits non-zero or is killed by a signal makes the command exit 1,
 *   fd's rule; the search goes on and every path still gets its run;
 * - Ctrl-C (`signal` aborted) starts no more runs: `-X` does not run at all on the part found, and
 *   `-x` lets the runs already started end. A run that ends by SIGINT counts as Ctrl-C too: the
 *   terminal sends it to the run and to this process alike, and the run's end may be read first
 *   (each signal is taken on whichever thread gets it): one more run had started after a Ctrl-C,
 *   1 time in 40 beside two busy processes. GNU xargs also stops when a command is killed by a signal.
 */
import { spawn } from 'node:child_process';
import { escapeText } from '../text-escape.js';
import { argvFor, batchArgvs, type ExecCommand } from './exec.js';
import { writeAll } from './print.js';

/** How to run the command: the words, and how many runs of `-x` may go at once. */
export interface ExecPlan extends ExecCommand {
  jobs: number;
}

/** How the runs went: `ok` when every run that started succeeded; `notRun` of `runs` never started (Ctrl-C). */
export interface ExecOutcome {
  ok: boolean;
  /** The runs the matches made: one per path with `-x`, one per argv-sized batch with `-X`. */
  runs: number;
  notRun: number;
  /** A run ended by SIGINT (Ctrl-C reached it): no run started after it. */
  interrupted: boolean;
}

/**
 * Runs the command on the paths as they come (each already as the command gets it: exec.ts
 * `asArgument`). Resolves when every run has ended.
 */
export async function execOnPaths(batches: AsyncIterable<string[]>, plan: ExecPlan, signal?: AbortSignal): Promise<ExecOutcome> {
  let ok = true;
  let runs = 0;
  let notRun = 0;
  let interrupted = false;
  const stopped = () => interrupted || signal?.aborted === true;
  const ended = (end: RunEnd) => {
    ok = end.ok && ok;
    interrupted ||= end.bySigint;
  };
  if (plan.batch) {
    const files: string[] = [];
    for await (const batch of batches) files.push(...batch);
    // fd runs nothing when nothing matched: a command given no path could act on its default (`rm`, `ls` on `.`).
    for (const argv of batchArgvs(plan.words, files)) {
      runs++;
      if (stopped()) notRun++;
      else ended(await runOnce(argv, false));
    }
    return { ok, runs, notRun, interrupted };
  }
  const buffered = plan.jobs > 1;
  const running = new Set<Promise<void>>();
  for await (const batch of batches) {
    for (const file of batch) {
      runs++;
      while (running.size >= plan.jobs) await Promise.race(running);
      // Counted, not started: the summary says how many runs the interrupt left out.
      if (stopped()) {
        notRun++;
        continue;
      }
      const run: Promise<void> = runOnce(argvFor(plan.words, file), buffered).then((end) => {
        ended(end);
        running.delete(run);
      });
      running.add(run);
    }
  }
  await Promise.all(running);
  return { ok, runs, notRun, interrupted };
}

/** How one run ended: `ok` when it exited 0; `bySigint` when SIGINT ended it. */
interface RunEnd {
  ok: boolean;
  bySigint: boolean;
}

/** One run of the command. `buffered`: its output is written whole when it ends. */
function runOnce(argv: string[], buffered: boolean): Promise<RunEnd> {
  const [command, ...args] = argv as [string, ...string[]];
  return new Promise((resolve) => {
    const child = spawn(command, args, { shell: false, windowsHide: true, stdio: buffered ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout?.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => err.push(chunk));
    let settled = false;
    const settle = async (ok: boolean, problem?: string, bySigint = false) => {
      if (settled) return;
      settled = true;
      if (out.length > 0) await writeAll(Buffer.concat(out) as unknown as string);
      if (err.length > 0) await writeAll(Buffer.concat(err) as unknown as string, process.stderr);
      if (problem !== undefined) await writeAll(`find-file: error: ${escapeText(problem)}\n`, process.stderr);
      resolve({ ok, bySigint });
    };
    child.on('error', (error: NodeJS.ErrnoException) => void settle(false, `cannot run ${command}: ${error.code ?? error.message}`));
    // 'close': the process has ended and its pipes are drained, so nothing it wrote is lost.
    child.on('close', (code, signal) => void settle(code === 0, signal === null ? undefined : `${command} was killed by ${signal}`, signal === 'SIGINT'));
  });
}
