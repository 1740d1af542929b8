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
 */
import { constants } from 'node:os';
import type { Platform } from '../patterns.js';
import type { SkippedEntry } from '../result.js';

export interface StderrReport {
  /** Paths ripgrep reported it could not read, root-relative with `/`, in the order printed. */
  skipped: SkippedEntry[];
  /** Non-blank lines that are not a path error. */
  unclassified: number;
  /** Any non-blank line at all: `exit 1` with stderr is not "no matches". */
  nonEmpty: boolean;
  /** A thread-creation failure with EAGAIN evidence: the one case a retry with `--threads 1` can fix. */
  eagain: boolean;
}

// Greedy: a path may hold `: `, the OS messages do not.
const PATH_ERROR = /^(.+): (.+) \(os error (\d+)\)$/;
const THREAD_CONTEXT = /failed to spawn (?:scoped )?thread/i;

export class StderrReader {
  private readonly skipped: SkippedEntry[] = [];
  private unclassified = 0;
  private nonEmpty = false;
  private threadContext = false;
  private eagainEvidence = false;
  private readonly eagainPattern: RegExp;

  constructor(private readonly platform: Platform) {
    // EAGAIN is 11 on Linux, 35 on macOS: the number of the OS ripgrep runs on, which is ours.
    const eagain = constants.errno.EAGAIN ?? 11;
    this.eagainPattern = new RegExp(`\\bos error ${eagain}\\b|\\bcode: ${eagain}\\b`);
  }

  /** Takes one line (without its newline). */
  line(text: string): void {
    const line = text.endsWith('\r') ? text.slice(0, -1) : text;
    if (line.trim() === '') return;
    this.nonEmpty = true;
    if (THREAD_CONTEXT.test(line)) this.threadContext = true;
    if (this.eagainPattern.test(line)) this.eagainEvidence = true;
    const entry = parsePathError(line, this.platform);
    if (entry === undefined) this.unclassified++;
    else this.skipped.push(entry);
  }

  report(): StderrReport {
    return {
      skipped: this.skipped,
      unclassified: this.unclassified,
      nonEmpty: this.nonEmpty,
      eagain: this.threadContext && this.eagainEvidence,
    };
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
