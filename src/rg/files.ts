/**
 * The ripgrep backend for file listing: `rg --files` in the root, read as a stream of NUL-separated
 * paths, filtered through the walker's own compiled matcher and excluder, and turned into the same
 * FindResult the walker gives. ripgrep's globs only shrink what it prints; which paths are returned
 * is decided here, the walker's way, so the two backends agree (docs/ripgrep.md).
 */
import { constants as fsConstants, promises as fsp } from 'node:fs';
import { rootError } from '../errors.js';
import { isDefaultClock, type WalkPlan } from '../options.js';
import { errorCodeOf, verdictFields, type FindResult, type RecoveryInfo, type SkippedEntry } from '../result.js';
import { buildChildEnv, buildFilesArgv, defaultThreads } from './argv.js';
import { isDepthLimited } from './depth.js';
import { collectReasons, judgeRun, type Verdict } from './exit.js';
import type { Env, ResolvedRipgrep } from './resolve.js';
import { runRipgrep, type RecordConsumer } from './run.js';
import type { ProcessRunner } from './runner.js';
import { REPLACEMENT_CHAR, settleUndecodable } from './undecodable.js';

/** Cap on one path record or stderr line. A real path is at most a few KiB (Windows: 32k UTF-16 units). */
export const MAX_RECORD_BYTES = 1 << 20;

/** What running ripgrep needs, whatever the search (file listing here, content in src/content/rg.ts). */
export interface RipgrepRunSetup {
  rg: ResolvedRipgrep;
  runner: ProcessRunner;
  /** The environment to take PATH and friends from (the child gets only those). */
  env: Env;
  /** Normalised `pattern` and `exclude`, as the walker's matcher was compiled from. */
  patterns: readonly string[];
  excludes: readonly string[];
  /** When the search started, by `plan.clock`. */
  startedAt: number;
  /** @default defaultThreads() */
  threads?: number;
  /** Cap on one stdout record or stderr line. @default MAX_RECORD_BYTES here, MAX_EVENT_BYTES for content */
  maxRecordBytes?: number;
}

export interface RipgrepSetup extends RipgrepRunSetup {
  /** Paths as the caller asked for them (root-relative or absolute). */
  format: (rel: string) => string;
}

export async function listFilesWithRipgrep(plan: WalkPlan, setup: RipgrepSetup): Promise<FindResult> {
  const recovery: RecoveryInfo = { selectionMode: setup.rg.selectionMode, retryTriggered: false };
  const early = stoppedBeforeStart(plan, setup.startedAt);
  if (early !== undefined) return buildResult(plan, setup, early, recovery, new FileCollector(plan), []);
  const rootError = await checkRoot(plan.root);
  if (rootError !== undefined) return buildResult(plan, setup, { retryable: false }, recovery, new FileCollector(plan), [{ path: '.', code: rootError }]);

  const outcome = await runRipgrep({
    rg: setup.rg,
    argv: buildFilesArgv({
      threads: setup.threads ?? defaultThreads(),
      maxDepth: plan.maxDepth,
      excludes: setup.excludes,
      hidden: plan.hidden,
      caseSensitive: plan.caseSensitive,
    }),
    cwd: plan.root,
    env: buildChildEnv(setup.env, plan.platform),
    runner: setup.runner,
    platform: plan.platform,
    signal: plan.signal,
    budget: { clock: plan.clock, startedAt: setup.startedAt, ms: plan.timeBudgetMs, useTimer: isDefaultClock(plan.clock) },
    delimiter: 0,
    maxRecordBytes: setup.maxRecordBytes ?? MAX_RECORD_BYTES,
    newConsumer: () => new FileCollector(plan),
  });
  const keep = buildSkipFilter(plan);
  const skipped = outcome.stderr.skipped.filter(keep);
  const files = outcome.consumer;
  let verdict = outcome.verdict;
  if (files.suspects.length > 0) {
    const settled = await settleUndecodable(plan, files.suspects, keep);
    skipped.push(...settled.skipped);
    for (const rel of settled.matches) {
      if (files.rels.length < plan.maxResults) files.rels.push(rel);
      else if (verdict.stopReason === undefined) verdict = { ...verdict, stopReason: 'result-limit' };
    }
  }
  return buildResult(plan, setup, verdict, outcome.recovery, files, skipped, outcome.stderr.unclassified);
}

function buildResult(
  plan: WalkPlan,
  setup: RipgrepSetup,
  verdict: Verdict,
  recovery: RecoveryInfo,
  files: FileCollector,
  skipped: SkippedEntry[],
  unclassified = 0,
): FindResult {
  const gaps = isDepthLimited(plan.maxDepth, setup.patterns) ? (['depth-limit'] as const) : [];
  const incompleteReasons = collectReasons(verdict, skipped, unclassified, gaps);
  const rels = files.rels.sort();
  return {
    matches: plan.absolute ? rels.map(setup.format) : rels,
    matchedCount: rels.length,
    skipped,
    skippedCount: skipped.length,
    // ripgrep does not report the links it passes over, nor what its own globs left out.
    symlinkSkipped: 0,
    // `rg --files` lists regular files only: a matching link cannot be known, and the result says so.
    linkMatches: [],
    linkMatchedCount: 0,
    linksExamined: false,
    excludedCount: files.excluded,
    ...verdictFields(incompleteReasons),
    stats: { dirsRead: 0, entriesSeen: files.seen, elapsedMs: plan.clock.now() - setup.startedAt, dirsPeeked: 0 },
    backend: 'ripgrep',
    recovery,
  };
}

/** The walker's "no I/O at all" cases: an aborted signal, a spent budget. */
export function stoppedBeforeStart(plan: WalkPlan, startedAt: number): Verdict | undefined {
  const empty = { skipped: [], unclassified: 0, nonEmpty: false, eagain: false };
  if (plan.signal?.aborted) return judgeRun({ kind: 'stopped', cause: 'aborted' }, empty);
  if (plan.clock.now() - startedAt >= plan.timeBudgetMs) return judgeRun({ kind: 'stopped', cause: 'timeout' }, empty);
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
 * Collects the listed paths the walker would return. Stops (returns false) at match
 * `maxResults + 1`: seeing it proves the limit cut something off.
 */
class FileCollector implements RecordConsumer {
  readonly rels: string[] = [];
  /** Matching paths holding U+FFFD: checked after the run (src/rg/undecodable.ts), not counted yet. */
  readonly suspects: string[] = [];
  seen = 0;
  excluded = 0;
  private readonly accept: (rel: string) => boolean;
  private readonly maxResults: number;

  constructor(plan: WalkPlan) {
    this.accept = buildFileFilter(plan, () => this.excluded++);
    this.maxResults = plan.maxResults;
  }

  record(text: string): boolean {
    this.seen++;
    const rel = text.startsWith('./') ? text.slice(2) : text;
    if (rel === '' || !this.accept(rel)) return true;
    if (rel.includes(REPLACEMENT_CHAR)) {
      this.suspects.push(rel);
      return true;
    }
    if (this.rels.length >= this.maxResults) return false;
    this.rels.push(rel);
    return true;
  }
}

/**
 * The walker's decision for a listed file, made on its path: depth, hidden names, excluded
 * directories on the way and the file itself, then the pattern. Perf: the common options (hidden
 * files in, nothing excluded, no depth limit) need only the matcher.
 */
export function buildFileFilter(plan: WalkPlan, onExcluded: () => void): (rel: string) => boolean {
  const { matcher, excluder, hidden, maxDepth } = plan;
  const baseName = (rel: string) => rel.slice(rel.lastIndexOf('/') + 1);
  if (hidden && !excluder.active && !Number.isFinite(maxDepth)) return (rel) => matcher.matches(rel, baseName(rel));
  return (rel) => {
    let depth = 1;
    let start = 0;
    for (let slash = rel.indexOf('/'); slash >= 0; slash = rel.indexOf('/', start)) {
      const name = rel.slice(start, slash);
      if (!hidden && name.startsWith('.')) return false;
      if (excluder.active && excluder.isExcluded(rel.slice(0, slash), name, true)) {
        onExcluded();
        return false;
      }
      depth++;
      start = slash + 1;
    }
    const name = rel.slice(start);
    if (depth > maxDepth || (!hidden && name.startsWith('.'))) return false;
    if (excluder.active && excluder.isExcluded(rel, name, false)) {
      onExcluded();
      return false;
    }
    return matcher.matches(rel, name);
  };
}

/**
 * Keeps a directory ripgrep could not read only if the walker would have tried to read it: ripgrep
 * enters directories the walker prunes (no pattern can match inside), leaves out (excluded, hidden)
 * or only peeks at (at the depth limit, where a failure is `depth-limit`, not `skipped`).
 */
export function buildSkipFilter(plan: WalkPlan): (entry: SkippedEntry) => boolean {
  const { matcher, excluder, hidden, maxDepth } = plan;
  return ({ path }) => {
    if (path === '.') return true;
    let depth = 0;
    let start = 0;
    for (;;) {
      const slash = path.indexOf('/', start);
      const end = slash < 0 ? path.length : slash;
      const name = path.slice(start, end);
      const rel = path.slice(0, end);
      depth++;
      if (depth >= maxDepth) return false;
      if (!hidden && name.startsWith('.')) return false;
      if (excluder.active && excluder.isExcluded(rel, name, true)) return false;
      if (matcher.prunes && !matcher.couldMatchInside(rel)) return false;
      if (slash < 0) return true;
      start = slash + 1;
    }
  };
}
