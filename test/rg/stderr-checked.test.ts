/**
 * Each path line of ripgrep's stderr held to the disk before it is believed (src/rg/stderr.ts), as
 * any user, against a real tree: the line checks of test/rg/stderr-forged.test.ts without its
 * unprivileged run, so Stryker's sandbox can run them too (docs/mutation.md).
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFiles } from '../../src/index.js';
import { StderrReader } from '../../src/rg/stderr.js';
import { posixOnly } from '../helpers/skip-why.js';
import { checkedStderr } from '../helpers/search-answer.js';

const isPosix = process.platform !== 'win32';
/** The directory name of the attack in test/rg/stderr-forged.test.ts: a forged message, a real newline, then `.`. */
const CRAFTED = 'x: gone (os error 2)\n.';

describe.skipIf(!isPosix)(posixOnly('StderrReader.checkedReport holds each path line to the disk', 'the crafted folder name holds characters Windows names cannot'), () => {
  let tree: string;

  beforeAll(() => {
    tree = mkdtempSync(join(tmpdir(), 'ff-hardening-lines-'));
    for (const sub of ['locked', 'src/lib', `src/${CRAFTED}/deny`]) mkdirSync(join(tree, sub), { recursive: true });
    writeFileSync(join(tree, 'src', 'file.ts'), '');
  });

  afterAll(() => rmSync(tree, { recursive: true, force: true }));

  const check = (...lines: string[]) => checkedStderr(tree, ...lines);

  it('believes a denial of a path that exists, the denied root, and ripgrep 14 prefixed lines', async () => {
    expect(await check('./locked: Permission denied (os error 13)')).toMatchObject({ skipped: [{ path: 'locked', code: 'EACCES' }], unclassified: 0 });
    expect(await check('./: Permission denied (os error 13)', 'rg: ./src/lib: Permission denied (os error 13)')).toMatchObject({
      skipped: [{ path: '.', code: 'EACCES' }, { path: 'src/lib', code: 'EACCES' }],
      unclassified: 0,
    });
  });

  it('believes a vanished line only when its path is gone', async () => {
    expect(await check('./src/gone: No such file or directory (os error 2)')).toMatchObject({ skipped: [{ path: 'src/gone', code: 'ENOENT' }], unclassified: 0 });
    expect(await check('./src/lib: No such file or directory (os error 2)')).toMatchObject({ skipped: [], unclassified: 1 });
  });

  it('does not believe a denial of a path that does not exist', async () => {
    expect(await check('./nowhere: Permission denied (os error 13)')).toMatchObject({ skipped: [], unclassified: 1 });
  });

  it('does not believe the first line of a message cut by a newline in a name, nor what follows', async () => {
    const cut = await check('./src/x: gone (os error 2)', './deny: Permission denied (os error 13)');
    expect(cut).toMatchObject({ skipped: [], unclassified: 2 });
    // With ripgrep 14's prefix, and with the tail naming a path that does exist.
    mkdirSync(join(tree, 'deny'), { recursive: true });
    const prefixed = await check('rg: ./src/x: gone (os error 2)', 'rg: ./deny: Permission denied (os error 13)');
    expect(prefixed).toMatchObject({ skipped: [{ path: 'deny', code: 'EACCES' }], unclassified: 1 });
  });

  it('holds at most 10 000 path lines to the disk: a denial past that cap is not believed (a gap, never dropped)', async () => {
    const denied = Array.from({ length: 10_001 }, () => './locked: Permission denied (os error 13)');
    const report = await check(...denied);
    expect(report.skipped).toHaveLength(10_000);
    expect(report.unclassified).toBe(1);
  });

  it('holds at most 8 MiB of path-line text: the line that fills it exactly is checked, the next is not believed', async () => {
    // 1024-character lines naming a real, deep directory: 8192 of them fill the 8 MiB exactly.
    const suffix = ': Permission denied (os error 13)';
    const parts = ['deep'];
    while (parts.join('/').length < 1024 - 2 - suffix.length - 201) parts.push('d'.repeat(200));
    parts.push('e'.repeat(1024 - 2 - suffix.length - parts.join('/').length - 1));
    const deep = parts.join('/');
    mkdirSync(join(tree, deep), { recursive: true });
    const line = `./${deep}${suffix}`;
    expect(line).toHaveLength(1024);
    const report = await check(...Array.from({ length: 8193 }, () => line));
    expect(report.skipped).toHaveLength(8192);
    expect(report.skipped[0]).toEqual({ path: deep, code: 'EACCES' });
    expect(report.unclassified).toBe(1);
  });

  it('believes nothing it was stopped before checking', async () => {
    const reader = new StderrReader('posix');
    reader.line('./locked: Permission denied (os error 13)');
    expect(await reader.checkedReport(tree, () => true)).toMatchObject({ skipped: [], unclassified: 1 });
  });
});

describe.skipIf(!isPosix)(posixOnly('a run we stopped at the byte cap still holds its stderr to the disk', 'the stand-in ripgrep is a #!/bin/sh script made executable with chmod'), () => {
  let dir: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'ff-stopped-stderr-'));
    mkdirSync(join(dir, 'root', 'real'), { recursive: true });
    writeFileSync(join(dir, 'root', 'real', 'a.ts'), '');
    // A forged "vanished" line for a directory that exists, then a stderr line past the 1 MiB cap (same pipe: in order).
    const script = `#!/bin/sh\nprintf './real: No such file or directory (os error 2)\\n' >&2\nhead -c 1100000 /dev/zero | tr '\\\\0' x >&2\nexit 2\n`;
    writeFileSync(join(dir, 'rg'), script);
    chmodSync(join(dir, 'rg'), 0o755);
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('does not believe a forged vanished line from a run stopped at the byte cap (max_buffer)', async () => {
    // Kills the stderr of a run stopped by a limit believed unchecked: `real` would be listed as gone while it holds a.ts.
    const result = await findFiles({ root: join(dir, 'root'), pattern: '*.ts', backend: 'ripgrep', rgPath: join(dir, 'rg') });
    expect(result.skipped).toEqual([]);
    expect(result).toMatchObject({ complete: false, incompleteReasons: ['io-error'], recovery: { failureKind: 'max_buffer' } });
  });
});

describe.skipIf(!isPosix)(posixOnly('checkedReport: what the disk says about each kind of line (Stryker survivors of rg/stderr.ts)', 'the crafted names hold newlines, which Windows names cannot'), () => {
  let tree: string;
  /** A line's message part as ripgrep 13 prints it. */
  const DENIED = ': Permission denied (os error 13)';

  beforeAll(() => {
    tree = mkdtempSync(join(tmpdir(), 'ff-stderr-kinds-'));
    for (const sub of ['locked', 'src', 'odd', `x: gone (os error 2)\n.`, `src/y: gone (os error 2)\r\n.`, `back\\x: gone (os error 2)\n.`]) mkdirSync(join(tree, sub), { recursive: true });
    writeFileSync(join(tree, 'src', 'file.ts'), '');
    // Names that only look like the start of a cut message: no newline right after the line's text.
    writeFileSync(join(tree, 'odd', 'f'), '');
    writeFileSync(join(tree, 'odd', `f${DENIED} copy`), '');
    writeFileSync(join(tree, 'odd', `${'q'.repeat(`f${DENIED}`.length)}\nq`), '');
    // A directory the OS will not list (as a denied one would not be, for a user other than root).
    symlinkSync('loop', join(tree, 'loop'));
  });

  afterAll(() => rmSync(tree, { recursive: true, force: true }));

  async function check(lines: string[], platform: 'posix' | 'win32' = 'posix', root = tree) {
    const reader = new StderrReader(platform);
    for (const line of lines) reader.line(line);
    return reader.checkedReport(root, () => false);
  }

  it('believes one line alone even when a name could make it the start of a cut message: a cut makes two lines', async () => {
    expect(await check(['./x: gone (os error 2)'])).toMatchObject({ skipped: [{ path: 'x', code: 'ENOENT' }], unclassified: 0 });
    // The same line with another one: it can be half of a message, so it is not believed.
    expect(await check(['./x: gone (os error 2)', `./locked${DENIED}`])).toMatchObject({ skipped: [{ path: 'locked', code: 'EACCES' }], unclassified: 1 });
  });

  it('sees a cut by CRLF in a name, and a cut in a Windows line written with backslashes', async () => {
    expect(await check(['./src/y: gone (os error 2)\r', `./locked${DENIED}`])).toMatchObject({ skipped: [{ path: 'locked' }], unclassified: 1 });
    expect(await check(['.\\x: gone (os error 2)', `.\\locked${DENIED}`], 'win32')).toMatchObject({ skipped: [{ path: 'locked' }], unclassified: 1 });
  });

  it('on POSIX a backslash is a name character, in the cut check too', async () => {
    expect(await check(['./back\\x: gone (os error 2)', `./locked${DENIED}`])).toMatchObject({ skipped: [{ path: 'locked' }], unclassified: 1 });
  });

  it('a name that only starts like the line, with no newline right after, does not make the line doubtful', async () => {
    expect(await check([`./odd/f${DENIED}`, `./locked${DENIED}`])).toMatchObject({ skipped: [{ path: 'odd/f' }, { path: 'locked' }], unclassified: 0 });
  });

  it('believes a vanished line whose path is now under a file (ENOTDIR), and a "not a directory" line for what is now a file', async () => {
    expect(await check(['./src/file.ts/x: No such file or directory (os error 2)', `./locked${DENIED}`])).toMatchObject({
      skipped: [{ path: 'src/file.ts/x', code: 'ENOENT' }, { path: 'locked' }],
      unclassified: 0,
    });
    expect(await check(['./src/file.ts: Not a directory (os error 20)'])).toMatchObject({ skipped: [{ path: 'src/file.ts', code: 'ENOTDIR' }], unclassified: 0 });
  });

  it('does not believe "not a directory" for a directory, "vanished" for a file that is there, nor a denial under a file', async () => {
    expect(await check(['./src: Not a directory (os error 20)'])).toMatchObject({ skipped: [], unclassified: 1 });
    expect(await check(['./src/file.ts: No such file or directory (os error 2)'])).toMatchObject({ skipped: [], unclassified: 1 });
    expect(await check([`./src/file.ts/x${DENIED}`])).toMatchObject({ skipped: [], unclassified: 1 });
  });

  it('a line under a directory it cannot list cannot be ruled out as cut (not believed), unless that directory is gone', async () => {
    expect(await check([`./loop/x${DENIED}`, `./locked${DENIED}`])).toMatchObject({ skipped: [{ path: 'locked' }], unclassified: 1 });
    expect(await check(['./gone/x: No such file or directory (os error 2)', `./locked${DENIED}`])).toMatchObject({
      skipped: [{ path: 'gone/x', code: 'ENOENT' }, { path: 'locked' }],
      unclassified: 0,
    });
  });

  it('believes the denial of the root itself, which is the directory it cannot list, in either form ripgrep prints the root', async () => {
    const root = join(tree, 'loop');
    expect(await check([`./${DENIED}`, `.${DENIED}`], 'posix', root)).toMatchObject({ skipped: [{ path: '.' }, { path: '.' }], unclassified: 0 });
  });

  it('checks a root line written "." without "./" as a whole: a name in the root that starts like its message does not make it doubtful', async () => {
    const root = join(tree, 'plain-root');
    mkdirSync(root);
    writeFileSync(join(root, `${DENIED.slice(1)}\nx`), '');
    expect(await check([`.${DENIED}`, `./${DENIED}`], 'posix', root)).toMatchObject({ skipped: [{ path: '.' }, { path: '.' }], unclassified: 0 });
  });
});
