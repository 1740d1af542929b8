/**
 * What a file search returns, read once: the kinds of entry that may match (`type`), the metadata
 * filters (`modifiedAfter`, `modifiedBefore`, `minSize`, `maxSize`), the order (`sort`) and
 * whether each match carries its metadata (`stats`). Compiled into one `EntrySelection` (in the
 * plan's scope: what is searched) and the file query's `sort` and `stats` (how it is returned).
 *
 * Times are absolute (a `Date` or epoch milliseconds): "changed in the last 2 hours" is the
 * caller's arithmetic on the wall clock (the CLI's `--changed-within 2h`). The plan's `clock` is
 * monotonic, with any origin, for budgets only: it cannot say what "now" is on the files' clock.
 */
import { FindFileError } from '../errors.js';
import { describe, readBoolean, readChoice, readLimit } from './read.js';

/**
 * The kinds of entry a search can return, named as fd names them (`-t p`, `-t s`, `-t b`, `-t c`):
 * the special files (FIFOs, sockets, devices) are listed as fd and find list them, never opened.
 */
export type EntryType = 'file' | 'directory' | 'symlink' | SpecialType;

/** The special files: listed by name, never opened (a FIFO's open blocks until a writer comes). */
export type SpecialType = 'pipe' | 'socket' | 'block-device' | 'char-device';

/** The `type` option: one kind, `any` (every kind), or a list. */
export type EntryTypeOption = EntryType | 'any';

export const SPECIAL_TYPES: readonly SpecialType[] = ['pipe', 'socket', 'block-device', 'char-device'];

/** A FIFO, a socket or a device: listed by name, never opened. */
export function isSpecialKind(kind: EntryType | undefined): kind is SpecialType {
  return kind !== undefined && (SPECIAL_TYPES as readonly string[]).includes(kind);
}

export const ENTRY_TYPES: readonly EntryType[] = ['file', 'directory', 'symlink', ...SPECIAL_TYPES];

export const ENTRY_TYPE_OPTIONS: readonly EntryTypeOption[] = [...ENTRY_TYPES, 'any'];

/** The `sort` option: `path` (UTF-16 code units) or `mtime` (newest first, ties by path). */
export type SortOption = 'path' | 'mtime';

export const SORT_OPTIONS: readonly SortOption[] = ['path', 'mtime'];

/** A match's metadata, from one `lstat` (a link's own, never its target's). */
export interface EntryMeta {
  type: EntryType;
  /** Bytes (a link's: the length of its target text; a directory's: what the filesystem says). */
  size: number;
  /** Milliseconds since the epoch, fractional where the filesystem has finer times. */
  mtimeMs: number;
  /** Nanoseconds since the epoch, when the lstat was asked for them (`exactTimes`): the time filters compare these. */
  mtimeNs?: bigint;
}

/** Which entries can be matches, compiled for the options: one flag per kind. */
export interface EntrySelection extends Record<EntryType, boolean> {
  /** The metadata filters as one test; undefined when none was asked (nothing is lstat'ed for them). */
  filter: ((meta: EntryMeta) => boolean) | undefined;
  /**
   * A time filter was asked: lstat with `bigint` (node's fs only; it costs), so a time is compared
   * with a bound at the disk's precision. As a float, 12:00:00.000000100 rounds onto a 12:00:00
   * bound and an exclusive test leaves it out (find -newermt and fd keep it).
   */
  exactTimes: boolean;
}

const NO_KIND: Record<EntryType, boolean> = { file: false, directory: false, symlink: false, pipe: false, socket: false, 'block-device': false, 'char-device': false };

/** The default: regular files, no filter. */
export const FILES_ONLY: EntrySelection = { ...NO_KIND, file: true, filter: undefined, exactTimes: false };

/** The raw options this module reads. */
export interface SelectionOptions {
  type?: unknown;
  modifiedAfter?: unknown;
  modifiedBefore?: unknown;
  minSize?: unknown;
  maxSize?: unknown;
}

/** `type` and the metadata filters. */
export function readSelection(options: SelectionOptions): EntrySelection {
  const types = readTypes(options.type);
  const after = readTime(options.modifiedAfter, 'modifiedAfter');
  const before = readTime(options.modifiedBefore, 'modifiedBefore');
  if (after !== undefined && before !== undefined && after >= before) {
    throw new FindFileError('FF_INVALID_OPTION', `modifiedAfter (${after}) is not before modifiedBefore (${before}): no entry can match`, 'modifiedAfter');
  }
  const minSize = options.minSize === undefined ? undefined : readLimit(options.minSize, 'minSize');
  const maxSize = options.maxSize === undefined ? undefined : readLimit(options.maxSize, 'maxSize');
  if (minSize !== undefined && maxSize !== undefined && minSize > maxSize) {
    throw new FindFileError('FF_INVALID_OPTION', `minSize (${minSize}) is above maxSize (${maxSize}): no file can match`, 'minSize');
  }
  return { ...types, filter: buildFilter(after, before, minSize, maxSize), exactTimes: after !== undefined || before !== undefined };
}

/**
 * The filters as one test, each bound compared once. Times are exclusive, as fd's
 * `--changed-within`/`--changed-before` and find's `-newermt`; sizes inclusive, as fd's `--size`.
 * A size bound keeps regular files only (as fd): a directory's or a link's size is no file size.
 */
function buildFilter(after: number | undefined, before: number | undefined, minSize: number | undefined, maxSize: number | undefined): EntrySelection['filter'] {
  const tests: ((meta: EntryMeta) => boolean)[] = [];
  if (after !== undefined) {
    const ns = nanoseconds(after);
    tests.push((m) => (m.mtimeNs === undefined ? m.mtimeMs > after : m.mtimeNs > ns));
  }
  if (before !== undefined) {
    const ns = nanoseconds(before);
    tests.push((m) => (m.mtimeNs === undefined ? m.mtimeMs < before : m.mtimeNs < ns));
  }
  if (minSize !== undefined || maxSize !== undefined) {
    const low = minSize ?? 0;
    const high = maxSize ?? Infinity;
    tests.push((m) => m.type === 'file' && m.size >= low && m.size <= high);
  }
  if (tests.length === 0) return undefined;
  if (tests.length === 1) return tests[0];
  return (meta) => tests.every((test) => test(meta));
}

/** Epoch milliseconds as nanoseconds: exact for whole milliseconds (a `Date`), to the nanosecond for the fraction. */
function nanoseconds(ms: number): bigint {
  const whole = Math.floor(ms);
  return BigInt(whole) * 1_000_000n + BigInt(Math.round((ms - whole) * 1e6));
}

function readTypes(value: unknown): Record<EntryType, boolean> {
  if (value === undefined) return { ...NO_KIND, file: true };
  const list = Array.isArray(value) ? value : [value];
  if (list.length === 0 || list.some((t) => !ENTRY_TYPE_OPTIONS.includes(t as EntryTypeOption))) {
    const names = ENTRY_TYPE_OPTIONS.map((t) => `"${t}"`).join(', ');
    throw new FindFileError('FF_INVALID_OPTION', `type must be one of ${names}, or a non-empty list of them, got ${describe(value)}`, 'type');
  }
  const kinds = { ...NO_KIND };
  for (const t of ENTRY_TYPES) kinds[t] = list.includes(t) || list.includes('any');
  return kinds;
}

/** A `Date` or epoch milliseconds, as epoch milliseconds. */
export function readTime(value: unknown, option: string): number | undefined {
  if (value === undefined) return undefined;
  const ms = value instanceof Date ? value.getTime() : value;
  if (typeof ms !== 'number' || !Number.isFinite(ms)) {
    throw new FindFileError('FF_INVALID_OPTION', `${option} must be a Date or milliseconds since the epoch, got ${value instanceof Date ? 'an invalid Date' : describe(value)}`, option);
  }
  return ms;
}

/** The order and the metadata of a file search's answer. */
export function readOrder(options: { sort?: unknown; stats?: unknown }): { sort: SortOption; stats: boolean } {
  return { sort: readChoice(options.sort, 'sort', SORT_OPTIONS, 'path'), stats: readBoolean(options.stats, 'stats', false) };
}

/** True when only the walker can answer: entries other than files, or metadata (filters, mtime order, stats). */
export function walkerOnlyReason(select: EntrySelection, order: { sort: SortOption; stats: boolean }): 'entry-types' | 'metadata' | undefined {
  // ripgrep lists regular files only (`rg --files` never lists a directory, a link or a FIFO).
  if (!select.file || ENTRY_TYPES.some((t) => t !== 'file' && select[t])) return 'entry-types';
  return readsMetadata(select, order) ? 'metadata' : undefined;
}

/** Whether the answer depends on entries' metadata (an lstat each): a size or time filter, newest first, or `stats`. */
export function readsMetadata(select: EntrySelection, order: { sort: SortOption; stats: boolean }): boolean {
  return select.filter !== undefined || order.sort === 'mtime' || order.stats;
}
