/**
 * Resolving the ripgrep executable: rgPath, then FIND_FILE_RG, then our own PATH lookup, always to an
 * absolute path and never in the current or searched directory.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSearchDirs, resolveRipgrep } from '../../src/rg/resolve.js';

const isWindows = process.platform === 'win32';
const platform = isWindows ? ('win32' as const) : ('posix' as const);
const EXE = isWindows ? 'rg.exe' : 'rg';
const DELIM = isWindows ? ';' : ':';
let dir: string;
let good: string;
let other: string;
let notExecutable: string;
let folderNamedRg: string;
let root: string;

function install(at: string, mode = 0o755): string {
  mkdirSync(at, { recursive: true });
  const file = join(at, EXE);
  writeFileSync(file, '');
  chmodSync(file, mode);
  return file;
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ff-rg-resolve-'));
  good = install(join(dir, 'good'));
  other = install(join(dir, 'other'));
  notExecutable = join(dir, 'noexec');
  install(notExecutable, 0o644);
  folderNamedRg = join(dir, 'folder');
  mkdirSync(join(folderNamedRg, EXE), { recursive: true });
  root = join(dir, 'repo');
  install(root); // a repository that plants its own rg
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const input = (env: Record<string, string | undefined>, rgPath?: string) => ({ rgPath, env, platform, root, cwd: root });

describe('resolveRipgrep', () => {
  it('takes rgPath first, as explicit, whatever the environment says', async () => {
    expect(await resolveRipgrep(input({ FIND_FILE_RG: other, PATH: join(dir, 'other') }, good))).toEqual({ path: good, selectionMode: 'explicit' });
  });

  it('reports an rgPath that is not an executable file instead of looking elsewhere', async () => {
    const missing = await resolveRipgrep(input({ PATH: join(dir, 'good') }, join(dir, 'nope', EXE)));
    expect(missing.path).toBeUndefined();
    expect('why' in missing && missing.why).toMatch(/rgPath .* is not an executable file/);
  });

  it('takes FIND_FILE_RG next, as explicit', async () => {
    expect(await resolveRipgrep(input({ FIND_FILE_RG: other, PATH: join(dir, 'good') }))).toEqual({ path: other, selectionMode: 'explicit' });
  });

  it('refuses a relative FIND_FILE_RG and a FIND_FILE_RG that points nowhere, without falling back to the PATH', async () => {
    const relative = await resolveRipgrep(input({ FIND_FILE_RG: EXE, PATH: join(dir, 'good') }));
    expect(relative.path).toBeUndefined();
    expect('why' in relative && relative.why).toMatch(/absolute/);
    const nowhere = await resolveRipgrep(input({ FIND_FILE_RG: join(dir, 'missing', EXE), PATH: join(dir, 'good') }));
    expect(nowhere.path).toBeUndefined();
  });

  it('looks the PATH up itself, as system, skipping relative entries, the cwd, the searched root, folders and non-executables', async () => {
    const PATH = ['', '.', 'relative/bin', root, folderNamedRg, ...(isWindows ? [] : [notExecutable]), join(dir, 'good'), join(dir, 'other')].join(DELIM);
    expect(await resolveRipgrep(input({ PATH }))).toEqual({ path: good, selectionMode: 'system' });
  });

  it('says so when nothing resolves', async () => {
    const missing = await resolveRipgrep(input({ PATH: [root, join(dir, 'folder')].join(DELIM) }));
    expect(missing.path).toBeUndefined();
    expect('why' in missing && missing.why).toMatch(/no rg(\.exe)? on the PATH/);
  });
});

describe('buildSearchDirs on win32', () => {
  it('reads Path case-insensitively, unquotes entries, drops relative ones and the cwd and root whatever their case', () => {
    const env = { Path: 'C:\\rg;"C:\\Program Files\\ripgrep";.;bin;;c:\\PROJ;C:\\Home' };
    expect(buildSearchDirs({ env, platform: 'win32', root: 'C:\\proj', cwd: 'C:\\home' })).toEqual(['C:\\rg', 'C:\\Program Files\\ripgrep']);
  });
});
