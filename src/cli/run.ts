/**
 * One search of the `find-file` command, printed, and its exit status. bin/find-file.mjs turns
 * argv into a `CliRequest`; this module runs it against the library and writes:
 *
 * - human (or `-0`): paths on stdout as they are found, then the summary on stderr; on a terminal
 *   (human only) paths and hit text are escaped (src/text-escape.ts), as ls and fd do, so a name
 *   cannot drive the terminal or forge a line; a pipe, a file and `-0` get the raw names;
 * - `--json`: exactly one JSON object on stdout, the library's result;
 * - `--ndjson`: one `{"type":"match"}` line per path as found, then one `{"type":"summary"}` line.
 *
 * Ctrl-C aborts the search through its AbortSignal: what was found is printed, the summary is
 * marked `aborted`, the status is 130. A second Ctrl-C stops waiting.
 */
import * as path from 'node:path';
import type { ContentHit, ContentOptions, ContentSummary } from '../content/types.js';
import { findFiles, findFilesStream } from '../find.js';
import type { FindOptions } from '../options.js';
import type { FindSummary } from '../result.js';
import { EXIT, exitCodeForResult, type ExitCode } from './exit.js';
import { ChunkWriter, buildRelDisplay } from './output.js';
import { ProgressLine, buildCountingFs } from './progress.js';
import { formatContentSummary } from './content-summary.js';
import { formatSummary, shouldColor, stylesFor, type SummaryContext } from './summary.js';
import { escapeText } from '../text-escape.js';

export type OutputMode = 'human' | 'print0' | 'json' | 'ndjson';

export interface CliRequest {
  /** The library options the command line asked for; flags not given are absent. */
  options: FindOptions;
  output: OutputMode;
  /** `--strict`: an incomplete result exits 3. */
  strict: boolean;
  /** `--contains TEXT`: search file content instead of listing files. */
  contains: string | undefined;
}

/** Runs the search, prints it, and returns the exit status. Throws what the library throws. */
export async function runSearch(request: CliRequest): Promise<ExitCode> {
  const controller = new AbortController();
  let interrupted = false;
  const onInterrupt = () => {
    if (interrupted) process.exit(EXIT.INTERRUPTED);
    interrupted = true;
    controller.abort();
  };
  process.on('SIGINT', onInterrupt);
  try {
    const options: FindOptions = { ...request.options, signal: controller.signal };
    const result = request.contains === undefined ? await printFiles(options, request.output) : await printContent(options, request.contains, request.output);
    return exitCodeForResult(result, { strict: request.strict, interrupted });
  } finally {
    process.off('SIGINT', onInterrupt);
  }
}

/** What the printers need of a search: the matches (or hits) in the order found, then the summary. */
interface Search<T, S extends Outcome = FindSummary> {
  /** Perf: in batches, one promise per batch rather than per path. */
  batches: AsyncIterable<T[]>;
  summary(): Promise<S>;
  /** True when items arrive as they are found (the progress line can count them). */
  live: boolean;
}

/**
 * The walker streams its matches (flat memory however many there are). ripgrep and auto run only
 * in the library's promise form, so their matches arrive together when the search ends.
 */
function searchFiles(options: FindOptions): Search<string> {
  if (isWalker(options)) {
    const stream = findFilesStream(options);
    return { batches: stream.batches(), summary: () => stream.summary, live: true };
  }
  const pending = findFiles(options);
  return {
    batches: (async function* () {
      yield (await pending).matches;
    })(),
    summary: async () => {
      const { matches: _matches, ...summary } = await pending;
      return summary;
    },
    live: false,
  };
}

function isWalker(options: FindOptions): boolean {
  return options.backend === undefined || options.backend === 'walker';
}

/** What the exit status depends on. */
type Outcome = { complete: boolean };

async function printFiles(options: FindOptions, output: OutputMode): Promise<Outcome> {
  if (output === 'json') {
    const result = await findFiles(options);
    await writeAll(JSON.stringify(result) + '\n');
    return result;
  }
  if (output === 'ndjson') return printNdjson(searchFiles(options), (match) => '{"type":"match","path":' + JSON.stringify(match) + '}\n');
  const display = buildRelDisplay(options.root, process.cwd());
  const shown = stdoutText(output);
  const end = output === 'print0' ? '\0' : '\n';
  // The library already made --absolute paths absolute and native.
  const format = options.absolute ? (match: string) => shown(match) + end : (match: string) => shown(display(match)) + end;
  return printHuman(options, searchFiles, format, formatSummary);
}

/**
 * `--contains`: content search (src/content/, docs/content-search.md). Hits print as found, as
 * `path:line:column: text` (with -0, a NUL after the path), then the content summary; `--json` is
 * the library's `ContentResult`; `--ndjson` a `{"type":"hit"}` line per hit, then the summary.
 */
async function printContent(options: FindOptions, query: string, output: OutputMode): Promise<Outcome> {
  // Perf: content search loads only for --contains, so a file search starts faster.
  const { searchContent, searchContentStream } = await import('../content/search.js');
  // Hits carry root-relative paths; --absolute is applied here, when they are printed.
  const contentOptions = ({ absolute: _absolute, concurrency: _concurrency, ...rest }: FindOptions): ContentOptions => ({ ...rest, query });
  if (output === 'json') {
    const result = await searchContent(contentOptions(options));
    await writeAll(JSON.stringify(result) + '\n');
    return result;
  }
  const start = (current: FindOptions): Search<ContentHit, ContentSummary> => {
    const stream = searchContentStream(contentOptions(current));
    return { batches: stream.batches(), summary: () => stream.summary, live: true };
  };
  if (output === 'ndjson') return printNdjson(start(options), (hit) => JSON.stringify({ type: 'hit', ...hit }) + '\n');
  const display = buildRelDisplay(options.absolute ? path.resolve(options.root) : options.root, process.cwd());
  const shown = stdoutText(output);
  const sep = output === 'print0' ? '\0' : ':'; // as `rg -0`: a NUL after the path
  return printHuman(options, start, (hit) => `${shown(display(hit.path))}${sep}${hit.line}:${hit.column}: ${shown(hit.text)}\n`, formatContentSummary);
}

/**
 * What a path or a line of text becomes on stdout: escaped for a person at a terminal (a name
 * holding ESC or a newline would otherwise drive the terminal or forge a line); raw for a pipe,
 * a file and `-0`, which must get the real names (`| xargs -0`), as with ls and fd.
 */
function stdoutText(output: OutputMode): (text: string) => string {
  return output === 'human' && process.stdout.isTTY === true ? escapeText : (text) => text;
}

async function printNdjson<T, S extends Outcome>(search: Search<T, S>, format: (item: T) => string): Promise<S> {
  const out = new ChunkWriter(process.stdout);
  for await (const batch of search.batches) {
    for (const item of batch) {
      const wait = out.write(format(item));
      if (wait) await wait;
    }
  }
  const summary = await search.summary();
  out.write(JSON.stringify({ type: 'summary', ...summary }) + '\n');
  await out.end();
  return summary;
}

/** Items on stdout as found; the progress line while a person waits; the summary on stderr. */
async function printHuman<T, S extends Outcome>(
  options: FindOptions,
  start: (options: FindOptions) => Search<T, S>,
  format: (item: T) => string,
  summarize: (summary: S, ctx: SummaryContext) => string,
): Promise<S> {
  const styles = stylesFor(shouldColor(process.stderr, process.env));
  let found = 0;
  let live = true;
  let progress: ProgressLine | undefined;
  let search: Search<T, S>;
  if (process.stderr.isTTY) {
    // Directories are counted by serving the walker's reads; an injected fs would turn `auto` into the walker.
    const counting = isWalker(options) ? buildCountingFs() : undefined;
    if (counting) options = { ...options, fs: counting.fs };
    progress = new ProgressLine(process.stderr, () => ({ dirsRead: counting?.dirsRead(), matches: live ? found : undefined }), styles);
  }
  // On a shared terminal, paths must not be printed over the progress line.
  const out = new ChunkWriter(process.stdout, process.stdout.isTTY && progress ? () => progress.clear() : undefined);
  try {
    search = start(options);
    live = search.live;
    for await (const batch of search.batches) {
      for (const item of batch) {
        found++;
        const wait = out.write(format(item));
        if (wait) await wait;
      }
    }
    await out.end();
  } finally {
    progress?.stop();
  }
  const summary = await search.summary();
  const root = path.resolve(options.root);
  const text = summarize(summary, {
    root,
    maxResults: options.maxResults,
    maxDepth: options.maxDepth,
    timeBudgetMs: options.timeBudgetMs,
    hiddenLeftOut: options.hidden === false,
    // Skipped paths are root-relative: shown as the paths on stdout are (absolute with --absolute).
    displayPath: buildRelDisplay(options.absolute ? root : options.root, process.cwd()),
    // Matching links come as the matches do: already absolute and native with --absolute.
    displayMatch: options.absolute ? (match) => match : buildRelDisplay(options.root, process.cwd()),
    styles,
  });
  await writeAll(text, process.stderr);
  return summary;
}

/** Writes text and resolves once the stream has taken it, so exiting next loses nothing. */
function writeAll(text: string, stream: NodeJS.WriteStream = process.stdout): Promise<void> {
  return new Promise((resolve) => stream.write(text, () => resolve()));
}
