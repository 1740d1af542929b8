/**
 * One search of the `find-file` command, printed, and its exit status. args.ts turns argv into a
 * `CliRequest`; this module runs it against the library and writes:
 *
 * - human (or `-0`): paths on stdout as they are found, then the summary on stderr; on a terminal
 *   (human only) paths and hit text are escaped (src/text-escape.ts), as ls and fd do, so a name
 *   cannot drive the terminal or forge a line; a pipe, a file and `-0` get the raw names; with
 *   colour (color.ts: `--color`, a terminal), paths and lines are always escaped, then painted;
 * - `--json`: exactly one JSON object on stdout, the library's result;
 * - `--ndjson`: one `{"type":"match"}` line per path as found, then one `{"type":"summary"}` line.
 *
 * Ctrl-C aborts the search through its AbortSignal: what was found is printed, the summary is
 * marked `aborted`, the status is 130. A second Ctrl-C stops waiting.
 */
import * as path from 'node:path';
import type { ContentHit, ContentOptions, ContentSummary } from '../content/types.js';
import { findFilesWith, streamFiles, type WalkReads } from '../find.js';
import type { FindOptions } from '../options.js';
import type { FindResult } from '../result.js';
import type { CliRequest, OutputMode } from './args.js';
import { buildHitLines, countEach, onceEach, withContext } from './content-lines.js';
import { formatContentSummary } from './content-summary.js';
import { escapeText } from '../text-escape.js';
import { RG_STYLES, buildPathPainter, highlightMatches, paint, parseLsColors, shouldColor, shouldColorStdout } from './color.js';
import { asArgument } from './exec.js';
import type { ExecPlan } from './exec-run.js';
import { EXIT, exitCodeForResult, quietExitCode, type ExitCode } from './exit.js';
import { buildPrint0Display, buildRelDisplay } from './output.js';
import { printHuman, printNdjson, printSummary, stdoutText, writeAll, type Outcome, type Search, type SummaryScope } from './print.js';
import { formatSummary, stylesFor, type Styles, type SummaryContext } from './summary.js';
import { hintAfter } from './hint.js';

/**
 * Runs the search, prints it, and returns the exit status. Throws what the library throws.
 * `typed`: the command line as the user typed it, which the `-F` hint repeats (hint.ts).
 */
export async function runSearch(request: CliRequest, typed: readonly string[] = []): Promise<ExitCode> {
  const controller = new AbortController();
  let interrupted = false;
  const onInterrupt = () => {
    if (interrupted) process.exit(EXIT.INTERRUPTED);
    interrupted = true;
    controller.abort();
  };
  process.on('SIGINT', onInterrupt);
  try {
    const signal = controller.signal;
    const choice = request.color ?? 'auto';
    const paints: Paints = { stdout: shouldColorStdout(choice, request.output, process.stdout, process.env), stderr: stylesFor(shouldColor(choice, process.stderr, process.env)) };
    if (request.quiet) return quietExitCode(await searchQuietly(request, signal), interrupted);
    const result =
      request.kind === 'files'
        ? await printFiles({ ...request.options, signal }, request.output, request.exec, paints, typed)
        : await printContent({ ...request.options, signal }, request, paints);
    return exitCodeForResult(result, { strict: request.strict, interrupted: interrupted || result.interrupted === true });
  } finally {
    process.off('SIGINT', onInterrupt);
  }
}

/**
 * `-q`: the search alone (its options stop at the first match), nothing printed: whether a match
 * exists, and whether "none" would be proven. It is not where the search passed what it does not
 * read by policy: a link a match could lie beyond or that bears the name (never followed:
 * `python3` as a link is no "none"), links it could not see (`linksExamined: false`: ripgrep's
 * listing), entries ignore files left out (on by default, as fd's), binary files and special
 * files (FIFOs, devices: never opened) not searched.
 * What the user left out (`-E`, `-t`, `-d`'s limit aside) is the question asked, not a gap.
 */
async function searchQuietly(request: CliRequest, signal: AbortSignal): Promise<{ found: boolean; complete: boolean }> {
  // ripgrep applies ignore files without counting what they left out (its `ignoredCount` is 0).
  const ignoresCounted = (r: { backend: string }) => request.options.gitignore !== true || r.backend === 'walker';
  const proven = (r: { complete: boolean; linksExamined: boolean; linkOnTheWayCount: number; linkMatchedCount: number; ignoredCount: number; backend: string }) =>
    r.complete && r.linksExamined && r.linkOnTheWayCount === 0 && r.linkMatchedCount === 0 && r.ignoredCount === 0 && ignoresCounted(r);
  if (request.kind === 'files') {
    const result = await findFilesWith({ ...request.options, signal }, readsFor(request.options));
    return { found: result.matchedCount > 0, complete: proven(result) };
  }
  const { searchContent } = await import('../content/search.js');
  const result = await searchContent({ ...request.options, signal });
  // FIFOs and devices are listed, never opened: one the patterns match was not searched.
  return { found: result.hitCount > 0, complete: proven(result) && result.binarySkipped === 0 && result.binaryCounted && result.specialMatchedCount === 0 };
}

/** Colour on each stream: stdout's paths and lines (on or off), stderr's summary and progress line. */
interface Paints {
  stdout: boolean;
  stderr: Styles;
}

/**
 * The walker streams its matches (flat memory however many there are). ripgrep and auto run only
 * in the library's promise form, and so do `--sort` (an order is known at the end) and
 * `--stats`: their matches arrive together when the search ends.
 */
function searchFiles(options: FindOptions): Search<string> {
  if (isStreamable(options)) {
    const stream = streamFiles(options, readsFor(options));
    return { batches: stream.batches(), summary: () => stream.summary, live: true };
  }
  return searchWhole(options, (result) => result.matches);
}

/** The promise form as a `Search`: `pick` chooses the items (the paths, or with --stats the entries). */
function searchWhole<T>(options: FindOptions, pick: (result: FindResult) => T[]): Search<T> {
  const pending = findFilesWith(options, readsFor(options));
  return {
    batches: (async function* () {
      yield pick(await pending);
    })(),
    summary: async () => {
      const { matches: _matches, entries: _entries, ...summary } = await pending;
      return summary;
    },
    live: false,
  };
}

/**
 * Without a time budget the walker reads on this thread, in slices (src/walk/main-thread.ts): a
 * listing of /usr took 30% less CPU and 72 against 85-93 MiB of peak RSS, and nothing else here
 * waits on the event loop for long. A read that hangs then holds the command, as in fd and rg;
 * with a budget the reads wait in libuv's pool and the budget answers (docs/cli.md).
 */
function readsFor(options: FindOptions): WalkReads {
  return options.timeBudgetMs === undefined ? 'main-thread' : 'pool';
}

function isStreamable(options: FindOptions): boolean {
  // An order asked for (`--sort path` too) is only known at the end; the stream prints as found.
  return (options.backend === undefined || options.backend === 'walker') && options.sort === undefined && options.stats !== true;
}

async function printFiles(options: FindOptions, output: OutputMode, exec: ExecPlan | undefined, paints: Paints, typed: readonly string[]): Promise<Outcome> {
  if (output === 'json') {
    const result = await findFilesWith(options, readsFor(options));
    await writeAll(JSON.stringify(result) + '\n');
    return result;
  }
  if (output === 'ndjson') {
    // --stats: each match line carries its entry (`{ type, size, mtimeMs }`, the library's `entries`).
    if (options.stats === true) return printNdjson(searchWhole(options, (result) => result.entries ?? []), ({ path, ...entry }) => JSON.stringify({ type: 'match', path, entry }) + '\n');
    return printNdjson(searchFiles(options), (match) => '{"type":"match","path":' + JSON.stringify(match) + '}\n');
  }
  const display = buildRelDisplay(options.root);
  const absolute = options.absolute === true;
  const scope = { ...options, absolute, styles: paints.stderr };
  // The library already made --absolute paths absolute and native; -0 starts relative ones as fd does.
  const where = absolute ? (match: string) => match : output === 'print0' ? buildPrint0Display(display, options.root) : display;
  if (exec !== undefined) return execOn(searchFiles(options), exec, where, options.signal, formatSummary, scope);
  const end = output === 'print0' ? '\0' : '\n';
  let format: (match: string) => string;
  if (paints.stdout) {
    // Coloured by kind: where the entry is on disk, for its lstat.
    const painter = buildPathPainter(parseLsColors(process.env.LS_COLORS));
    format = (match) => painter(where(match), absolute ? match : path.resolve(options.root, match)) + end;
  } else {
    const shown = stdoutText(output);
    format = (match) => shown(where(match)) + end;
  }
  const summary = await printHuman({ options, start: searchFiles, format, summarize: formatSummary, scope });
  if (options.signal?.aborted !== true) {
    const hint = await hintAfter(options, summary, typed);
    if (hint !== undefined) await writeAll(hint, process.stderr);
  }
  return summary;
}

/**
 * `-x`/`-X`: each path goes to the command (exec-run.ts), not to stdout; the summary still goes
 * to stderr, so an incomplete search says so, and `--strict` still exits 3. A failed run: exit 1.
 */
async function execOn<S extends Outcome>(search: Search<string, S>, plan: ExecPlan, where: (rel: string) => string, signal: AbortSignal | undefined, summarize: (summary: S, ctx: SummaryContext) => string, scope: SummaryScope): Promise<Outcome> {
  const shown = (async function* () {
    for await (const batch of search.batches) yield batch.map((rel) => asArgument(where(rel)));
  })();
  // Loaded only here: node:child_process (with net and dgram) is for -x alone (5 ms in-process to load).
  const { execOnPaths } = await import('./exec-run.js');
  const runs = await execOnPaths(shown, plan, signal);
  const summary = await search.summary();
  await printSummary(summary, summarize, scope);
  // A walk that ended before Ctrl-C has a complete summary, yet the runs were cut short: say so
  // last, where the eye lands (it had read "complete" and nothing more, with status 130).
  if (signal?.aborted === true || runs.interrupted) {
    const left = runs.notRun === 0 ? 'every run had started' : `${runs.notRun} of ${runs.runs} runs of the command did not start`;
    await writeAll(`find-file: ${scope.styles.warn('aborted')} (interrupted): ${left}\n`, process.stderr);
  }
  return { complete: summary.complete, commandFailed: !runs.ok, interrupted: runs.interrupted };
}

/** The files of a content search's hits, each once, in the order their first hit came. */
function filesWithHits(search: Search<ContentHit, ContentSummary>): Search<string, ContentSummary> {
  const seen = new Set<string>();
  const batches = (async function* () {
    for await (const batch of search.batches) {
      const fresh: string[] = [];
      for (const { path: file } of batch) {
        if (seen.has(file)) continue;
        seen.add(file);
        fresh.push(file);
      }
      if (fresh.length > 0) yield fresh;
    }
  })();
  return { ...search, batches };
}

/**
 * `--contains`: content search (src/content/, docs/content-search.md). Hits print as found, as
 * `path:line:column: text` (with -0, a NUL after the path; context lines as content-lines.ts
 * says), then the content summary; `--json` is the library's `ContentResult`; `--ndjson` a
 * `{"type":"hit"}` line per hit (its context in it), then the summary.
 */
async function printContent(options: ContentOptions, request: Extract<CliRequest, { kind: 'content' }>, paints: Paints): Promise<Outcome> {
  const { output, absolute } = request;
  const lines = request.filesWithMatches ? 'files' : request.count ? 'count' : 'hits';
  const color = paints.stdout;
  // Perf: content search loads only for --contains, so a file search starts faster.
  const { searchContent, searchContentStream } = await import('../content/search.js');
  if (output === 'json') {
    const result = await searchContent(options);
    await writeAll(JSON.stringify(result) + '\n');
    return result;
  }
  const start = (current: ContentOptions): Search<ContentHit, ContentSummary> => {
    const stream = searchContentStream(current);
    return { batches: stream.batches(), summary: () => stream.summary, live: true };
  };
  if (output === 'ndjson') return printNdjson(start(options), (hit) => JSON.stringify({ type: 'hit', ...hit }) + '\n');
  // Hits carry root-relative paths; --absolute is applied here, when they are printed.
  const display = buildRelDisplay(absolute ? path.resolve(options.root) : options.root);
  // With colour, text is always escaped (then painted): colour is for a terminal, even through `less -R`.
  const shown = color ? escapeText : stdoutText(output);
  const pathStyle = color ? (text: string) => paint(RG_STYLES.path, text) : (text: string) => text;
  const sep = output === 'print0' ? '\0' : ':'; // as `rg -0`: a NUL after the path
  const end = output === 'print0' ? '\0' : '\n';
  const filesOnly = lines === 'files' || request.exec !== undefined;
  const scope = { ...options, absolute, linksRelative: true, styles: paints.stderr, filesOnly, maxCount: filesOnly ? undefined : options.maxHitsPerFile };
  if (request.exec !== undefined) return execOn(filesWithHits(start(options)), request.exec, display, options.signal, formatContentSummary, scope);
  // Perf: a file's hits come together: its path is made once, not once a hit.
  let lastRel: string | undefined;
  let lastShown = '';
  const shownPath = (rel: string) => (rel === lastRel ? lastShown : (lastShown = pathStyle(shown(display((lastRel = rel))))));
  if (lines === 'count') {
    const counter = countEach((path, n) => `${shownPath(path)}${sep}${n}${end}`);
    return printHuman({ options, start, format: counter.take, trailer: counter.last, summarize: formatContentSummary, scope });
  }
  const painted = color ? { lineNumber: (n: number) => paint(RG_STYLES.line, String(n)), hitText: await buildHighlighter(options) } : {};
  const format =
    lines === 'files' ? onceEach((hit: ContentHit) => `${shownPath(hit.path)}${end}`) : buildHitLines(shownPath, shown, { context: withContext(options), print0: output === 'print0', ...painted });
  return printHuman({ options, start, format, summarize: formatContentSummary, scope });
}

/** Each match of a hit's line painted, found by the search's own matcher; none when it cannot be built here (the search then says why). */
async function buildHighlighter(options: ContentOptions): Promise<(text: string) => string> {
  const { buildLineMatcher, readQuery } = await import('../content/query.js');
  try {
    const matcher = buildLineMatcher(readQuery(options, true));
    return (text) => highlightMatches(text, matcher);
  } catch {
    return escapeText;
  }
}
