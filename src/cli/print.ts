/**
 * How a search reaches the user: items on stdout as they are found, in chunks; for a person, the
 * progress line while they wait and the summary on stderr at the end; for a script (`--ndjson`),
 * a summary line after the items. run.ts says what a search and its items are; this module only
 * prints them, and never changes the options it is given.
 */
import { readlinkSync } from 'node:fs';
import * as path from 'node:path';
import type { FindOptions } from '../options.js';
import { ENTRY_TYPES, type EntryType } from '../plan/select.js';
import type { FindSummary } from '../result.js';
import { escapeText } from '../text-escape.js';
import type { OutputMode } from './args.js';
import { CHUNK_CHARS, ChunkWriter, buildRelDisplay, stdoutSink } from './output.js';
import { SearchProgress } from './progress.js';
import type { Styles, SummaryContext } from './summary.js';

/** What the exit status depends on; `interrupted`: a `-x`/`-X` run ended by SIGINT, Ctrl-C, whether or not this process has read its own yet. */
export type Outcome = { complete: boolean; commandFailed?: boolean; interrupted?: boolean };

/** What the printers need of a search: the matches (or hits) in the order found, then the summary. */
export interface Search<T, S extends Outcome = FindSummary> {
  /** Perf: in batches, one promise per batch rather than per path. */
  batches: AsyncIterable<T[]>;
  summary(): Promise<S>;
  /** True when items arrive as they are found (the progress line can count them). */
  live: boolean;
}

/** What the summary names besides the result: the root and the limits as given, and how paths are shown. */
export type SummaryScope = Pick<FindOptions, 'root' | 'maxResults' | 'maxDepth' | 'timeBudgetMs' | 'hidden' | 'gitignore' | 'ignoreFiles' | 'exclude' | 'type' | 'modifiedAfter' | 'modifiedBefore' | 'minSize' | 'maxSize' | 'sort'> & {
  /** `--absolute`: skipped paths are shown absolute, and matching links come already absolute. */
  absolute: boolean;
  /** `--contains`: link paths come root-relative even with `--absolute` (made absolute when shown, as the hits are). */
  linksRelative?: boolean;
  /** The patterns that chose the files (absent for `--contains` alone: every file). */
  pattern?: FindOptions['pattern'] | undefined;
  /** `-m N` as given (not the one hit a file `-l` reads): the summary says which files it cut. */
  maxCount?: number | undefined;
  /** `-l` or `-x` with `--contains`: one hit a file was read, so the headline counts files. */
  filesOnly?: boolean;
  /** How stderr is painted (the summary and the progress line): color.ts `shouldColor` for stderr. */
  styles: Styles;
};

/** A search to print for a person. */
export interface HumanPrint<O, T, S extends Outcome> {
  /** The library options; while the progress line is drawn, the search gets a copy that also counts directories. */
  options: O;
  start(options: O): Search<T, S>;
  /** One item as it goes to stdout, line end included. */
  format(item: T): string;
  summarize(summary: S, ctx: SummaryContext): string;
  scope: SummaryScope;
  /** What goes on stdout after the last item (`-c`: the last file's count, which the summary may say was cut short). */
  trailer?: (summary: S) => string;
}

/** Items on stdout as found; the progress line while a person waits; the summary on stderr. */
export async function printHuman<O extends { onDirectory?: FindOptions['onDirectory'] }, T, S extends Outcome>(job: HumanPrint<O, T, S>): Promise<S> {
  const styles = job.scope.styles;
  // Only a person watching a terminal sees the line; a log never gets it.
  const progress = process.stderr.isTTY ? new SearchProgress(process.stderr, styles) : undefined;
  let search: Search<T, S>;
  try {
    search = job.start(progress ? progress.watch(job.options) : job.options);
    if (search.live) progress?.countMatches();
    await printItems(search, job.format, progress, job.trailer);
  } finally {
    progress?.stop();
  }
  const summary = await search.summary();
  await writeAll(job.summarize(summary, summaryContext(job.scope)), process.stderr);
  return summary;
}

/** The summary of a search whose items went elsewhere (`-x`: to a command), on stderr as printHuman writes it. */
export async function printSummary<S extends Outcome>(summary: S, summarize: (summary: S, ctx: SummaryContext) => string, scope: SummaryScope): Promise<void> {
  await writeAll(summarize(summary, summaryContext(scope)), process.stderr);
}

/** `--ndjson`: one line per item as found, then one `{"type":"summary"}` line. */
export async function printNdjson<T, S extends Outcome>(search: Search<T, S>, format: (item: T) => string): Promise<S> {
  await printItems(search, format, undefined);
  const summary = await search.summary();
  await writeAll(JSON.stringify({ type: 'summary', ...summary }) + '\n');
  return summary;
}

/** The printing loop: every item on stdout in the order found, in chunks, all of it handed on before it resolves. */
async function printItems<T, S extends Outcome>(search: Search<T, S>, format: (item: T) => string, progress: SearchProgress | undefined, trailer?: (summary: S) => string): Promise<void> {
  // On a shared terminal, items must not be printed over the progress line.
  const out = new ChunkWriter(stdoutSink(), process.stdout.isTTY && progress ? () => progress.clear() : undefined);
  for await (const batch of search.batches) {
    // Perf: a batch's lines are joined here and handed on together (at most a chunk at a time):
    // printing /usr's 117k paths took 15-25 ms less than with a write per line.
    progress?.found(batch.length);
    let text = '';
    for (let i = 0; i < batch.length; i++) {
      text += format(batch[i]!);
      if (text.length < CHUNK_CHARS && i < batch.length - 1) continue;
      const wait = out.write(text);
      text = '';
      if (wait) await wait;
    }
  }
  if (trailer !== undefined) out.write(trailer(await search.summary()));
  await out.end();
}

function summaryContext(scope: SummaryScope): SummaryContext {
  const root = path.resolve(scope.root);
  return {
    root,
    maxResults: scope.maxResults,
    maxDepth: scope.maxDepth,
    timeBudgetMs: scope.timeBudgetMs,
    maxCount: scope.maxCount,
    filesOnly: scope.filesOnly === true,
    hiddenLeftOut: scope.hidden === false,
    // --ignore-file applies with -u too (as rg's): its rules left paths out as much as .gitignore's.
    ignoreFiles: scope.gitignore === true || (scope.ignoreFiles?.length ?? 0) > 0,
    ignoreFileGiven: (scope.ignoreFiles?.length ?? 0) > 0,
    excludesGiven: [scope.exclude ?? []].flat().length > 0,
    noun: nounOf(scope.type),
    newestFirst: scope.sort === 'mtime',
    patterns: scope.pattern === undefined ? [] : [scope.pattern].flat(),
    filters: { time: scope.modifiedAfter !== undefined || scope.modifiedBefore !== undefined, size: scope.minSize !== undefined || scope.maxSize !== undefined },
    // Skipped paths are root-relative: shown as the paths on stdout are (absolute with --absolute).
    displayPath: buildRelDisplay(scope.absolute ? root : scope.root),
    // Matching links come as the matches do: already absolute and native with --absolute.
    displayMatch: scope.absolute && scope.linksRelative !== true ? (match) => match : buildRelDisplay(scope.absolute ? root : scope.root),
    // Where a link on the way leads, as it reads: one readlink per link shown (at most five).
    linkTarget: (link) => {
      try {
        return readlinkSync(scope.absolute && scope.linksRelative !== true ? link : path.join(root, link));
      } catch {
        return undefined;
      }
    },
    styles: scope.styles,
  };
}

const KIND_NOUNS: Record<EntryType, string> = {
  file: 'file', directory: 'directory', symlink: 'symlink', pipe: 'pipe', socket: 'socket', 'block-device': 'block device', 'char-device': 'character device',
};

/**
 * What the summary calls a match: `file` by default, the kinds asked for (`file, directory or
 * symlink`), `entry` for every kind. Never `entry` for some kinds only: "no matching entry exists"
 * would deny a FIFO that `-t f -t d -t l` did not ask for.
 */
function nounOf(type: FindOptions['type']): string {
  const kinds = type === undefined ? ['file' as const] : [type].flat();
  if (kinds.includes('any') || kinds.length === ENTRY_TYPES.length) return 'entry';
  const nouns = (kinds as EntryType[]).map((kind) => KIND_NOUNS[kind]);
  return nouns.length === 1 ? nouns[0]! : `${nouns.slice(0, -1).join(', ')} or ${nouns.at(-1)!}`;
}

/**
 * What a path or a line of text becomes on stdout: escaped for a person at a terminal (a name
 * holding ESC or a newline would otherwise drive the terminal or forge a line); raw for a pipe,
 * a file and `-0`, which must get the real names (`| xargs -0`), as with ls and fd.
 */
export function stdoutText(output: OutputMode): (text: string) => string {
  return output === 'human' && process.stdout.isTTY === true ? escapeText : (text) => text;
}

/** Writes text and resolves once the stream has taken it, so exiting next loses nothing. */
export function writeAll(text: string | Uint8Array, stream: NodeJS.WriteStream = process.stdout): Promise<void> {
  return new Promise((resolve) => stream.write(text, () => resolve()));
}
