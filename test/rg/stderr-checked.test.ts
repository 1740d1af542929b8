/**
 * Each path line of ripgrep's stderr held to the disk before it is believed (src/rg/stderr.ts), as
 * any user, against a real tree: the line checks of test/rg/stderr-forged.test.ts without its
 * unprivileged run, so Stryker's sandbox can run them too (docs/mutation.md).
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFiles } from '../../src/index.js';
import { StderrReader } from '../../src/rg/stderr.js';
import { posixOnly } from '../helpers/skip-why.js';

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

  async function check(...lines: string[]) {
    const reader = new StderrReader('posix');
    for (const line of lines) reader.line(line);
    return reader.checkedReport(tree, () => false);
  }

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
