/**
 * ripgrep's stderr lines, as ripgrep 13 (Debian), ripgrep 14.1+ and Windows in two languages print
 * them, turned into skipped entries with Node's codes; everything else is counted, never kept.
 */
import { constants } from 'node:os';
import { describe, expect, it } from 'vitest';
import { StderrReader, osErrorCode, parsePathError } from '../../src/rg/stderr.js';
import { reasonForCode } from '../../src/result.js';
import { EAGAIN_PANIC } from '../helpers/rg-fake.js';

function read(text: string, platform: 'posix' | 'win32' = 'posix') {
  const reader = new StderrReader(platform);
  for (const line of text.split('\n')) reader.line(line);
  return reader.report();
}

describe('path errors', () => {
  it('reads the bare ripgrep 13 form and the rg:-prefixed ripgrep 14.1 form alike', () => {
    expect(parsePathError('./deny: Permission denied (os error 13)', 'posix')).toEqual({ path: 'deny', code: 'EACCES' });
    expect(parsePathError('rg: ./deny: Permission denied (os error 13)', 'posix')).toEqual({ path: 'deny', code: 'EACCES' });
  });

  it('normalises ./ away so paths match the walker, the root itself being "."', () => {
    expect(parsePathError('./a/b c/deny: Permission denied (os error 13)', 'posix')).toEqual({ path: 'a/b c/deny', code: 'EACCES' });
    expect(parsePathError('.: Permission denied (os error 13)', 'posix')).toEqual({ path: '.', code: 'EACCES' });
    expect(parsePathError('rg: ./: Permission denied (os error 13)', 'posix')).toEqual({ path: '.', code: 'EACCES' });
    expect(parsePathError('./ünï/日本: Permission denied (os error 13)', 'posix')).toEqual({ path: 'ünï/日本', code: 'EACCES' });
  });

  it('keeps a path that itself holds ": "', () => {
    expect(parsePathError('rg: ./odd: name: Permission denied (os error 13)', 'posix')).toEqual({ path: 'odd: name', code: 'EACCES' });
  });

  it('maps POSIX numbers by errno: 13 EACCES, 1 EPERM, 5 EIO, 2 ENOENT', () => {
    expect(parsePathError('./x: Operation not permitted (os error 1)', 'posix')).toEqual({ path: 'x', code: 'EPERM' });
    expect(parsePathError('./x: Input/output error (os error 5)', 'posix')).toEqual({ path: 'x', code: 'EIO' });
    expect(parsePathError('./x: No such file or directory (os error 2)', 'posix')).toEqual({ path: 'x', code: 'ENOENT' });
    expect(osErrorCode(constants.errno.EACCES, 'posix')).toBe('EACCES');
    expect(osErrorCode(99999, 'posix')).toBe('UNKNOWN');
  });

  it('maps Windows os error 5 to EPERM (as Node reports ERROR_ACCESS_DENIED) whatever the language', () => {
    const english = 'rg: ./Program Files\\WindowsApps: Access is denied. (os error 5)';
    const chinese = './Program Files\\WindowsApps: 拒绝访问。 (os error 5)';
    const german = 'rg: .\\Program Files\\WindowsApps: Zugriff verweigert (os error 5)';
    for (const line of [english, chinese, german]) {
      expect(parsePathError(line, 'win32'), line).toEqual({ path: 'Program Files/WindowsApps', code: 'EPERM' });
    }
    expect(parsePathError('./x: The system cannot find the path specified. (os error 3)', 'win32')).toEqual({ path: 'x', code: 'ENOENT' });
    expect(parsePathError('./x: whatever (os error 1234)', 'win32')).toEqual({ path: 'x', code: 'UNKNOWN' });
  });

  it('maps every Windows code of the table to the code Node reports, so only a gone path is read as vanished (no gap)', () => {
    // Kills a table entry read as ENOENT: os error 32 (sharing violation) taken for "vanished" would drop a gap.
    const table: [number, string, 'permission-denied' | 'io-error' | undefined][] = [
      [2, 'ENOENT', undefined],
      [3, 'ENOENT', undefined],
      [5, 'EPERM', 'permission-denied'],
      [32, 'EBUSY', 'io-error'],
      [33, 'EBUSY', 'io-error'],
      [206, 'ENAMETOOLONG', 'io-error'],
      [1920, 'EACCES', 'permission-denied'],
      [1921, 'ELOOP', 'io-error'],
    ];
    for (const [n, code, reason] of table) {
      const entry = parsePathError(`rg: .\\dir\\file.txt: message (os error ${n})`, 'win32');
      expect(entry, `os error ${n}`).toEqual({ path: 'dir/file.txt', code });
      expect(reasonForCode(entry!.code), `os error ${n}`).toBe(reason);
    }
  });

  it('writes the path as the walker does: the root as ".", no "./", no doubled or trailing "/" (Stryker survivors)', () => {
    const path = (p: string, platform: 'posix' | 'win32' = 'posix') => parsePathError(`${p}: Permission denied (os error 13)`, platform)?.path;
    expect(path('.')).toBe('.');
    expect(path('./')).toBe('.');
    expect(path('.//')).toBe('.');
    expect(path('./src/')).toBe('src');
    expect(path('.///src/deny')).toBe('src/deny');
    expect(path('.\\', 'win32')).toBe('.');
    expect(path('.\\src\\', 'win32')).toBe('src');
    for (const outside of ['src/deny', '/etc', '..', '../x', '.x/y']) expect(path(outside), outside).toBeUndefined();
  });

  it('reads only a whole line as a path error: the line starts with the path and ends with the code', () => {
    expect(parsePathError('./x: Permission denied (os error 13) and more', 'posix')).toBeUndefined();
    expect(parsePathError('note ./x: Permission denied (os error 13)', 'posix')).toBeUndefined();
    expect(parsePathError('./x: Permission denied (os error 13', 'posix')).toBeUndefined();
    expect(parsePathError('./x: Permission denied (os error 1x3)', 'posix')).toBeUndefined();
    expect(parsePathError('./ab: Permission denied (os error 13)', 'posix')).toEqual({ path: 'ab', code: 'EACCES' });
  });

  it('does not read a backslash as a separator on POSIX, where it is a name character', () => {
    expect(parsePathError('./a\\b: Permission denied (os error 13)', 'posix')).toEqual({ path: 'a\\b', code: 'EACCES' });
  });

  it('refuses lines that are not a path error under the root', () => {
    for (const line of [
      "error parsing glob '{a,{b}}': nested alternate groups are not allowed",
      'No files were searched, which means ripgrep probably applied a filter you didn\'t expect.',
      '/etc/shadow: Permission denied (os error 13)',
      './x: Permission denied',
      'Permission denied (os error 13)',
    ]) {
      expect(parsePathError(line, 'posix'), line).toBeUndefined();
    }
  });
});

describe('StderrReader', () => {
  it('collects skipped entries in order, counts other lines, ignores blank lines and CRLF endings', () => {
    const report = read('./a: Permission denied (os error 13)\r\n\n  \nsomething odd\n./b: Operation not permitted (os error 1)\n');
    expect(report).toEqual({
      skipped: [
        { path: 'a', code: 'EACCES' },
        { path: 'b', code: 'EPERM' },
      ],
      unclassified: 1,
      nonEmpty: true,
      eagain: false,
      warnedAbove: false,
    });
  });

  it('says empty for blank stderr', () => {
    expect(read('\n \r\n')).toEqual({ skipped: [], unclassified: 0, nonEmpty: false, eagain: false, warnedAbove: false });
  });

  it('confirms EAGAIN only with a thread-creation context and the EAGAIN number together', () => {
    const n = constants.errno.EAGAIN;
    const panic = EAGAIN_PANIC.replace(/code: 11/, `code: ${n}`);
    expect(read(panic).eagain).toBe(true);
    // ripgrep 14 (std::thread::scope) says "failed to spawn thread"; the evidence may be on another line.
    expect(read(`thread 'main' panicked at 'failed to spawn thread'\nResource temporarily unavailable (os error ${n})`).eagain).toBe(true);
  });

  it('does not take the generic "resource temporarily unavailable" text, or either half alone, as EAGAIN', () => {
    expect(read('./x: Resource temporarily unavailable').eagain).toBe(false);
    expect(read(`./x: Resource temporarily unavailable (os error ${constants.errno.EAGAIN})`).eagain).toBe(false);
    expect(read("thread 'main' panicked at 'failed to spawn thread: Os { code: 12, kind: OutOfMemory }'").eagain).toBe(false);
  });
});

describe('ignore-file warnings (gitignore: true)', () => {
  it('a rule ripgrep could not parse is skipped, no gap: not unclassified, stderr still blank', () => {
    const reader = new StderrReader('posix');
    reader.line("./.gitignore: line 1: error parsing glob 'c[': unclosed character class; missing ']'");
    reader.line("./sub/.ignore: line 2: error parsing glob '[z-a]': invalid range; 'z' > 'a'");
    reader.line("/repo/.git/info/exclude: line 3: error parsing glob 'esc\\': dangling '\\'");
    expect(reader.report()).toMatchObject({ skipped: [], unclassified: 0, nonEmpty: false });
  });

  it('reads a warning for any line number, and for an ignore file named bare, without ./ (Stryker survivors)', () => {
    const reader = new StderrReader('posix');
    reader.line("./.gitignore: line 12: error parsing glob 'c[': unclosed character class; missing ']'");
    reader.line(".gitignore: line 3: error parsing glob 'c[': unclosed character class; missing ']'");
    expect(reader.report()).toMatchObject({ skipped: [], unclassified: 0, nonEmpty: false });
  });

  it('a file that merely ends like an ignore file, or a denied file whose name forges a warning, is still counted (a gap)', () => {
    const reader = new StderrReader('posix');
    reader.line("./.gitignore.old: line 1: error parsing glob 'c[': unclosed character class; missing ']'");
    reader.line("./notes.gitignore: line 1: error parsing glob 'c[': unclosed character class; missing ']'");
    // The name is `.gitignore: line 1: error parsing glob 'x` (a file may be named so): ripgrep could not read it.
    reader.line("./.gitignore: line 1: error parsing glob 'x: Permission denied (os error 13)");
    expect(reader.report()).toMatchObject({ skipped: [{ path: ".gitignore: line 1: error parsing glob 'x", code: 'EACCES' }], unclassified: 2, nonEmpty: true });
  });

  it('only an ignore file can warn so; a path error is never read as a warning', () => {
    const reader = new StderrReader('posix');
    reader.line("./notes.txt: line 1: error parsing glob 'x': whatever");
    reader.line("./locked: line 1: error parsing glob 'x': Permission denied (os error 13)");
    const report = reader.report();
    expect(report.unclassified).toBe(1);
    expect(report.skipped).toEqual([{ path: "locked: line 1: error parsing glob 'x'", code: 'EACCES' }]);
  });
});

describe('POSIX errno names', () => {
  it('names a number by the errno table of the OS we run on, the first name of a shared number as Node reports it', () => {
    // Not only the few numbers of the Windows-side fallback table: a read-only filesystem is EROFS here.
    expect(osErrorCode(constants.errno.EROFS, 'posix')).toBe('EROFS');
    // EAGAIN and EWOULDBLOCK share a number on Linux and macOS: Node (and the retry rule) says EAGAIN.
    expect(osErrorCode(constants.errno.EAGAIN, 'posix')).toBe('EAGAIN');
  });
});
