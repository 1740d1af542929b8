/**
 * find-file: a file finder that never throws evidence away. See docs/contract.md.
 */
export { findFiles, findFilesSync, findFilesStream, type FindStream } from './find.js';
export { searchContent, searchContentStream } from './content/search.js';
export { MAX_QUERY_BYTES } from './content/query.js';
export {
  CONTENT_INCOMPLETE_REASONS,
  type ContentOptions,
  type ContentHit,
  type ContentResult,
  type ContentSummary,
  type ContentStats,
  type ContentStream,
  type ContentIncompleteReason,
} from './content/types.js';
export type { FindOptions, Clock, Platform, BackendOption, EntryType, EntryTypeOption, SortOption } from './options.js';
export type { ProcessRunner, ProcessRequest, ProcessListener } from './rg/runner.js';
export {
  INCOMPLETE_REASONS,
  FAILURE_KINDS,
  FALLBACK_REASONS,
  MAX_LINK_MATCHES,
  type FailureKind,
  type FallbackReason,
  type RecoveryInfo,
  type RecoveryEvent,
  type SelectionMode,
  type FindResult,
  type MatchEntry,
  type FindSummary,
  type FindStats,
  type FindProgress,
  type IncompleteReason,
  type SkippedEntry,
  type BackendName,
} from './result.js';
export { openIndex, type FileIndex, type IndexOptions, type IndexQuery, type IndexStats } from './watch/watched-index.js';
export type { IndexCounters } from './watch/snapshot.js';
export { IndexPool, type IndexPoolOptions, type IndexOpener } from './watch/pool.js';
export { FindFileError, type FindFileErrorCode } from './errors.js';
export type { FsLike, DirentLike, StatsLike } from './fs.js';
