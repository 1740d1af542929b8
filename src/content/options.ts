/**
 * Content-search options, checked and compiled once, before any I/O, with the helpers `findFiles`
 * uses: the same names check, limits, root, patterns and backend checks, plus the query and the
 * hit limits. The file set (`pattern`, `exclude`, `hidden`, `maxDepth`) means exactly what it means
 * to `findFiles`: the walk plan below is the one `findFiles` would build.
 */
import { FindFileError } from '../errors.js';
import { canReadFiles } from '../fs.js';
import { buildBackendPlan, buildPlan, readLimit, type BackendPlan, type FindOptions, type WalkPlan } from '../options.js';
import { DEFAULT_MAX_LINE_CHARS, DEFAULT_MAX_OUTPUT_BYTES, type HitLimits } from './hits.js';
import { readQuery, type Query } from './query.js';
import type { ContentOptions } from './types.js';

export const CONTENT_OPTION_NAMES: readonly string[] = [
  'root', 'query', 'mode', 'caseSensitive', 'pattern', 'exclude', 'hidden', 'maxResults', 'maxLineChars',
  'maxOutputBytes', 'timeBudgetMs', 'maxDepth', 'signal', 'backend', 'fs', 'clock', 'platform', 'rgPath',
  'runner', 'onEvent', 'onDirectory', 'env', 'workspace',
];

/** Every file, at any depth: a glob without `/` matches base names anywhere. */
const EVERY_FILE = '*';

export interface ContentPlan {
  /** The file set and the budgets, as `findFiles` would walk them (its `maxResults` counts hits here). */
  walk: WalkPlan;
  backend: BackendPlan;
  query: Query;
  limits: HitLimits;
}

export function buildContentPlan(options: ContentOptions): ContentPlan {
  if (typeof options !== 'object' || options === null) {
    throw new FindFileError('FF_INVALID_OPTION', `options must be an object, got ${options === null ? 'null' : typeof options}`);
  }
  // `caseSensitive` is the query's case here; the file globs keep the platform's default.
  const asFind = { ...options, pattern: options.pattern ?? EVERY_FILE, caseSensitive: undefined } as unknown as FindOptions;
  const walk = buildPlan(asFind, CONTENT_OPTION_NAMES);
  const backend = buildBackendPlan(asFind, walk);
  if (backend.backend !== 'ripgrep' && !canReadFiles(walk.fs)) {
    throw new FindFileError('FF_INVALID_OPTION', 'fs must also have open, read and close for content search (a memfs volume has them)', 'fs');
  }
  const query = readQuery(options, backend.backend !== 'ripgrep');
  const maxLineChars = options.maxLineChars === undefined ? DEFAULT_MAX_LINE_CHARS : readLimit(options.maxLineChars, 'maxLineChars');
  const maxOutputBytes = options.maxOutputBytes === undefined ? DEFAULT_MAX_OUTPUT_BYTES : readLimit(options.maxOutputBytes, 'maxOutputBytes');
  return { walk, backend, query, limits: { maxResults: walk.maxResults, maxLineChars, maxOutputBytes } };
}
