/**
 * ripgrep's warnings about ignore-file rules, read as values and held to the disk before they are
 * believed: `./sub/.gitignore: line 2: error parsing glob 'c[': unclosed character class; missing ']'`.
 * ripgrep skips such a line and goes on, as the walker does: no gap. A warning about a file inside
 * the root is printed `./<path>`; one about a file above it (a parent's `.gitignore`, `.ignore`,
 * `.rgignore`, the repository's `info/exclude`) by its absolute path, and for those ripgrep 13
 * exits 2 though it read everything; one about an `ignoreFiles` file (`--ignore-file`, any name) by
 * the path it was given (exit 0).
 *
 * What may be believed, and why:
 * - A line that ends like a path error (`(os error N)`) is never a warning. Every message ripgrep
 *   prints about a path it could not read ends so, and a name can make all that comes before its
 *   last line anything: a denied directory named `g: gone (os error 2)⏎.gitignore: line 1: error
 *   parsing glob 'z` printed a forged vanished `./g` and a "warning" whose tail was the denial.
 * - A warning names an ignore file that is a regular file, whose line N is the glob quoted (its
 *   trailing whitespace may be dropped, as ripgrep drops it), and, above the root, a `.gitignore`,
 *   `.ignore` or `.rgignore` in one of the root's real parents (ripgrep canonicalizes the root) or an
 *   `info/exclude` (a worktree's lives in its common git directory), or a given file. Anything else
 *   is unexplained.
 */
import { constants as fsConstants, promises as fsp } from 'node:fs';
import * as path from 'node:path';
import type { Platform } from '../patterns.js';
import { IGNORE_FILE_NAMES } from '../walk/ignore.js';

export interface IgnoreWarning {
  /** The line as printed, without `rg: `. */
  text: string;
  /** The ignore file as printed. */
  file: string;
  lineNumber: number;
}

/** The end every path error has: a line ending so is a path error or nothing we can explain. */
const OS_ERROR_END = /\(os error \d+\)$/;
// Greedy: a directory on the way may be named `x: line 1: error parsing glob 'y`.
const WARNING = /^(.+): line (\d+): error parsing glob '/;
const EXCLUDE_END = /(?:^|[\\/])info[\\/]exclude$/;
/** A parent's ignore file larger than this is not read to check a warning (the warning is then unexplained). */
const MAX_CHECKED_BYTES = 8 << 20;

/**
 * The warning a line is, by its shape alone, or undefined. `given`: the `ignoreFiles` (ripgrep's
 * `--ignore-file`), which may have any name; ripgrep warns about them by the path it was given.
 */
export function parseIgnoreWarning(line: string, given: ReadonlySet<string> = NONE): IgnoreWarning | undefined {
  const text = line.startsWith('rg: ') ? line.slice(4) : line;
  if (OS_ERROR_END.test(text)) return undefined;
  const match = WARNING.exec(text);
  if (match === null || !(isIgnoreFileName(match[1]!) || given.has(match[1]!))) return undefined;
  return { text, file: match[1]!, lineNumber: Number(match[2]) };
}

const NONE: ReadonlySet<string> = new Set();

function isIgnoreFileName(file: string): boolean {
  if (EXCLUDE_END.test(file)) return true;
  const name = file.slice(Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\')) + 1);
  return (IGNORE_FILE_NAMES as readonly string[]).includes(name);
}

/** Whether the warning is printed by a path outside the root (absolute, not `./`): a parent's file, or a given one. */
export function isOutsideRoot(warning: IgnoreWarning, platform: Platform): boolean {
  const file = platform === 'win32' ? warning.file.replace(/\\/g, '/') : warning.file;
  return !(file === '.' || file.startsWith('./'));
}

/** Which ignore file a true warning is about: one in the root, a parent's (rg 13 exits 2 for it), or an `ignoreFiles` file. */
export type WarnedFile = 'inside' | 'parent' | 'given';

/** The disk reads the checks need, each file read once. */
export class WarningCheck {
  private realRoot: Promise<string> | undefined;
  private readonly files = new Map<string, Promise<string[] | undefined>>();

  constructor(
    private readonly root: string,
    private readonly platform: Platform,
    private readonly given: ReadonlySet<string> = NONE,
  ) {}

  /** Which file the warning is about, when the disk bears it out (the module comment); else undefined. */
  async judge(warning: IgnoreWarning): Promise<WarnedFile | undefined> {
    const located = await this.locate(warning);
    if (located === undefined) return undefined;
    const [native, kind] = located;
    const rule = warning.lineNumber < 1 ? undefined : (await this.readLines(native))?.[warning.lineNumber - 1];
    if (rule === undefined) return undefined;
    const quoted = warning.text.slice(`${warning.file}: line ${warning.lineNumber}: error parsing glob '`.length);
    // The glob is the line less some of its trailing whitespace (all of it, unless it ends in `\ `).
    for (let end = rule.trimEnd().length; end <= rule.length; end++) {
      if (end > 0 && quoted.startsWith(`${rule.slice(0, end)}': `)) return kind;
    }
    return undefined;
  }

  /** The file's native path, and which kind of file it is, or undefined when ripgrep reads no such file. */
  private async locate(warning: IgnoreWarning): Promise<[string, WarnedFile] | undefined> {
    if (!isOutsideRoot(warning, this.platform)) return [path.join(this.root, warning.file), 'inside'];
    const parent = await this.locateParent(warning);
    if (parent !== undefined) return [parent, 'parent'];
    return this.given.has(warning.file) ? [warning.file, 'given'] : undefined;
  }

  /** The native path of a file ripgrep reads above the root by that absolute path, or undefined. */
  private async locateParent(warning: IgnoreWarning): Promise<string | undefined> {
    // ripgrep canonicalizes the root: on Windows that is a verbatim path (`\\?\C:\repo`), ours is `C:\repo`.
    const file = this.platform === 'win32' ? warning.file.replace(/^\\\\\?\\(?!UNC\\)/, '') : warning.file;
    if (!path.isAbsolute(file) || !isIgnoreFileName(file)) return undefined;
    if (EXCLUDE_END.test(file)) return file;
    this.realRoot ??= fsp.realpath(this.root).catch(() => path.resolve(this.root));
    const parent = path.dirname(file);
    const relative = path.relative(parent, await this.realRoot);
    const isStrictAncestor = relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
    return isStrictAncestor ? file : undefined;
  }

  /**
   * The file's lines as ripgrep splits them (`\n`, a `\r` before it dropped), or undefined when it is
   * not a regular file that can be read. Opened without blocking, so a FIFO by that name cannot hang
   * the check (ripgrep would have hung on it, and printed nothing).
   */
  private readLines(native: string): Promise<string[] | undefined> {
    let lines = this.files.get(native);
    if (lines === undefined) {
      lines = readRegularFile(native, MAX_CHECKED_BYTES).then((text) => text?.split('\n').map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line)));
      this.files.set(native, lines);
    }
    return lines;
  }
}

/**
 * A regular file's text, or undefined when it is no regular file, larger than `maxBytes`, or cannot
 * be read. Opened without blocking (Windows has no O_NONBLOCK, nor FIFOs in the tree): a FIFO's plain
 * open would wait for a writer, before any budget runs. The `ignoreFiles` check (files.ts) reads them so too.
 */
export async function readRegularFile(native: string, maxBytes = Infinity): Promise<string | undefined> {
  let handle: fsp.FileHandle | undefined;
  try {
    handle = await fsp.open(native, fsConstants.O_RDONLY | (fsConstants.O_NONBLOCK ?? 0));
    const stats = await handle.stat();
    if (!stats.isFile() || stats.size > maxBytes) return undefined;
    return await handle.readFile('utf8');
  } catch {
    return undefined;
  } finally {
    await handle?.close().catch(() => undefined);
  }
}
