/**
 * Resolving the ripgrep executable: rgPath, then FIND_FILE_RG, then our own PATH lookup, always to an
 * absolute path and never in the current or searched directory.
 */
import { chmodSync, mkdirSync, mkdtempSync, promises as fsp, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildInsideCheck, buildSearchDirs, resolveRipgrep } from '../../src/rg/resolve.js';
import { itIf, posix } from '../helpers/skip-why.js';

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

  it('never looks at a PATH folder after the rg that wins (one there may be a share that does not answer)', async () => {
    const after = [join(dir, 'after-1'), join(dir, 'after-2'), join(dir, 'other')];
    const touched: string[] = [];
    const spies = (['stat', 'access', 'realpath', 'lstat'] as const).map((name) => {
      const real = fsp[name] as (...args: unknown[]) => Promise<unknown>;
      return vi.spyOn(fsp, name).mockImplementation(((...args: unknown[]) => (touched.push(String(args[0])), real(...args))) as never);
    });
    try {
      expect(await resolveRipgrep(input({ PATH: [root, join(dir, 'good'), ...after].join(DELIM) }))).toEqual({ path: good, selectionMode: 'system' });
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
    expect(touched.some((p) => p.startsWith(join(dir, 'good'))), 'the winner was looked at').toBe(true);
    for (const folder of after) expect(touched.filter((p) => p.startsWith(folder))).toEqual([]);
  });

  it('says so when nothing resolves', async () => {
    const missing = await resolveRipgrep(input({ PATH: [root, join(dir, 'folder')].join(DELIM) }));
    expect(missing.path).toBeUndefined();
    expect('why' in missing && missing.why).toMatch(/no rg(\.exe)? on the PATH/);
  });
});

describe('resolveRipgrep: where a PATH rg is refused, and what the message says (Stryker survivors of rg/resolve.ts)', () => {
  it('an empty FIND_FILE_RG is no setting: the PATH is looked up', async () => {
    expect(await resolveRipgrep(input({ FIND_FILE_RG: '', PATH: join(dir, 'good') }))).toEqual({ path: good, selectionMode: 'system' });
  });

  it('names the refused rg in the tree, and says how to set one, when it is the only one on the PATH', async () => {
    const missing = await resolveRipgrep(input({ PATH: root }));
    expect(missing.path).toBeUndefined();
    expect('why' in missing && missing.why).toBe(`no ${EXE} on the PATH outside the searched root and the current directory (not run: ${join(root, EXE)}) (set rgPath or FIND_FILE_RG to its absolute path)`);
    const none = await resolveRipgrep(input({ PATH: join(dir, 'folder') }));
    expect('why' in none && none.why).toBe(`no ${EXE} on the PATH (set rgPath or FIND_FILE_RG to its absolute path)`);
  });

  it('quotes a relative FIND_FILE_RG and names a FIND_FILE_RG or rgPath that is not executable', async () => {
    const relative = await resolveRipgrep(input({ FIND_FILE_RG: 'bin/rg' }));
    expect('why' in relative && relative.why).toBe('FIND_FILE_RG must be an absolute path, got "bin/rg"');
    const folder = await resolveRipgrep(input({ FIND_FILE_RG: join(folderNamedRg, EXE) }));
    expect('why' in folder && folder.why).toBe(`FIND_FILE_RG ${join(folderNamedRg, EXE)} is not an executable file`);
    const noexec = await resolveRipgrep(input({}, join(notExecutable, EXE)));
    expect('why' in noexec && noexec.why).toBe(`rgPath ${join(notExecutable, EXE)} is not an executable file`);
  });

  itIf(posix('symlinks need a privilege on Windows'))('refuses an rg reached through a link into the tree, the PATH folder being the link or the file', async () => {
    const links = join(dir, 'links');
    mkdirSync(join(links, 'file'), { recursive: true });
    symlinkSync(root, join(links, 'dir')); // a PATH entry outside, that is the root
    symlinkSync(join(root, EXE), join(links, 'file', EXE)); // an rg outside, that is the root's
    expect(await resolveRipgrep(input({ PATH: [join(links, 'dir'), join(links, 'file'), join(dir, 'good')].join(DELIM) }))).toEqual({ path: good, selectionMode: 'system' });
    // A link into the tree is refused even when the tree is named through a link itself.
    expect(await resolveRipgrep({ rgPath: undefined, env: { PATH: [join(links, 'file'), join(dir, 'other')].join(DELIM) }, platform, root: join(links, 'dir'), cwd: join(links, 'dir') })).toEqual({
      path: other,
      selectionMode: 'system',
    });
  });

  it('never takes an rg from the workspace, nor from the current directory when the root is elsewhere', async () => {
    const base = { rgPath: undefined, platform, root: join(dir, 'repo') };
    expect(await resolveRipgrep({ ...base, env: { PATH: [join(dir, 'good'), join(dir, 'other')].join(DELIM) }, cwd: dir, workspace: join(dir, 'good') })).toMatchObject({ path: undefined });
    expect(await resolveRipgrep({ ...base, env: { PATH: [join(dir, 'good'), join(dir, 'other')].join(DELIM) }, cwd: join(dir, 'good') })).toEqual({ path: other, selectionMode: 'system' });
  });

  itIf(posix('the planted rg is a #!/bin/sh script made executable with chmod'))('reads only the environment\'s own PATH: an inherited one is no setting', async () => {
    const env = Object.create({ PATH: join(dir, 'good'), FIND_FILE_RG: other }) as Record<string, string>;
    expect(await resolveRipgrep(input(env))).toMatchObject({ path: undefined });
  });
});

describe('buildInsideCheck', () => {
  it('a base is inside itself and holds what is below it, not a sibling that shares its start', () => {
    const inside = buildInsideCheck(['/repo'], 'posix');
    expect([inside('/repo'), inside('/repo/bin'), inside('/repository'), inside('/rep'), inside('/other/repo')]).toEqual([true, true, false, false, false]);
  });

  it('a filesystem root holds everything; on win32 case and / do not matter, on POSIX case does', () => {
    expect(buildInsideCheck(['/'], 'posix')('/usr/bin')).toBe(true);
    expect(buildInsideCheck(['C:\\'], 'win32')('c:/tools/rg')).toBe(true);
    const win = buildInsideCheck(['C:\\Repo'], 'win32');
    expect([win('c:/repo/bin'), win('C:\\REPO'), win('C:\\Repository')]).toEqual([true, true, false]);
    expect(buildInsideCheck(['/Repo'], 'posix')('/repo/bin')).toBe(false);
  });
});

describe('buildSearchDirs', () => {
  it('reads Path case-insensitively, unquotes entries, drops relative ones and the cwd and root whatever their case', () => {
    const env = { Path: 'C:\\rg;"C:\\Program Files\\ripgrep";.;bin;;c:\\PROJ;C:\\Home' };
    expect(buildSearchDirs({ env, platform: 'win32', root: 'C:\\proj', cwd: 'C:\\home' })).toEqual(['C:\\rg', 'C:\\Program Files\\ripgrep']);
  });

  it('takes UNC and drive-rooted entries, not one rooted on the current drive or relative to a drive, and never the workspace', () => {
    const env = { PATH: '\\\\server\\tools;\\bin;C:bin;D:/rg;C:\\ws\\bin;C:\\rg' };
    expect(buildSearchDirs({ env, platform: 'win32', root: 'C:\\proj', cwd: 'C:\\home', workspace: 'C:\\WS' })).toEqual(['\\\\server\\tools\\', 'D:\\rg', 'C:\\rg']);
  });

  it('on POSIX reads only PATH, in its case, and drops entries inside the cwd or root as written', () => {
    const env = { Path: '/usr/bin', PATH: '/usr/local/bin:/proj/node_modules/.bin:/home/me/bin:/projects/bin' };
    expect(buildSearchDirs({ env, platform: 'posix', root: '/proj', cwd: '/home/me' })).toEqual(['/usr/local/bin', '/projects/bin']);
  });
});

describe('resolveRipgrep and buildSearchDirs: the survivors of the first Stryker run of rg/resolve.ts', () => {
  itIf(posix('symlinks need a privilege on Windows'))('refuses a PATH folder inside the tree as written, even when it is a link to a folder outside', async () => {
    symlinkSync(join(dir, 'good'), join(root, 'linked-bin'));
    expect(await resolveRipgrep(input({ PATH: [join(root, 'linked-bin'), join(dir, 'other')].join(DELIM) }))).toEqual({ path: other, selectionMode: 'system' });
  });

  it('names every refused rg, comma-separated', async () => {
    const nested = install(join(root, 'nested'));
    const missing = await resolveRipgrep(input({ PATH: [root, join(root, 'nested')].join(DELIM) }));
    expect('why' in missing && missing.why).toContain(`(not run: ${join(root, EXE)}, ${nested})`);
  });

  it('on win32: Windows paths are absolute, the program is rg.exe, and no execute bit is asked for', async () => {
    const win = { rgPath: undefined, platform: 'win32' as const, root: 'C:\\proj', cwd: 'C:\\proj' };
    const fromEnv = await resolveRipgrep({ ...win, env: { FIND_FILE_RG: 'C:\\tools\\rg.exe' } });
    expect('why' in fromEnv && fromEnv.why).toBe('FIND_FILE_RG C:\\tools\\rg.exe is not an executable file');
    const none = await resolveRipgrep({ ...win, env: { Path: 'C:\\nowhere' } });
    expect('why' in none && none.why).toBe('no rg.exe on the PATH (set rgPath or FIND_FILE_RG to its absolute path)');
    if (!isWindows) {
      // A file without the execute bit is a program on Windows: only POSIX asks for X_OK.
      const file = join(notExecutable, EXE);
      expect(await resolveRipgrep({ ...win, env: {}, rgPath: file })).toEqual({ path: file, selectionMode: 'explicit' });
    }
  });

  it('on POSIX: a relative or quoted entry is no folder (quotes are a Windows habit)', () => {
    const env = { PATH: 'bin:.:"/usr/bin":/opt/rg' };
    expect(buildSearchDirs({ env, platform: 'posix', root: '/proj', cwd: '/home/me' })).toEqual(['/opt/rg']);
  });

  it('on win32: only a whole quoted entry is unquoted, the drive must start the entry, and Path is found among other names', () => {
    const env = { FOO: 'C:\\foo', Path: '"C:\\a"b;C:\\odd"name";\\mnt\\c:\\bin;C:\\rg' };
    expect(buildSearchDirs({ env, platform: 'win32', root: 'C:\\proj', cwd: 'C:\\home' })).toEqual(['C:\\odd"name"', 'C:\\rg']);
  });
});
