/**
 * Content-search options, checked and compiled once, before any I/O, into the same plan a file
 * search runs from (src/plan/search-plan.ts): the file set (`pattern`, `exclude`, `hidden`,
 * `maxDepth`) means exactly what it means to `findFiles`. What content search adds is its query:
 * the text, how it is matched, and the caps on the hits kept. `maxResults` counts hits here.
 */
import type { ContentOptions } from '../content/types.js';
import { DEFAULT_MAX_LINE_CHARS, DEFAULT_MAX_OUTPUT_BYTES, type HitLimits } from '../content/hits.js';
import { readQuery, type Query } from '../content/query.js';
import { FindFileError } from '../errors.js';
import { canReadFiles, type FileReaderFs, type FsLike } from '../fs.js';
import { checkOptionsObject, readLimit } from './read.js';
import { buildSearchPlan, type SearchPlan } from './search-plan.js';

export const CONTENT_OPTION_NAMES: readonly string[] = [
  'root', 'query', 'mode', 'caseSensitive', 'pattern', 'exclude', 'hidden', 'gitignore', 'ignoreGitDirs', 'ignoreFiles', 'maxResults', 'maxHitsPerFile', 'contextBefore', 'contextAfter', 'maxLineChars',
  'maxOutputBytes', 'timeBudgetMs', 'maxDepth', 'signal', 'backend', 'fs', 'clock', 'platform', 'rgPath',
  'runner', 'onEvent', 'onDirectory', 'env', 'workspace',
];

/** Every file, at any depth: a glob without `/` matches base names anywhere. */
const EVERY_FILE = '*';

/** What a content search adds to the plan. */
export interface ContentQuery {
  query: Query;
  hits: HitLimits;
  /** The plan's fs, checked to read files (the pure-TS path opens them; ripgrep's fs is the real one, which can). */
  reader: FileReaderFs;
}

export type ContentPlan = SearchPlan<ContentQuery>;

export function buildContentPlan(options: ContentOptions): ContentPlan {
  checkOptionsObject(options);
  // `caseSensitive` is the query's case here (read by readQuery); the file globs keep the platform's default.
  const { caseSensitive: _queryCase, ...given } = options;
  // `auto` by default on the real disk: ripgrep answers when it can answer as fully, the pure-TS
  // path otherwise (src/backend.ts); an injected fs can only be searched by the pure-TS path.
  const shared = given.backend === undefined && given.fs === undefined ? { ...given, backend: 'auto' as const } : given;
  return buildSearchPlan(shared, {
    names: CONTENT_OPTION_NAMES,
    defaultPattern: EVERY_FILE,
    globCase: false,
    readQuery: ({ backend, maxResults, fs }) => ({
      query: readQuery(options, backend !== 'ripgrep'),
      reader: readerOf(fs),
      hits: {
        maxResults,
        maxLineChars: options.maxLineChars === undefined ? DEFAULT_MAX_LINE_CHARS : readLimit(options.maxLineChars, 'maxLineChars'),
        maxOutputBytes: options.maxOutputBytes === undefined ? DEFAULT_MAX_OUTPUT_BYTES : readLimit(options.maxOutputBytes, 'maxOutputBytes'),
        perFile: readPerFileCap(options.maxHitsPerFile),
        before: options.contextBefore === undefined ? 0 : readLimit(options.contextBefore, 'contextBefore'),
        after: options.contextAfter === undefined ? 0 : readLimit(options.contextAfter, 'contextAfter'),
      },
    }),
  });
}

/** `maxHitsPerFile`: a positive integer (0 would search nothing, as `grep -m 0`: refused as a mistake). */
function readPerFileCap(value: unknown): number {
  const cap = readLimit(value, 'maxHitsPerFile');
  if (cap === 0) throw new FindFileError('FF_INVALID_LIMIT', 'maxHitsPerFile must be at least 1 (0 would search no file)', 'maxHitsPerFile');
  return cap;
}

function readerOf(fs: FsLike): FileReaderFs {
  if (!canReadFiles(fs)) throw new FindFileError('FF_INVALID_OPTION', 'fs must also have open, read and close for content search (a memfs volume has them)', 'fs');
  return fs;
}
