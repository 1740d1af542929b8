/**
 * What content search's pure-TS engines (walker.ts, over the thread pool and the read worker;
 * one-thread.ts, synchronous) record per file, and the summary they answer with: the same
 * bookkeeping for both, so a file counts and fails the same way whichever engine read it.
 */
import type { Deadline } from '../limits.js';
import { ReasonLog, errorCodeOf, verdictFields, type FindSummary, type IncompleteReason, type SkippedEntry } from '../result.js';
import type { HitCollector } from './hits.js';
import type { MatchGate } from './match-gate.js';
import type { FileScanner, ScanState } from './scanner.js';
import type { SearchStop } from './stop.js';
import type { WholeFileVerdict } from './sync-reader.js';
import type { ContentIncompleteReason, ContentSummary } from './types.js';
import type { SpecialFiles } from './walk-policy.js';

/** A file decided whole by `SyncReader` (the read worker's, or the one-thread engine's). */
export interface FileVerdict {
  bytes: number;
  verdict: WholeFileVerdict;
  /** With `hits`: line, column, text, for each hit in order. */
  hits?: readonly (number | string)[] | undefined;
}

export class SearchTally {
  filesSearched = 0;
  binarySkipped = 0;
  bytesSearched = 0;
  private readonly fileSkips: SkippedEntry[] = [];

  constructor(
    private readonly hits: HitCollector,
    private readonly stop: SearchStop,
    private readonly deadline: Deadline,
    private readonly gate: MatchGate,
  ) {}

  /** A file the reader decided as the scanner would have: its hits offered, and the state the scanner would have ended in taken as the scanner's is. */
  takeVerdict(rel: string, decided: FileVerdict): void {
    this.bytesSearched += decided.bytes;
    const state: ScanState = decided.verdict === 'binary' ? 'binary' : this.offerHits(rel, decided.hits ?? []) ? 'done' : 'stop';
    if (state !== 'binary') this.filesSearched++;
    this.takeState(rel, state, undefined);
  }

  /**
   * One chunk of a file through its scanner (an empty chunk: the file's end, or with `error` the read
   * that failed). The first chunk of a file known to end within it needs no read to learn the end.
   * `release` gives the chunk's buffer back once the scanner has taken it (it keeps no view of it).
   * True when the file goes on (read the next chunk).
   */
  scanChunk(rel: string, scanner: FileScanner, data: Uint8Array, isFirst: boolean, eof: boolean, error: unknown, release?: () => void): boolean {
    const bytes = data.length;
    this.bytesSearched += bytes;
    this.gate.beginStep();
    let state: ScanState = bytes === 0 ? (error === undefined ? scanner.finish() : 'more') : scanner.push(data, isFirst && eof);
    release?.();
    if (isFirst && eof && state === 'more') state = scanner.finish();
    if (isFirst && state !== 'binary' && (bytes > 0 || error === undefined)) this.filesSearched++;
    return this.takeState(rel, state, error);
  }

  /** What a scanned chunk means for the file; true when the file goes on (read the next chunk). */
  takeState(rel: string, state: ScanState, error: unknown): boolean {
    // A read error ends the file: the hits of what was read are kept, the file is a gap.
    if (error !== undefined && (state === 'more' || state === 'done')) {
      this.skipFile(rel, errorCodeOf(error));
      return false;
    }
    if (state === 'binary' || state === 'binary-late') this.binarySkipped++;
    else if (state === 'too-long') this.skipFile(rel, 'EFBIG');
    else if (state === 'stop') this.stop.stop(this.hits.stopReason!);
    else if (state === 'refused') this.refused(rel);
    // A file whose hits reached `maxHitsPerFile` (and their after-context) is read no further.
    return state === 'more' && !this.hits.isFull(rel) && !this.stop.shouldStop();
  }

  /** A matching call the gate would not start: the budget ends the search; the step cap, this file only (match-gate.ts). */
  private refused(rel: string): void {
    if (this.gate.take() === 'time-budget') this.stop.stop('time-budget');
    else this.skipFile(rel, 'EFBIG');
  }

  skipFile(rel: string, code: string): void {
    this.fileSkips.push({ path: rel, code });
    this.stop.reasons.noteSkipped(code);
  }

  summary(walked: FindSummary, walkStopped: boolean, specials: SpecialFiles): ContentSummary {
    this.hits.endFile();
    // An ignore file the walk could not read is its gap already: the failed read of it as a file is not a second one.
    const walkedPaths = new Set(walked.skipped.map((entry) => entry.path));
    const skipped = [...walked.skipped, ...this.fileSkips.filter((entry) => !walkedPaths.has(entry.path))];
    return {
      hitCount: this.hits.hitCount,
      filesSearched: this.filesSearched,
      binarySkipped: this.binarySkipped,
      binaryCounted: true,
      ...this.hits.capField(),
      skipped,
      skippedCount: skipped.length,
      symlinkSkipped: walked.symlinkSkipped,
      linksOnTheWay: walked.linksOnTheWay,
      linkOnTheWayCount: walked.linkOnTheWayCount,
      linkMatches: walked.linkMatches,
      linkMatchedCount: walked.linkMatchedCount,
      ...specials.fields(),
      linksExamined: true,
      excludedCount: walked.excludedCount,
      ignoredCount: walked.ignoredCount,
      ...verdictFields(mergeReasons(this.stop.reasons, walked.incompleteReasons, walkStopped)),
      truncated: this.hits.truncated,
      protocolErrors: 0,
      stats: { dirsRead: walked.stats.dirsRead, entriesSeen: walked.stats.entriesSeen, elapsedMs: this.deadline.elapsed(), bytesSearched: this.bytesSearched },
      backend: 'walker',
    };
  }

  /** Hits as line, column, text; false once the collector says the search must stop. */
  private offerHits(rel: string, found: readonly (number | string)[]): boolean {
    for (let i = 0; i < found.length; i += 3) {
      if (!this.hits.add(rel, found[i] as number, found[i + 1] as number, found[i + 2] as string)) return false;
    }
    return true;
  }
}

/**
 * The search's reasons and the walk's, in contract order. The walk stops only for what this search
 * also checks (the clock, the signal) or because this search stopped it: its own stop reason is
 * never news.
 */
function mergeReasons(own: ReasonLog<ContentIncompleteReason>, walked: readonly IncompleteReason[], walkStopped: boolean): ContentIncompleteReason[] {
  const reasons = new ReasonLog<ContentIncompleteReason>();
  const ownReasons = own.list();
  const walkStop = walkStopped ? walked[0] : undefined;
  if (own.stopped) reasons.stop(ownReasons[0]!);
  else if (walkStop !== undefined) reasons.stop(walkStop);
  for (const reason of walkStop === undefined ? walked : walked.slice(1)) reasons.note(reason);
  for (const reason of ownReasons) reasons.note(reason);
  return reasons.list();
}
