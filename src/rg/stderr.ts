/**
 * Reads ripgrep's stderr, line by line, into values: the paths it could not read (as `skipped`
 * entries, with Node's error code), a count of lines it could not classify, and the evidence that
 * it failed to create its threads. No raw text is kept.
 *
 * The line shapes accepted (ripgrep prints paths as it walked them: `./x` when its cwd is the root):
 * - ripgrep 13 (Debian's): `./deny: Permission denied (os error 13)`
 * - ripgrep 14.1 and later: `rg: ./deny: Permission denied (os error 13)`
 * - Windows, any language: `rg: ./deny: Access is denied. (os error 5)`, `./deny: 拒绝访问。 (os error 5)`
 * The code comes from the number, never from the message, so the language does not matter.
 *
 * A line is only text, and a name can hold a newline, `: ` and `(os error N)`. A directory named
 * `x: gone (os error 2)⏎.` holding a denied `deny` makes ripgrep print one message that reads as two
 * lines: `./x: gone (os error 2)` (a forged "vanished") and `./deny: Permission denied (os error 13)`
 * (a path that is not the one denied). So, when find-file started ripgrep itself on this disk,
 * `checkedReport` holds every path line to the disk before it is believed:
 *
 * - a line can be the start of a message cut by a newline in a name: `./<dir>/<rest>` where `<dir>`
 *   holds an entry whose name is `<rest>` followed by a newline. Such a line is not believed (and,
 *   once there are two lines or more, every line is checked for it);
 * - a permission or I/O line must name a path that exists (or that the OS refuses to show us); a
 *   path holding U+FFFD (ripgrep's stand-in for a byte that is not UTF-8) names no path for sure
 *   (`d\xff` prints as the name of a readable twin `d\uFFFD`), so it must also be unreadable to us;
 * - a "vanished" line (os error 2) must name a path that exists no longer;
 * - a warning about an ignore-file rule must be true of that file (src/rg/ignore-warnings.ts), and
 *   a line ending in `(os error N)` is never one: that is how the last line of every message about
 *   a path ripgrep could not read ends, whatever the name made of the lines before it.
 *
 * So every message about a path ripgrep could not read leaves a line that is either a gap (a
 * denial, an I/O error: incomplete) or unexplained (incomplete): never only lines that keep the
 * answer complete. A line not believed counts as unclassified: the result is incomplete
 * (`io-error`), never complete. The raw text of held lines is kept only until that check; no text
 * reaches the result.
 */
import { constants as fsConstants, promises as fsp } from 'node:fs';
import { constants } from 'node:os';
import * as path from 'node:path';
import { REPLACEMENT_CHAR } from '../fs.js';
import type { Platform } from '../patterns.js';
import { classifyErrorCode, errorCodeOf, type IncompleteReason, type SkippedEntry } from '../result.js';
import type { PostRunStop } from './exit.js';
import { isOutsideRoot, parseIgnoreWarning, WarningCheck, type IgnoreWarning } from './ignore-warnings.js';

export interface StderrReport {
  /** Paths ripgrep reported it could not read, root-relative with `/`, in the order printed. */
  skipped: SkippedEntry[];
  /** Non-blank lines that are not a path error (nor a believed ignore-rule warning). */
  unclassified: number;
  /** Any non-blank line but a believed ignore-rule warning: `exit 1` with stderr is not "no matches". */
  nonEmpty: boolean;
  /**
   * A believed warning about a rule of an ignore file above the root: ripgrep 13 exits 2 for it
   * though it read everything (one inside the root leaves its status at 0).
   */
  warnedAbove: boolean;
  /** A thread-creation failure with EAGAIN evidence: the one case a retry with `--threads 1` can fix. */
  eagain: boolean;
  /**
   * ripgrep refused the regex before reading anything: its reason (`backreferences are not
   * supported`), '' when it gave none. Only from the first line, which no path error can forge (those
   * start with the path, `./` or `/`). Still an unclassified line: the run is a failure either way.
   */
  queryRefused?: string;
}

// Greedy: a path may hold `: `, the OS messages do not.
const PATH_ERROR = /^(.+): (.+) \(os error (\d+)\)$/;
const THREAD_CONTEXT = /failed to spawn (?:scoped )?thread/i;
/**
 * How ripgrep refuses a regex (13: no prefix; 14: `rg: `): a syntax error is this line, the regex,
 * then `error: <reason>`; a regex too large to compile is one line, its own reason.
 */
const REGEX_REFUSED = /^(?:rg: )?regex parse error:$/;
const REASON = 'error: ';
const REGEX_TOO_LARGE = /^(?:rg: )?([Cc]ompiled regex exceeds size limit of \d+ bytes\.?)$/;

/** How much path-line text is held for `checkedReport`; lines past it are not believed. */
const MAX_HELD_LINES = 10_000;
const MAX_HELD_CHARS = 8 << 20;

/** A path line as printed (without `rg: `), and what it parsed to. */
interface PathLine {
  text: string;
  entry: SkippedEntry;
}

export class StderrReader {
  private readonly skipped: SkippedEntry[] = [];
  private readonly held: PathLine[] = [];
  private readonly warnings: IgnoreWarning[] = [];
  private heldChars = 0;
  /** Path and warning lines past the holding caps: never checked, so never believed. */
  private unheld = 0;
  private unheldWarnings = 0;
  private lines = 0;
  private unclassified = 0;
  private nonEmpty = false;
  private threadContext = false;
  private eagainEvidence = false;
  private queryRefused: string | undefined;
  private readonly eagainPattern: RegExp;

  private readonly givenIgnoreFiles: ReadonlySet<string>;

  /** `givenIgnoreFiles`: the `--ignore-file` paths ripgrep was given (it warns about them by those paths). */
  constructor(
    private readonly platform: Platform,
    givenIgnoreFiles: readonly string[] = [],
  ) {
    this.givenIgnoreFiles = new Set(givenIgnoreFiles);
    // EAGAIN is 11 on Linux, 35 on macOS: the number of the OS ripgrep runs on, which is ours.
    const eagain = constants.errno.EAGAIN ?? 11;
    this.eagainPattern = new RegExp(`\\bos error ${eagain}\\b|\\bcode: ${eagain}\\b`);
  }

  /** Takes one line (without its newline). */
  line(text: string): void {
    const line = text.endsWith('\r') ? text.slice(0, -1) : text;
    if (line.trim() === '') return;
    // Every non-blank line, warnings too: any of them may be a part of a message cut by a name.
    this.lines++;
    if (this.lines === 1) this.queryRefused = REGEX_REFUSED.test(line) ? '' : REGEX_TOO_LARGE.exec(line)?.[1];
    else if (this.queryRefused === '' && line.startsWith(REASON)) this.queryRefused = line.slice(REASON.length);
    const entry = parsePathError(line, this.platform);
    // A rule of an ignore file ripgrep could not parse: skipped, as the walker skips it. No gap, once checked.
    const warning = entry === undefined ? parseIgnoreWarning(line, this.givenIgnoreFiles) : undefined;
    if (warning !== undefined) {
      if (this.canHold(line)) this.warnings.push(warning);
      else this.unheldWarnings++;
      return;
    }
    this.nonEmpty = true;
    if (THREAD_CONTEXT.test(line)) this.threadContext = true;
    if (this.eagainPattern.test(line)) this.eagainEvidence = true;
    if (entry === undefined) {
      this.unclassified++;
      return;
    }
    this.skipped.push(entry);
    if (this.canHold(line)) this.held.push({ text: line.startsWith('rg: ') ? line.slice(4) : line, entry });
    else this.unheld++;
  }

  /** Lines so far that are no path error nor warning: each one already makes the run a failure. */
  get unexplained(): number {
    return this.unclassified;
  }

  /** Whether one more line fits in what is held for the check (and, if so, holds its size). */
  private canHold(line: string): boolean {
    if (this.held.length + this.warnings.length >= MAX_HELD_LINES || this.heldChars + line.length > MAX_HELD_CHARS) return false;
    this.heldChars += line.length;
    return true;
  }

  /** The lines as parsed, unchecked: for a run we stopped, or output that did not come from this disk. */
  report(): StderrReport {
    return {
      skipped: this.skipped,
      unclassified: this.unclassified,
      nonEmpty: this.nonEmpty,
      eagain: this.threadContext && this.eagainEvidence,
      ...(this.queryRefused === undefined ? {} : { queryRefused: this.queryRefused }),
      // Unchecked: by shape, a warning printed by a path outside the root that is not a given file.
      warnedAbove: this.warnings.some((warning) => isOutsideRoot(warning, this.platform) && !this.givenIgnoreFiles.has(warning.file)),
    };
  }

  /**
   * The report with every path line held to the disk under `root` (ripgrep's cwd), as the module
   * comment says. `shouldStop` is asked before each check: the lines left unchecked are not believed.
   */
  async checkedReport(root: string, shouldStop: () => boolean): Promise<StderrReport> {
    const skipped: SkippedEntry[] = [];
    let unbelieved = this.unheld;
    const disk = new DiskLook(root, this.platform);
    // A message cut in two makes two lines at least: one line alone cannot be half of one.
    const canBeCut = this.lines >= 2;
    for (const line of this.held) {
      if (!shouldStop() && (await isBelieved(line, disk, canBeCut))) skipped.push(line.entry);
      else unbelieved++;
    }
    let unbelievedWarnings = this.unheldWarnings;
    let warnedAbove = false;
    const warnings = new WarningCheck(root, this.platform, this.givenIgnoreFiles);
    for (const warning of this.warnings) {
      const file = shouldStop() ? undefined : await warnings.judge(warning);
      if (file === undefined) unbelievedWarnings++;
      else warnedAbove ||= file === 'parent';
    }
    this.held.length = 0;
    this.warnings.length = 0;
    return {
      ...this.report(),
      skipped,
      unclassified: this.unclassified + unbelieved + unbelievedWarnings,
      nonEmpty: this.nonEmpty || unbelievedWarnings > 0,
      warnedAbove,
    };
  }
}

/**
 * The stderr entries `isGap` keeps (the walker's gaps: src/rg/files.ts, src/content/rg-gaps.ts),
 * in order, within the search's budget. Judging a path holding U+FFFD asks every reading of its
 * bytes (src/glob/nfa.ts: up to 35 ms a path) and an `lstat` is I/O (`isGap` then answers a
 * promise): the caller's signal and the budget (`stop`) are read after each such judgement, and
 * after no other (a plain path costs a match). Once either says stop, the entries left are kept
 * unjudged, `cut` its reason: ripgrep did not read them, and dropping one would make "not read"
 * read as "not there".
 */
export async function judgeGaps(
  entries: readonly SkippedEntry[],
  isGap: (entry: SkippedEntry) => boolean | Promise<boolean>,
  stop: PostRunStop,
): Promise<{ gaps: SkippedEntry[]; cut: IncompleteReason | undefined }> {
  const gaps: SkippedEntry[] = [];
  let dear = false;
  for (const [i, entry] of entries.entries()) {
    const cut = dear ? stop() : undefined;
    if (cut !== undefined) return { gaps: gaps.concat(entries.slice(i)), cut };
    const answer = isGap(entry);
    dear = typeof answer !== 'boolean' || entry.path.includes(REPLACEMENT_CHAR);
    if (typeof answer === 'boolean' ? answer : await answer) gaps.push(entry);
  }
  return { gaps, cut: undefined };
}

async function isBelieved(line: PathLine, disk: DiskLook, canBeCut: boolean): Promise<boolean> {
  if (canBeCut && (await disk.isCutMessage(line.text, line.entry.path))) return false;
  const found = await disk.look(line.entry.path);
  if (classifyErrorCode(line.entry.code) === 'vanished') {
    // Gone, or (for ENOTDIR) no longer a directory: what the line says happened.
    if (found === 'ENOENT' || found === 'ENOTDIR') return true;
    return line.entry.code === 'ENOTDIR' && found === 'other';
  }
  // Present, or hidden from us by the OS (a parent we cannot search): a denial can be true of it.
  if (found === 'ENOENT' || found === 'ENOTDIR') return false;
  // ripgrep prints a byte that is not UTF-8 as U+FFFD: the path may be a readable twin of the one meant.
  return !line.entry.path.includes(REPLACEMENT_CHAR) || !(await disk.isReadable(line.entry.path));
}

/** The few reads the check needs, each directory listed at most once. */
class DiskLook {
  private readonly listings = new Map<string, Promise<string[] | string>>();

  constructor(
    private readonly root: string,
    private readonly platform: Platform,
  ) {}

  /** `rel` by lstat: 'dir', 'other', or the error code. */
  async look(rel: string): Promise<string> {
    try {
      return (await fsp.lstat(this.native(rel))).isDirectory() ? 'dir' : 'other';
    } catch (error) {
      return errorCodeOf(error);
    }
  }

  /** Whether we can read `rel` (R_OK): a denial of a path we can read is not about that path. */
  async isReadable(rel: string): Promise<boolean> {
    try {
      await fsp.access(this.native(rel), fsConstants.R_OK);
      return true;
    } catch {
      return false;
    }
  }

  /**
   * Whether `text` (a whole line, `./<dir>/<rest>`) can be the first line of a message whose path
   * holds a newline: `<dir>` holds a name that is `<rest>`, then a newline. A `<dir>` that cannot
   * be listed cannot rule it out, unless it is gone (then so is all below it) or it is the very
   * directory the line says cannot be read.
   */
  async isCutMessage(text: string, entryPath: string): Promise<boolean> {
    const p = this.platform === 'win32' ? text.replace(/\\/g, '/') : text;
    if (!p.startsWith('./')) return false;
    const rest = p.slice(2);
    const slash = rest.lastIndexOf('/');
    const dir = slash < 0 ? '.' : rest.slice(0, slash) || '.';
    const start = rest.slice(slash + 1);
    const names = await this.list(dir);
    if (typeof names === 'string') return names !== 'ENOENT' && names !== 'ENOTDIR' && dir !== entryPath;
    return names.some((name) => name.startsWith(start) && (name[start.length] === '\n' || name.startsWith('\r\n', start.length)));
  }

  private list(dir: string): Promise<string[] | string> {
    let listing = this.listings.get(dir);
    if (listing === undefined) {
      listing = fsp.readdir(this.native(dir)).catch((error: unknown) => errorCodeOf(error));
      this.listings.set(dir, listing);
    }
    return listing;
  }

  private native(rel: string): string {
    return rel === '.' ? this.root : path.join(this.root, rel);
  }
}

/** `<path>: <message> (os error N)`, with or without the `rg: ` prefix, as a skipped entry. */
export function parsePathError(line: string, platform: Platform): SkippedEntry | undefined {
  const body = line.startsWith('rg: ') ? line.slice(4) : line;
  const match = PATH_ERROR.exec(body);
  if (match === null) return undefined;
  const rel = toRootRelative(match[1]!, platform);
  if (rel === undefined) return undefined;
  return { path: rel, code: osErrorCode(Number(match[3]), platform) };
}

/**
 * ripgrep's path as the walker writes it: `./a/b` → `a/b`, `.` or `./` → `.`; on Windows `\` → `/`.
 * A path that is not under `.` is not one ripgrep printed for this walk.
 */
function toRootRelative(raw: string, platform: Platform): string | undefined {
  const p = platform === 'win32' ? raw.replace(/\\/g, '/') : raw;
  if (p === '.' || p === './') return '.';
  if (!p.startsWith('./')) return undefined;
  let rel = p.slice(2);
  while (rel.startsWith('/')) rel = rel.slice(1);
  if (rel.endsWith('/')) rel = rel.slice(0, -1);
  return rel === '' ? '.' : rel;
}

/**
 * Node's code for an OS error number. Windows numbers are Win32 error codes, mapped as libuv maps
 * them (ERROR_ACCESS_DENIED is EPERM, as Node reports it for readdir); POSIX numbers are errno values
 * of the OS we run on (13 EACCES, 1 EPERM).
 */
export function osErrorCode(n: number, platform: Platform): string {
  if (platform === 'win32') return WIN32_CODES[n] ?? 'UNKNOWN';
  return posixCodes().get(n) ?? 'UNKNOWN';
}

const WIN32_CODES: Readonly<Record<number, string>> = {
  2: 'ENOENT', // ERROR_FILE_NOT_FOUND
  3: 'ENOENT', // ERROR_PATH_NOT_FOUND
  5: 'EPERM', // ERROR_ACCESS_DENIED
  32: 'EBUSY', // ERROR_SHARING_VIOLATION
  33: 'EBUSY', // ERROR_LOCK_VIOLATION
  206: 'ENAMETOOLONG', // ERROR_FILENAME_EXCED_RANGE
  1920: 'EACCES', // ERROR_CANT_ACCESS_FILE
  1921: 'ELOOP', // ERROR_CANT_RESOLVE_FILENAME
};

let posixTable: Map<number, string> | undefined;

function posixCodes(): Map<number, string> {
  if (posixTable !== undefined) return posixTable;
  posixTable = new Map();
  // Running on Windows (the posix flavour only in tests): Linux numbers.
  const errno: Record<string, number> = process.platform === 'win32' ? LINUX_ERRNO : (constants.errno as Record<string, number>);
  // First name wins: EAGAIN before EWOULDBLOCK, as Node reports them.
  for (const [name, n] of Object.entries(errno)) if (!posixTable.has(n)) posixTable.set(n, name);
  return posixTable;
}

const LINUX_ERRNO: Record<string, number> = { EPERM: 1, ENOENT: 2, EIO: 5, EAGAIN: 11, EACCES: 13, EBUSY: 16, ENOTDIR: 20, ENFILE: 23, EMFILE: 24, ENAMETOOLONG: 36, ELOOP: 40 };
