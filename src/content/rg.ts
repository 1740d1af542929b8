/**
 * Content search through `rg --json`, on top of the listing backend's machinery: the same argv file
 * set (src/rg/argv.ts), the same run with its settlement guard, budgets, kill and single EAGAIN retry
 * (src/rg/run.ts), the same exit-status verdicts (src/rg/exit.ts) and stderr classification
 * (src/rg/stderr.ts). What is new here is the record consumer for ripgrep's JSON event stream.
 *
 * The protocol rules this module enforces:
 * - One record per stdout line (records split on bytes, so a chunk may end anywhere, inside a UTF-8
 *   character too). Each line must be a JSON object with a string `type`.
 * - `match` events become hits and `context` events their context lines (asked for only with
 *   `contextBefore`/`contextAfter`; the collector decides which hit each belongs to). `begin` is
 *   ignored; `end` ends the file and is read for `binary_offset`, `summary` for `bytes_searched`
 *   only; unknown types are ignored.
 * - Every field used is validated: `path` and `lines` as `{text}` or `{bytes}` (base64, decoded:
 *   non-UTF-8 content is searched too), `line_number` a positive integer, `submatches[0].start` an
 *   integer byte offset on a character boundary inside `lines`.
 * - A line that breaks these rules is a protocol failure: counted (`protocolErrors`), failure kind
 *   `protocol`, the result incomplete (`io-error`, as an `exit` failure is). Never dropped silently,
 *   never "no matches". The search goes on: later lines are still read.
 * - The hit's column is the first submatch's byte offset converted to a UTF-16 index, plus one; its
 *   text is the first line of `lines` without its line ending.
 * - `submatches` must be an array, but an empty one is valid: ripgrep 13 prints a `match` with no
 *   submatch for some zero-width matches. Its column is found by our own line matcher, within the
 *   budget and the step cap (`columnWithoutSubmatch`, match-gate.ts), else the budget stops the run.
 */
import { FindFileError } from '../errors.js';
import { REPLACEMENT_CHAR } from '../fs.js';
import type { ContentPlan } from '../plan/content-plan.js';
import { verdictFields, type RecoveryInfo, type SkippedEntry } from '../result.js';
import { buildContentArgv, defaultThreads } from '../rg/argv.js';
import { buildPostRunStop, collectReasons, stoppedAfterRun, type Verdict } from '../rg/exit.js';
import { checkBeforeRun, runRequest, stoppedBeforeStart, type RipgrepRun } from '../rg/files.js';
import { runRipgrep, type RecordConsumer } from '../rg/run.js';
import { UndecodablePaths } from '../rg/undecodable.js';
import { WalkRules } from '../walk/rules.js';
import { decodeUtf8, dropCr, firstLine, utf16IndexOfByteOffset, utf16IndexOfByteOffsetIn, type HitCollector } from './hits.js';
import { linksUnseen } from './links.js';
import { gapsOf } from './rg-gaps.js';
import { MatchGate } from './match-gate.js';
import { buildLineMatcher, refusedByRipgrep, type Matcher, type Query } from './query.js';
import type { ContentIncompleteReason, ContentSummary, WaitForReader } from './types.js';

/** Cap on one JSON event: it repeats its line (base64: 4/3 larger), so lines of ~16 MiB, the pure-TS path's cap, fit; a longer one stops the run (`max_buffer`). */
export const MAX_EVENT_BYTES = 64 * 1024 * 1024;

/** `waitForReader`: a stream's reader with enough waiting holds ripgrep back (src/rg/run.ts); its hits never pile up here. */
export async function searchWithRipgrep(plan: ContentPlan, run: RipgrepRun, hits: HitCollector, waitForReader?: WaitForReader): Promise<ContentSummary> {
  const { scope } = plan;
  const recovery: RecoveryInfo = { selectionMode: run.rg.selectionMode, retryTriggered: false };
  const early = stoppedBeforeStart(plan, run.deadline);
  if (early !== undefined) return buildSummary(plan, run, hits, early, recovery, undefined, []);
  const { stopped, rootError } = await checkBeforeRun(plan, run.deadline);
  if (stopped !== undefined) return buildSummary(plan, run, hits, stopped, recovery, undefined, []);
  if (rootError !== undefined) return buildSummary(plan, run, hits, { retryable: false }, recovery, undefined, [{ path: '.', code: rootError }]);
  const rules = new WalkRules(scope);

  // A retry must not hand the reader a hit the first run already gave it (the stream cannot take one
  // back): the first run's hits are remembered, the second skips them.
  let runs = 0;
  let firstRun: JsonEventConsumer | undefined;
  const { query } = plan.query;
  const gate = new MatchGate(run.deadline, plan.limits.signal !== undefined);
  const outcome = await runRipgrep({
    ...runRequest(plan, run),
    waitForReader,
    argv: buildContentArgv({
      threads: run.threads ?? defaultThreads(),
      maxDepth: scope.maxDepth,
      excludes: scope.excludes,
      hidden: scope.hidden,
      caseSensitive: scope.caseSensitive,
      gitignore: scope.ignore?.defaults === true,
      ignoreFiles: scope.ignore?.extraFiles ?? [],
      gitDirsIgnored: scope.gitDirsIgnored,
      patterns: scope.patterns,
      query: query.text,
      literal: query.mode === 'literal',
      caseMode: query.caseMode,
      multiline: query.multiline,
      perFile: plan.query.hits.perFile,
      before: plan.query.hits.before,
      after: plan.query.hits.after,
    }),
    delimiter: 10,
    maxRecordBytes: run.maxRecordBytes ?? MAX_EVENT_BYTES,
    newConsumer: () => {
      runs++;
      if (runs === 1) return (firstRun = new JsonEventConsumer(rules, hits, query, new Map(), undefined, gate));
      return new JsonEventConsumer(rules, hits, query, undefined, firstRun!.handedOn(), gate);
    },
  });
  // `backend: 'ripgrep'`: ripgrep alone judged the regex (content-plan.ts), so its refusal is bad input; under `auto` the walker answers.
  if (outcome.stderr.queryRefused !== undefined && outcome.verdict.failureKind === 'exit' && plan.backend.backend === 'ripgrep') throw refusedByRipgrep(outcome.stderr.queryRefused);
  const events = outcome.consumer;
  const stoppedForCaller = outcome.verdict.stopReason === 'aborted' || outcome.verdict.failureKind === 'timeout';
  const { gaps: skipped, cut } = await gapsOf(scope, rules, outcome.stderr.skipped, !stoppedForCaller, buildPostRunStop(run.deadline, plan.limits.signal));
  skipped.push(...events.undecodable.entries, ...events.refused, ...outcome.blocked);
  const verdict = cut === undefined ? outcome.verdict : stoppedAfterRun(outcome.verdict, cut);
  return buildSummary(plan, run, hits, verdict, outcome.recovery, events, skipped, outcome.stderr.unclassified);
}

function buildSummary(
  plan: ContentPlan,
  run: RipgrepRun,
  hits: HitCollector,
  verdict: Verdict,
  recovery: RecoveryInfo,
  events: JsonEventConsumer | undefined,
  skipped: SkippedEntry[],
  unclassified = 0,
): ContentSummary {
  hits.endFile();
  const protocolErrors = events?.protocolErrors ?? 0;
  // The consumer said "enough" for one of two reasons; the run only knows it was told to stop.
  const outputLimit = hits.stopReason === 'output-limit' && verdict.stopReason === 'result-limit';
  const gaps = plan.scope.depthLimited ? (['depth-limit'] as const) : [];
  // A protocol failure is output no path explains: an io-error, as an unexplained stderr line is.
  let incompleteReasons: ContentIncompleteReason[] = collectReasons(
    outputLimit ? { ...verdict, stopReason: undefined } : verdict,
    skipped,
    unclassified + protocolErrors,
    gaps,
  );
  if (outputLimit) incompleteReasons = ['output-limit', ...incompleteReasons];
  const failureKind = verdict.failureKind ?? (protocolErrors > 0 ? 'protocol' : undefined);
  return {
    hitCount: hits.hitCount,
    filesSearched: events?.filesWithHits ?? 0,
    binarySkipped: events?.binarySkipped ?? 0,
    // Nor the binary files it quit without a hit: that count is a lower bound.
    binaryCounted: false,
    ...hits.capField(),
    skipped,
    skippedCount: skipped.length,
    // ripgrep does not report the links it passes over, nor what its own globs left out.
    symlinkSkipped: 0,
    // Nor the symlinked directories it does not enter, nor the links to files: absence is proven only outside them.
    ...linksUnseen(),
    excludedCount: events?.excluded ?? 0,
    // ripgrep applies the ignore files itself and does not report what they left out.
    ignoredCount: 0,
    ...verdictFields(incompleteReasons),
    truncated: hits.truncated,
    protocolErrors,
    stats: { dirsRead: 0, entriesSeen: 0, elapsedMs: run.deadline.elapsed(), bytesSearched: events?.bytesSearched ?? 0 },
    backend: 'ripgrep',
    recovery: failureKind === undefined ? recovery : { ...recovery, failureKind },
  };
}

/** A `{text}` or `{bytes}` value: the text, or the decoded bytes; undefined when neither is valid. */
type Data = { text: string; bytes?: undefined } | { text?: undefined; bytes: Uint8Array };

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function readData(value: unknown): Data | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { text, bytes } = value as { text?: unknown; bytes?: unknown };
  // Perf: ripgrep's own `{"text": ...}` object is the value, not a copy: two objects fewer per event.
  if (typeof text === 'string') return bytes === undefined ? (value as Data) : { text };
  if (typeof bytes === 'string' && bytes.length % 4 === 0 && BASE64.test(bytes)) return { bytes: Buffer.from(bytes, 'base64') };
  return undefined;
}

/** The line breaks inside a match's lines (one at their end does not start another line). */
function lineBreaksWithin(lines: string): number {
  let n = 0;
  for (let i = lines.indexOf('\n'); i >= 0 && i < lines.length - 1; i = lines.indexOf('\n', i + 1)) n++;
  return n;
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/**
 * The hits a run handed on: each file's last hit line. Enough, because ripgrep prints a file's
 * events together and in line order (with any thread count), so a retry's hit at or before that
 * line in that file was handed on. Perf: a key per hit (`path NUL line`) held ~150 bytes a hit
 * until the search ended (its path a slice of the event's text): 23k hits grew the heap by 6 MB,
 * and every scavenge copied them (a search of /usr/include spent a third of its time in GC).
 */
export type HandedOn = Map<string, number>;

/** The stdout consumer: JSON events in, hits out through the shared `HitCollector`. */
export class JsonEventConsumer implements RecordConsumer {
  protocolErrors = 0;
  binarySkipped = 0;
  bytesSearched = 0;
  filesWithHits = 0;
  excluded = 0;
  /** Paths ripgrep gave as bytes (not valid UTF-8): the walker cannot open them either (EILSEQ). */
  readonly undecodable = new UndecodablePaths();
  /** Files whose hit's column would take longer than a step may (match-gate.ts): skipped, `EFBIG`. */
  readonly refused: SkippedEntry[] = [];
  stopCause: 'timeout' | undefined; // set when this consumer stops the run for the budget (run.ts)
  private readonly accept: (rel: string) => boolean;
  /** Set by `accept`: the path does not match as decoded, but could in another reading of its bytes. */
  private undecoded = false;
  private lastPath: string | undefined;
  /** `lastPath`, or for a path that is not UTF-8 its bytes (after a NUL, which no path holds). */
  private lastFile: string | undefined;
  private lastAccepted = false;
  /** The last event's path as ripgrep wrote it, when it was text (`./` and all). */
  private lastText: string | undefined;
  /**
   * The last hit line handed on in `lastPath`, not yet in `remember` (0: none). Perf: one map write
   * per file, not per hit: a `Map.set` per hit was 5 of the ~60 ms that 22,476 hits of /usr/include
   * took through this consumer, warm.
   */
  private lastHitLine = 0;
  private matcher: Matcher | null | undefined;

  constructor(
    rules: WalkRules,
    private readonly hits: HitCollector,
    /** The query ripgrep runs, for a match event that gives no column. */
    private readonly query: Query,
    /** Where this run records its hits, when a retry may need to skip them. */
    private readonly remember: HandedOn | undefined,
    /** Hits an earlier run already handed on. */
    private readonly skip: HandedOn | undefined,
    private readonly gate: MatchGate,
  ) {
    this.accept = rules.buildListedFileTest(
      () => this.excluded++,
      () => (this.undecoded = true),
    );
  }

  record(line: string): boolean {
    let event: unknown;
    try {
      event = JSON.parse(line);
    } catch {
      return this.fail();
    }
    if (typeof event !== 'object' || event === null || typeof (event as { type?: unknown }).type !== 'string') return this.fail();
    const { type, data } = event as { type: string; data?: unknown };
    if (type === 'match') return this.match(data) && this.stopCause === undefined;
    if (type === 'context') return this.context(data) && this.stopCause === undefined;
    if (type === 'end') return this.end(data);
    if (type === 'summary') return this.summary(data);
    return true; // begin, and types a later ripgrep may add
  }

  private fail(): boolean {
    this.protocolErrors++;
    return true;
  }

  private match(data: unknown): boolean {
    const event = this.readLineEvent(data);
    if (event === undefined) return this.fail();
    const { submatches } = data as Record<string, unknown>;
    if (!Array.isArray(submatches)) return this.fail();
    const { lines, lineNumber } = event;
    let index: number | undefined = -1; // -1: no submatch
    if (submatches.length > 0) {
      const first = submatches[0] as { start?: unknown; end?: unknown } | null;
      if (typeof first !== 'object' || first === null || !isCount(first.start) || !isCount(first.end) || first.end < first.start) return this.fail();
      index = lines.text !== undefined ? utf16IndexOfByteOffset(lines.text, first.start) : utf16IndexOfByteOffsetIn(lines.bytes, first.start);
      if (index === undefined) return this.fail();
    }
    const rel = this.fileOf(event);
    if (rel === undefined) return true;
    const whole = lines.text ?? decodeUtf8(lines.bytes!);
    if (this.skip !== undefined && lineNumber <= (this.skip.get(rel) ?? 0)) {
      this.hits.passOver(rel);
      return true;
    }
    this.lastHitLine = lineNumber;
    if (this.hits.atCap(rel)) return this.capped(rel, lineNumber, whole);
    const column = index >= 0 ? index + 1 : this.columnWithoutSubmatch(whole);
    if (column === undefined) return this.refuse(rel);
    return this.hits.add(rel, lineNumber, column, firstLine(whole), lineNumber + lineBreaksWithin(whole));
  }

  /** A match past `maxHitsPerFile` (ripgrep 13 sends those in the trailing context): each of its lines a context line. */
  private capped(rel: string, lineNumber: number, whole: string): boolean {
    const lines = whole.split('\n');
    if (lines.length > 1 && lines.at(-1) === '') lines.pop();
    return lines.every((text, i) => this.hits.context(rel, lineNumber + i, dropCr(text)));
  }

  /**
   * The column of a match event with no submatch. ripgrep 13 prints one for some zero-width matches:
   * at the end of a last line with no line break (`$`, ` *$`, `\z`), and for `\A` on lines after the
   * first (it picks the line, then looks for the match within the whole buffer, where `\A` is not).
   * It gave no offset, so our line matcher finds the column on the event's lines, as the pure-TS path
   * would (`\r` kept: matching sees it there too). Where it finds none on the first line (a dialect
   * difference, or a regex RE2 does not compile), the column is that of a zero-width match at the
   * line's end, where most of ripgrep's come from. Undefined: the gate would not start the search.
   */
  private columnWithoutSubmatch(whole: string): number | undefined {
    const nl = whole.indexOf('\n');
    const line = nl < 0 ? whole : whole.slice(0, nl);
    this.gate.beginStep();
    const at = this.lineMatcher()?.find(this.query.multiline ? whole : line, 0) ?? -1;
    if (this.matcher?.refused === true) return undefined;
    return (at >= 0 && at <= line.length ? at : line.length) + 1;
  }

  /** A column the gate would not let us compute: the budget stops the run (`time-budget`), the step cap skips the file. */
  private refuse(rel: string): boolean {
    const refusal = this.gate.take();
    if (refusal === 'time-budget') this.stopCause = 'timeout';
    else if (this.refused.at(-1)?.path !== rel) this.refused.push({ path: rel, code: 'EFBIG' });
    return refusal !== 'time-budget';
  }

  /** Built on first use: most runs never need it, and RE2 is slow to load. Null: RE2 rejects the query (only ripgrep compiled it). */
  private lineMatcher(): Matcher | undefined {
    if (this.matcher === undefined) {
      try {
        this.matcher = buildLineMatcher(this.query, this.gate);
      } catch (error) {
        if (!(error instanceof FindFileError)) throw error;
        this.matcher = null;
      }
    }
    return this.matcher ?? undefined;
  }

  private context(data: unknown): boolean {
    const event = this.readLineEvent(data);
    if (event === undefined) return this.fail();
    const rel = this.fileOf(event);
    if (rel === undefined) return true;
    return this.hits.context(rel, event.lineNumber, firstLine(event.lines.text ?? decodeUtf8(event.lines.bytes!)));
  }

  /** What `match` and `context` events share, checked: the path, the line number and the lines. */
  private readLineEvent(data: unknown): { path: Data; lines: Data; lineNumber: number } | undefined {
    if (typeof data !== 'object' || data === null) return undefined;
    const { path, lines, line_number: lineNumber } = data as Record<string, unknown>;
    const pathData = readData(path);
    const linesData = readData(lines);
    if (pathData === undefined || linesData === undefined) return undefined;
    if (typeof lineNumber !== 'number' || !Number.isSafeInteger(lineNumber) || lineNumber < 1) return undefined;
    // `.` is ripgrep's only path argument: every path it prints starts with `./`.
    if (!(pathData.text ?? decodeUtf8(pathData.bytes!)).startsWith('./')) return undefined;
    return { path: pathData, lines: linesData, lineNumber };
  }

  /** What this run handed on (each file's last hit line), for a retry to skip: its last file's included. */
  handedOn(): HandedOn | undefined {
    this.rememberLastFile();
    return this.remember;
  }

  private rememberLastFile(): void {
    if (this.lastHitLine === 0) return;
    this.remember?.set(this.lastPath!, this.lastHitLine);
    this.lastHitLine = 0;
  }

  /** The event's file, root-relative, when its lines are kept: undefined for a file the rules leave out or a name that is not UTF-8. */
  private fileOf(event: { path: Data }): string | undefined {
    const { path } = event;
    // Perf: a file's events come together, so most name the file judged last: the same text, the same answer.
    if (path.text !== undefined && path.text === this.lastText) return this.lastAccepted ? this.lastPath : undefined;
    this.lastText = path.text;
    const rel = (path.text ?? decodeUtf8(path.bytes!)).slice(2);
    // Names that are not UTF-8 are told apart by their bytes (`d\xff/a` and `d\xfe/a`, or a real `d\uFFFD/a`, decode alike).
    const file = path.bytes === undefined ? rel : `\0${Buffer.from(path.bytes).toString('latin1')}`;
    if (file !== this.lastFile) {
      this.rememberLastFile();
      this.lastPath = rel;
      this.lastFile = file;
      this.undecoded = false;
      this.lastAccepted = rel !== '' && this.accept(rel);
      // A path holding U+FFFD was asked every reading of its bytes (ms a path): the budget is read after it, as the listing does.
      if (rel.includes(REPLACEMENT_CHAR) && this.gate.budgetSpent()) this.stopCause = 'timeout';
      // A name that is not UTF-8 is a gap when it matches as decoded or could in bash's reading of its bytes.
      if (path.bytes !== undefined && (this.lastAccepted || this.undecoded)) this.undecodable.note(path.bytes);
      else if (this.lastAccepted) this.filesWithHits++;
    }
    return this.lastAccepted && path.bytes === undefined ? rel : undefined;
  }

  private end(data: unknown): boolean {
    const offset = (data as { binary_offset?: unknown } | null)?.binary_offset;
    const path = readData((data as { path?: unknown } | null)?.path);
    if (path === undefined || (offset !== null && !isCount(offset))) return this.fail();
    this.hits.endFile();
    if (offset !== null && (path.text ?? decodeUtf8(path.bytes!)).slice(2) === this.lastPath && this.lastAccepted) this.binarySkipped++;
    return true;
  }

  private summary(data: unknown): boolean {
    const bytes = (data as { stats?: { bytes_searched?: unknown } } | null)?.stats?.bytes_searched;
    if (!isCount(bytes)) return this.fail();
    this.bytesSearched = bytes;
    return true;
  }
}
