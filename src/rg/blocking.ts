/**
 * ripgrep opens every ignore file it meets with a blocking `open`: in each directory it enters
 * (`.rgignore`, `.ignore`, `.gitignore`, a repository's `.git/info/exclude`) and in every parent
 * of the root. A FIFO by one of those names holds that open until a writer comes, which may be
 * never: the run makes no progress and never ends, past every budget or with none (a device by such
 * a name could be read without end). The walker never opens one (src/walk/ignore-io.ts stats first).
 *
 * Nothing is looked at up front: that would cost a walk of the tree on every search. When a run has
 * been silent for `STALL_MS` (no stdout, no stderr), this check looks for such a file where ripgrep
 * would open it: the root's real parents (a few `stat`s), then the tree as the walker walks it (the
 * same hidden, exclude, depth and ignore rules, so the same directories), listing only, opening no
 * file. ripgrep reads the ignore files of every directory it enters, so one found there is one it is
 * blocked on, or will be: the run is stopped (`blocked`, src/rg/exit.ts) and the file named in
 * `skipped`. A check that finds none lets the run go on and is made again after four times the
 * silence (a FIFO made during the search). Where the OS shows a process's CPU time (Linux), a
 * ripgrep whose CPU time still grows is searching, not blocked: no walk, asked again after the same
 * silence, unless one of its threads waits in a FIFO's open. Elsewhere a silent search past 1 s
 * (a content search of a large tree with no hit yet) pays one listing walk beside ripgrep (/usr,
 * 146,000 entries: ~2 s on a loaded 2-core machine), then one more at 5 s, 21 s...
 */
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { specialKindOf, type DirentLike } from '../fs.js';
import type { Deadline } from '../limits.js';
import type { PathMatcher } from '../patterns.js';
import type { FindPlan, SearchPlan } from '../plan/search-plan.js';
import { FILES_ONLY } from '../plan/select.js';
import type { SkippedEntry } from '../result.js';
import { GIT_DIR, GIT_EXCLUDE, IGNORE_FILE_NAMES, readGitExclude } from '../walk/ignore.js';

/** Silence before the first check. A silent run is common (a content search with no hit yet); a check costs a listing walk, once. */
export const STALL_MS = 1000;

/** The `skipped` code of an ignore file that is not a regular file, one ripgrep would block on (or read without end). */
export const SPECIAL_IGNORE_FILE = 'FF_SPECIAL_IGNORE_FILE';

/** Asked by a run (src/rg/run.ts) that has been silent `afterMs`: whether ripgrep is stuck. */
export interface StallWatch {
  afterMs: number;
  /**
   * True when the run must be stopped (the files found are then in `found`); `'working'` when
   * ripgrep's CPU time still grows (`pid`, where the OS shows it: Linux), so nothing was walked.
   */
  isBlocked(pid?: number): Promise<boolean | 'working'>;
  /** The run ended: a check under way stops. */
  stop(): void;
  readonly found: SkippedEntry[];
}

/** The watch for a run that reads the ignore files in the tree (`gitignore: true`); undefined when it reads none there. */
export function buildStallWatch(plan: SearchPlan<unknown>, deadline: Deadline): StallWatch | undefined {
  if (plan.scope.ignore?.defaults !== true) return undefined;
  let checking: AbortController | undefined;
  const found: SkippedEntry[] = [];
  return {
    afterMs: STALL_MS,
    found,
    stop: () => checking?.abort(),
    async isBlocked(pid) {
      const stopped = (checking = new AbortController()).signal;
      if (pid !== undefined && (await isWorking(pid))) return 'working';
      const paths = (await findAbove(plan.scope.root)) ?? (await findBelow(plan, deadline, stopped));
      if (stopped.aborted) return false;
      for (const file of paths) found.push({ path: file, code: SPECIAL_IGNORE_FILE });
      return paths.length > 0;
    },
  };
}

/** How long ripgrep's CPU time is watched before a listing walk is paid for. */
const WORKING_SAMPLE_MS = 100;

/**
 * Whether a process's CPU time grows over `WORKING_SAMPLE_MS` (Linux's /proc/PID/stat, all its
 * threads): a ripgrep still searching is not blocked on an open. Perf: a silent search (a content
 * search of a large tree with no hit yet) paid a listing walk of the tree beside ripgrep at 1 s
 * (/usr: ~2 s of a loaded 2-core machine). False where the OS does not tell: the walk decides.
 *
 * A ripgrep blocked in a FIFO's open is not idle: its parallel walker's idle threads sleep 1 ms at a
 * time (~10 ms of CPU a second, a clock tick every 0.5-1 s, more often on a loaded machine), so "it
 * grew" read it as working in one check of five to ten, and each put the answer off by another
 * second of silence. So a thread the kernel shows waiting in a FIFO's open (`wait_for_partner` in
 * /proc/PID/task/TID/wchan) means blocked, whatever the CPU time says: the walk then names the file.
 */
async function isWorking(pid: number): Promise<boolean> {
  if (await waitsInFifoOpen(pid)) return false;
  const before = await cpuTicks(pid);
  if (before === undefined) return false;
  await new Promise((resolve) => setTimeout(resolve, WORKING_SAMPLE_MS));
  const after = await cpuTicks(pid);
  return after !== undefined && after > before;
}

/** Whether a thread of the process waits in a FIFO's open (Linux; false where /proc does not tell). */
async function waitsInFifoOpen(pid: number): Promise<boolean> {
  try {
    const threads = await fsp.readdir(`/proc/${pid}/task`);
    const waits = await Promise.all(threads.map((tid) => fsp.readFile(`/proc/${pid}/task/${tid}/wchan`, 'latin1').catch(() => '')));
    return waits.includes('wait_for_partner');
  } catch {
    return false;
  }
}

/** utime + stime of a process, in clock ticks; undefined where /proc does not tell (not Linux, gone). */
async function cpuTicks(pid: number): Promise<number | undefined> {
  try {
    const stat = await fsp.readFile(`/proc/${pid}/stat`, 'latin1');
    // After the command name, which may hold spaces and `)`: fields 14 and 15 of proc(5).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? ticks : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a path (links followed) is there and is neither a regular file nor a directory: one ripgrep's open could wait on. */
async function isSpecial(file: string): Promise<boolean> {
  try {
    const stats = await fsp.stat(file);
    return !stats.isFile() && !stats.isDirectory();
  } catch {
    return false;
  }
}

/** The special ignore files of the root's real parents (native paths), or undefined when none. */
async function findAbove(root: string): Promise<string[] | undefined> {
  let dir: string;
  try {
    dir = await fsp.realpath(root);
  } catch {
    return undefined;
  }
  const candidates: string[] = [];
  for (let up = path.dirname(dir); up !== dir; dir = up, up = path.dirname(dir)) {
    for (const name of [...IGNORE_FILE_NAMES, GIT_EXCLUDE]) candidates.push(path.join(up, name));
  }
  const special = await filterSpecial(candidates);
  return special.length > 0 ? special : undefined;
}

/** Those of `paths` that name a special file (`nativeOf`: where each is on disk). */
async function filterSpecial(paths: readonly string[], nativeOf: (path: string) => string = (native) => native): Promise<string[]> {
  const checks = await Promise.all(paths.map((p) => isSpecial(nativeOf(p))));
  return paths.filter((_, i) => checks[i]);
}

/** Matches nothing and prunes nothing: the walk lists every directory ripgrep would enter. */
const NOTHING: PathMatcher = { matches: () => false, nameOnly: true, couldMatchUndecoded: () => false, couldMatchInside: () => true, prunes: false, cost: 1 };

const IGNORE_NAMES: ReadonlySet<string> = new Set(IGNORE_FILE_NAMES);

/**
 * The special ignore files in the tree (root-relative), from the walker's listing of each directory:
 * a FIFO, socket or device by an ignore file's name, a link by one that leads to such a file, and a
 * repository's `.git/info/exclude` of that kind. The walk stops at the first directory holding one.
 */
async function findBelow(plan: SearchPlan<unknown>, deadline: Deadline, stopped: AbortSignal): Promise<string[]> {
  const { walkAsync } = await import('../find.js');
  const done = new AbortController();
  const onStop = () => done.abort();
  stopped.addEventListener('abort', onStop, { once: true });
  const special: string[] = [];
  const toStat: string[] = [];
  const repositories: string[] = [];
  const onDirectory = (rel: string, entries: readonly DirentLike[]) => {
    for (const entry of entries) {
      if (entry.name === GIT_DIR) repositories.push(rel);
      if (!IGNORE_NAMES.has(entry.name)) continue;
      if (entry.isSymbolicLink()) toStat.push(rel + entry.name);
      else if (specialKindOf(entry) !== undefined) special.push(rel + entry.name);
    }
    if (special.length > 0) done.abort();
  };
  const probe: FindPlan = {
    scope: { ...plan.scope, matcher: NOTHING, select: FILES_ONLY, depthLimited: false },
    limits: { maxResults: 1, timeBudgetMs: deadline.left(), clock: plan.limits.clock, signal: done.signal },
    backend: { ...plan.backend, backend: 'walker' },
    walk: { concurrency: plan.walk.concurrency, onDirectory, pruneDirectory: undefined },
    query: { absolute: false, sort: 'path', stats: false },
  };
  try {
    await walkAsync(probe);
  } finally {
    stopped.removeEventListener('abort', onStop);
  }
  if (special.length > 0) return special;
  const links = await filterSpecial(toStat, plan.scope.nativePath);
  if (links.length > 0) return links;
  for (const rel of repositories) {
    const file = await specialGitFile(plan.scope.nativePath(rel), plan.scope.sep, plan.scope.root);
    if (file !== undefined) return [file.startsWith(plan.scope.rootPrefix) ? file.slice(plan.scope.rootPrefix.length).split(plan.scope.sep).join('/') : file];
  }
  return [];
}

/**
 * The first special file among those ripgrep opens for a repository's excludes (`.git/info/exclude`;
 * for a worktree's `.git` file, its gitdir's `commondir` and the common dir's `info/exclude`: an
 * adversarial run had a FIFO there hang ripgrep with no end), as the walker finds them
 * (walk/ignore.ts `readGitExclude`, which asks for each file it would read); native, absolute.
 */
async function specialGitFile(dirPath: string, sep: string, cwd: string): Promise<string | undefined> {
  const reads = readGitExclude(dirPath, sep, cwd, () => {});
  for (let step = reads.next(); !step.done; ) {
    const read = step.value;
    if (read.kind !== 'text') {
      step = reads.next(undefined);
      continue;
    }
    const special = await isSpecial(read.path);
    // A `.git` that is no regular file ripgrep does not open (it asks whether it is one first).
    if (special && !read.path.endsWith(sep + GIT_DIR)) return read.path;
    step = reads.next(special ? undefined : await fsp.readFile(read.path).catch(() => undefined));
  }
  return undefined;
}
