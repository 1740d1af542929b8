/**
 * The ripgrep backend for file listing: `rg --files` in the root, read as a stream of NUL-separated
 * paths, filtered through the walker's own compiled matcher and excluder, and turned into the same
 * FindResult the walker gives. ripgrep's globs only shrink what it prints; which paths are returned
 * is decided here, the walker's way, so the two backends agree (docs/ripgrep.md).
 */
import { constants as fsConstants, promises as fsp } from 'node:fs';
import { ignoreFileError, rootError } from '../errors.js';
import { REPLACEMENT_CHAR } from '../fs.js';
import { untilStopped, type Deadline } from '../limits.js';
import type { FindPlan, SearchPlan } from '../plan/search-plan.js';
import { errorCodeOf, verdictFields, type FindResult, type RecoveryInfo, type SkippedEntry } from '../result.js';
import { GIT_EXCLUDE, IGNORE_FILE_NAMES } from '../walk/ignore.js';
import { WalkRules } from '../walk/rules.js';
import { buildChildEnv, buildFilesArgv, defaultThreads } from './argv.js';
import { buildStallWatch } from './blocking.js';
import { buildPostRunStop, collectReasons, judgeRun, stoppedAfterRun, type Verdict } from './exit.js';
import { readRegularFile } from './ignore-warnings.js';
import type { ResolvedRipgrep } from './resolve.js';
import { runRipgrep, type RecordConsumer } from './run.js';
import type { ProcessRunner } from './runner.js';
import { judgeGaps } from './stderr.js';
import { checkUndecodable } from './undecodable.js';

/** Cap on one path record or stderr line. A real path is at most a few KiB (Windows: 32k UTF-16 units). */
export const MAX_RECORD_BYTES = 1 << 20;

/** What running ripgrep needs beyond the plan, whatever the search (file listing here, content in src/content/rg.ts). */
export interface RipgrepRun {
  rg: ResolvedRipgrep;
  runner: ProcessRunner;
  /** The search's budget, from its start. */
  deadline: Deadline;
  /** @default defaultThreads() */
  threads?: number;
  /** Cap on one stdout record or stderr line. @default MAX_RECORD_BYTES here, MAX_EVENT_BYTES for content */
  maxRecordBytes?: number;
}

/** `format`: paths as the caller asked for them (root-relative or absolute). */
export async function listFilesWithRipgrep(plan: FindPlan, run: RipgrepRun, format: (rel: string) => string): Promise<FindResult> {
  const recovery: RecoveryInfo = { selectionMode: run.rg.selectionMode, retryTriggered: false };
  const rules = new WalkRules(plan.scope);
  const early = stoppedBeforeStart(plan, run.deadline);
  if (early !== undefined) return buildResult(plan, run, format, early, recovery, new FileCollector(plan, rules, run.deadline), []);
  const checked = await checkBeforeRun(plan, run.deadline);
  if (checked.stopped !== undefined) return buildResult(plan, run, format, checked.stopped, recovery, new FileCollector(plan, rules, run.deadline), []);
  if (checked.rootError !== undefined) return buildResult(plan, run, format, { retryable: false }, recovery, new FileCollector(plan, rules, run.deadline), [{ path: '.', code: checked.rootError }]);

  const { scope } = plan;
  const outcome = await runRipgrep({
    ...runRequest(plan, run),
    argv: buildFilesArgv({ threads: run.threads ?? defaultThreads(), maxDepth: scope.maxDepth, excludes: scope.excludes, hidden: scope.hidden, caseSensitive: scope.caseSensitive, gitignore: scope.ignore?.defaults === true, ignoreFiles: scope.ignore?.extraFiles ?? [], gitDirsIgnored: scope.gitDirsIgnored }),
    delimiter: 0,
    maxRecordBytes: run.maxRecordBytes ?? MAX_RECORD_BYTES,
    newConsumer: () => new FileCollector(plan, rules, run.deadline),
  });
  const keep = (entry: SkippedEntry) => rules.wouldRead(entry.path);
  // Within the signal and the budget: the entries they leave unjudged are kept (src/rg/stderr.ts `judgeGaps`).
  const stop = buildPostRunStop(run.deadline, plan.limits.signal);
  const judged = await judgeGaps(outcome.stderr.skipped, keep, stop);
  const skipped = [...judged.gaps, ...outcome.blocked];
  const files = outcome.consumer;
  let verdict = judged.cut === undefined ? outcome.verdict : stoppedAfterRun(outcome.verdict, judged.cut);
  // ripgrep reads an ignore file it cannot open without a word: the walker names it (a `!` rule in it could re-include a file).
  if (files.ignoreFiles.length > 0) skipped.push(...(await unreadableIgnoreFiles(plan.scope, files.ignoreFiles)));
  // Matching paths holding U+FFFD, and those that match only in another reading of their bytes: a
  // gap where they cannot be opened; the first returned where they are real, the second not.
  if (files.suspects.length > 0 || files.undecoded.length > 0) {
    const checked = await checkUndecodable(plan.scope, files.suspects, files.undecoded, keep, stop);
    skipped.push(...checked.skipped);
    if (checked.cut !== undefined) verdict = stoppedAfterRun(verdict, checked.cut);
    for (const rel of checked.matches) {
      if (files.rels.length < plan.limits.maxResults) files.rels.push(rel);
      else if (verdict.stopReason === undefined) verdict = { ...verdict, stopReason: 'result-limit' };
    }
  }
  return buildResult(plan, run, format, verdict, outcome.recovery, files, skipped, outcome.stderr.unclassified);
}

/** The parts of a ripgrep run every search fills the same way, from the plan. */
export function runRequest(plan: SearchPlan<unknown>, run: RipgrepRun) {
  const { scope, limits, backend } = plan;
  const watch = buildStallWatch(plan, run.deadline);
  return { rg: run.rg, cwd: scope.root, env: buildChildEnv(backend.env, scope.platform), runner: run.runner, platform: scope.platform, signal: limits.signal, deadline: run.deadline, watch };
}

function buildResult(
  plan: FindPlan,
  run: RipgrepRun,
  format: (rel: string) => string,
  verdict: Verdict,
  recovery: RecoveryInfo,
  files: FileCollector,
  skipped: SkippedEntry[],
  unclassified = 0,
): FindResult {
  const gaps = plan.scope.depthLimited ? (['depth-limit'] as const) : [];
  const rels = files.rels.sort();
  return {
    matches: plan.query.absolute ? rels.map(format) : rels,
    matchedCount: rels.length,
    skipped,
    skippedCount: skipped.length,
    // ripgrep does not report the links it passes over, nor what its own globs left out.
    symlinkSkipped: 0,
    // `rg --files` lists regular files only: a matching link, or a symlinked directory on the way,
    // cannot be known, and the result says so (`auto` lets the walker answer an empty listing).
    linkMatches: [],
    linkMatchedCount: 0,
    linksOnTheWay: [],
    linkOnTheWayCount: 0,
    linksExamined: false,
    excludedCount: files.excluded,
    // ripgrep applies the ignore files itself and does not report what they left out.
    ignoredCount: 0,
    // Never asked of ripgrep: a metadata filter makes the search the walker's (src/backend.ts).
    filteredCount: 0,
    ...verdictFields(collectReasons(verdict, skipped, unclassified, gaps)),
    stats: { dirsRead: 0, entriesSeen: files.seen, elapsedMs: run.deadline.elapsed(), dirsPeeked: 0 },
    backend: 'ripgrep',
    recovery,
  };
}

/**
 * The listed ignore files that exist and cannot be read (`access`: no open, so a named pipe called
 * `.gitignore` cannot hold the check), as the walker's gaps (src/walk/ignore-io.ts). Only those
 * ripgrep listed: one it leaves out (hidden, excluded, ignored itself) is not looked at.
 */
async function unreadableIgnoreFiles(scope: FindPlan['scope'], rels: string[]): Promise<SkippedEntry[]> {
  const checks = rels.map(async (rel): Promise<SkippedEntry | undefined> => {
    try {
      await fsp.access(scope.rootPrefix + rel.split('/').join(scope.sep), fsConstants.R_OK);
      return undefined;
    } catch (error) {
      const code = errorCodeOf(error);
      return code === 'ENOENT' || code === 'ENOTDIR' ? undefined : { path: rel, code };
    }
  });
  return (await Promise.all(checks)).filter((entry) => entry !== undefined);
}

/** Whether a listed path is an ignore file ripgrep reads (`gitignore: true`). */
function isIgnoreFile(rel: string): boolean {
  if (rel.endsWith('/' + GIT_EXCLUDE) || rel === GIT_EXCLUDE) return true;
  if (!rel.endsWith('ignore')) return false;
  const name = rel.slice(rel.lastIndexOf('/') + 1);
  return (IGNORE_FILE_NAMES as readonly string[]).includes(name);
}

/** A run that never started printed nothing on stderr. */
const NO_STDERR = { skipped: [], unclassified: 0, nonEmpty: false, eagain: false, warnedAbove: false };

/**
 * The checks before a run (the ignore files named, the root: `checkIgnoreFiles`, `checkRoot`),
 * within the budget and the signal: a root whose stat or access hung held every ripgrep search,
 * content search's default included, for as long as it hung. Cut, the search stops as before its start.
 */
export async function checkBeforeRun(plan: SearchPlan<unknown>, deadline: Deadline): Promise<{ stopped?: Verdict; rootError?: string }> {
  const checks = (async () => {
    await checkIgnoreFiles(plan.scope);
    return { rootError: await checkRoot(plan.scope.root) };
  })();
  const checked = await untilStopped(checks, deadline, plan.limits.signal);
  if (checked !== undefined) return checked;
  return { stopped: stoppedBeforeStart(plan, deadline) ?? judgeRun({ kind: 'stopped', cause: 'timeout' }, NO_STDERR) };
}

/** The walker's "no I/O at all" cases: an aborted signal, a spent budget. */
export function stoppedBeforeStart(plan: SearchPlan<unknown>, deadline: Deadline): Verdict | undefined {
  if (plan.limits.signal?.aborted) return judgeRun({ kind: 'stopped', cause: 'aborted' }, NO_STDERR);
  if (deadline.passed()) return judgeRun({ kind: 'stopped', cause: 'timeout' }, NO_STDERR);
  return undefined;
}

/**
 * ripgrep runs in the root, so a missing root would look like a spawn failure: check it first, with
 * the walker's errors. A root that exists but cannot be entered (no search permission: `r--`, `000`)
 * cannot be ripgrep's cwd either: it is the walker's skipped root (`.`), with the same code, and
 * any other error (a parent that cannot be searched) too.
 */
export async function checkRoot(root: string): Promise<string | undefined> {
  let isDirectory: boolean;
  try {
    isDirectory = (await fsp.stat(root)).isDirectory();
  } catch (error) {
    const code = errorCodeOf(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') throw rootError(root, code);
    return code;
  }
  if (!isDirectory) throw rootError(root, 'ENOTDIR');
  try {
    // Read and search permission: what listing it and being its cwd need (Windows checks neither).
    await fsp.access(root, fsConstants.R_OK | fsConstants.X_OK);
  } catch (error) {
    return errorCodeOf(error);
  }
  return undefined;
}

/**
 * The `ignoreFiles` must be readable regular files, as the walker requires (ripgrep would warn and
 * go on): a file asked for by name that cannot be read rejects the search, whichever engine runs.
 * Opened without blocking and refused unless regular, as the walker refuses it: a FIFO's plain open
 * would wait for a writer, before any budget runs (and ripgrep's own open would wait the same).
 */
export async function checkIgnoreFiles(scope: SearchPlan<unknown>['scope']): Promise<void> {
  for (const file of scope.ignore?.extraFiles ?? []) {
    if ((await readRegularFile(file)) === undefined) throw ignoreFileError(file);
  }
}

/**
 * Collects the listed paths the walker would return (src/walk/rules.ts). Stops (returns false) at
 * match `maxResults + 1`: seeing it proves the limit cut something off, and with `stopCause` when
 * the budget ran out while it judged a path holding U+FFFD.
 */
class FileCollector implements RecordConsumer {
  readonly rels: string[] = [];
  /** Matching paths holding U+FFFD: checked after the run (src/rg/undecodable.ts), not counted yet. */
  readonly suspects: string[] = [];
  /** Paths holding U+FFFD that match only if their names were other bytes (src/walk/rules.ts `undecoded`). */
  readonly undecoded: string[] = [];
  /** The ignore files listed (`gitignore: true`): checked after the run (`unreadableIgnoreFiles`). */
  readonly ignoreFiles: string[] = [];
  seen = 0;
  excluded = 0;
  stopCause: 'timeout' | undefined;
  private readonly accept: (rel: string) => boolean;
  private readonly maxResults: number;
  private readonly readsIgnoreFiles: boolean;

  constructor(
    plan: FindPlan,
    rules: WalkRules,
    private readonly deadline: Deadline,
  ) {
    this.accept = rules.buildListedFileTest(
      () => this.excluded++,
      (rel) => this.undecoded.push(rel),
    );
    this.maxResults = plan.limits.maxResults;
    this.readsIgnoreFiles = plan.scope.ignore?.defaults === true;
  }

  record(text: string): boolean {
    this.seen++;
    const rel = text.startsWith('./') ? text.slice(2) : text;
    if (this.readsIgnoreFiles && isIgnoreFile(rel)) this.ignoreFiles.push(rel);
    if (rel === '') return true;
    const suspect = rel.includes(REPLACEMENT_CHAR);
    // A path holding U+FFFD that missed was judged in every reading of its bytes (up to 35 ms a
    // path: src/patterns.ts `UNDECODED_COST_FACTOR`), and run.ts reads the clock per chunk only:
    // the budget is read after each such check (a read of the clock is nothing beside one).
    if (!this.accept(rel)) return !suspect || this.withinBudget();
    if (suspect) {
      this.suspects.push(rel);
      return true;
    }
    if (this.rels.length >= this.maxResults) return false;
    this.rels.push(rel);
    return true;
  }

  private withinBudget(): boolean {
    if (!this.deadline.passed()) return true;
    this.stopCause = 'timeout';
    return false;
  }
}
