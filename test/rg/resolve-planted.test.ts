/**
 * Issue 12, row 1: a planted `rg` inside the searched tree is never run. `npm run` and `npx` put
 * `<repo>/node_modules/.bin` first on the PATH, an activated venv `<repo>/.venv/bin`: a repository
 * under search could ship its own `rg`. On the real disk, each planted `rg` is a shell script that
 * writes a marker file when it runs; the marker must never appear, and the search must still answer.
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { findFiles } from '../../src/index.js';
import { resolveRipgrep } from '../../src/rg/resolve.js';
import { needsRg, realRg, requireRipgrepInCi } from '../helpers/real-rg.js';
import { itIf, posixOnly } from '../helpers/skip-why.js';

const isPosix = process.platform !== 'win32';

let dir: string;
let root: string;
let marker: string;
/** Folders outside the root whose `rg` leads into it: a linked folder, and an `rg` that is a link. */
let linkedDir: string;
let linkedFileDir: string;

function plant(at: string): string {
  mkdirSync(at, { recursive: true });
  const file = join(at, 'rg');
  writeFileSync(file, `#!/bin/sh\necho planted >> '${marker}'\nexit 0\n`);
  chmodSync(file, 0o755);
  return at;
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ff-hardening-resolve-'));
  root = join(dir, 'repo');
  marker = join(dir, 'planted-rg-ran');
  mkdirSync(join(root, 'src'), { recursive: true });
  writeFileSync(join(root, 'src', 'index.ts'), '');
  plant(join(root, 'node_modules', '.bin'));
  plant(join(root, '.venv', 'bin'));
  plant(join(root, 'tools'));
  linkedDir = join(dir, 'linked-bin');
  symlinkSync(join(root, 'tools'), linkedDir);
  linkedFileDir = join(dir, 'bin-with-linked-rg');
  mkdirSync(linkedFileDir);
  symlinkSync(join(root, 'tools', 'rg'), join(linkedFileDir, 'rg'));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

beforeEach(() => rmSync(marker, { force: true }));

const planted = () => [join(root, 'node_modules', '.bin'), join(root, '.venv', 'bin'), linkedDir, linkedFileDir];

requireRipgrepInCi();

describe.skipIf(!isPosix)(posixOnly('a planted rg inside the searched root (real disk)', 'the planted rg is a #!/bin/sh script made executable with chmod'), () => {
  it.each([
    ['<root>/node_modules/.bin', () => join(root, 'node_modules', '.bin')],
    ['<root>/.venv/bin', () => join(root, '.venv', 'bin')],
    ['a PATH folder that is a link into the root', () => linkedDir],
    ['an rg that is a link to a file in the root', () => linkedFileDir],
  ])('auto does not run the rg in %s, and answers with the walker when nothing else is on the PATH', async (_, at) => {
    const result = await findFiles({ root, pattern: '*.ts', backend: 'auto', env: { PATH: at() } });
    expect(existsSync(marker)).toBe(false);
    expect(result).toMatchObject({ backend: 'walker', fallbackReason: 'rg-not-found', matches: ['src/index.ts'], complete: true });
  });

  itIf(needsRg)('auto passes over every planted rg and runs the real one later on the PATH', async () => {
    const PATH = [...planted(), dirname(realRg.path!)].join(':');
    const result = await findFiles({ root, pattern: '*.ts', backend: 'auto', env: { PATH } });
    expect(existsSync(marker)).toBe(false);
    expect(result).toMatchObject({ backend: 'ripgrep', matches: ['src/index.ts'], complete: true });
    expect(result.fallbackReason).toBeUndefined();
  });

  it('backend "ripgrep" with only planted ones rejects with FF_RG_NOT_FOUND, naming what it would not run', async () => {
    const PATH = planted().join(':');
    const error = await findFiles({ root, pattern: '*.ts', backend: 'ripgrep', env: { PATH } }).catch((e: unknown) => e);
    expect(existsSync(marker)).toBe(false);
    expect(error).toMatchObject({ code: 'FF_RG_NOT_FOUND' });
    expect((error as Error).message).toContain(join(root, 'node_modules', '.bin', 'rg'));
  });

  it('skips PATH folders inside the cwd and the workspace too, and relative and empty entries, by real path', async () => {
    const elsewhere = join(dir, 'elsewhere');
    mkdirSync(elsewhere, { recursive: true });
    const outside = plant(join(dir, 'outside-bin'));
    const base = { rgPath: undefined, platform: 'posix' as const };
    // Relative and empty entries mean "the current directory": never tried, whatever they hold.
    const relative = await resolveRipgrep({ ...base, root: elsewhere, cwd: root, env: { PATH: ['', '.', 'node_modules/.bin', 'tools'].join(':') } });
    expect(relative.path).toBeUndefined();
    // Inside the cwd (the searched root is elsewhere), directly and through the linked folder.
    const inCwd = await resolveRipgrep({ ...base, root: elsewhere, cwd: root, env: { PATH: [...planted(), outside].join(':') } });
    expect(inCwd).toEqual({ path: join(outside, 'rg'), selectionMode: 'system' });
    // Inside the workspace, when the resolver is told of one (the agent's search root is a subfolder).
    const inWorkspace = await resolveRipgrep({ ...base, root: join(root, 'src'), cwd: elsewhere, workspace: root, env: { PATH: [...planted(), outside].join(':') } });
    expect(inWorkspace).toEqual({ path: join(outside, 'rg'), selectionMode: 'system' });
    // A cwd that is itself a link into the root counts as the root.
    const linkedCwd = await resolveRipgrep({ ...base, root: elsewhere, cwd: linkedDir, env: { PATH: join(root, 'tools') } });
    expect(linkedCwd.path).toBeUndefined();
    expect(existsSync(marker)).toBe(false);
  });
});

describe.skipIf(!isPosix)(posixOnly('relative PATH entries from a process whose cwd is the root (real disk)', 'the planted rg is a #!/bin/sh script made executable with chmod'), () => {
  it('never tries an empty, ".", relative or "../" PATH entry: nothing planted runs, not even outside the root', async () => {
    // Kills relative PATH entries no longer dropped: they resolve against the process's cwd, and `../outside-rel` leaves the root.
    plant(join(dir, 'outside-rel'));
    const PATH = ['', '.', 'tools', 'node_modules/.bin', '../outside-rel'].join(':');
    const before = process.cwd();
    process.chdir(root);
    try {
      const auto = await findFiles({ root, pattern: '*.ts', backend: 'auto', env: { PATH } });
      expect(auto).toMatchObject({ backend: 'walker', fallbackReason: 'rg-not-found', matches: ['src/index.ts'], complete: true });
      const error = await findFiles({ root, pattern: '*.ts', backend: 'ripgrep', env: { PATH } }).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'FF_RG_NOT_FOUND' });
      // Not even refused by name: a relative entry is never looked into.
      expect((error as Error).message).toContain('no rg on the PATH (');
    } finally {
      process.chdir(before);
    }
    expect(existsSync(marker)).toBe(false);
  });
});

describe.skipIf(!isPosix)(posixOnly('a planted rg inside the workspace, searching a folder of it (real disk)', 'the planted rg is a #!/bin/sh script made executable with chmod'), () => {
  itIf(needsRg)('findFiles with workspace, and globTool (which passes its workspace), never run <workspace>/node_modules/.bin/rg', async () => {
    const PATH = [join(root, 'node_modules', '.bin'), join(root, '.venv', 'bin'), dirname(realRg.path!)].join(':');
    // Without the workspace the planted one is outside the searched root and the cwd: it would run.
    const result = await findFiles({ root: join(root, 'src'), pattern: '*.ts', backend: 'ripgrep', env: { PATH }, workspace: root });
    expect(result).toMatchObject({ backend: 'ripgrep', matches: ['index.ts'], complete: true });
    const { globTool } = await import('../../src/agent/index.js');
    const answer = await globTool({ pattern: '*.ts', path: 'src' }, { root, backend: 'ripgrep', env: { PATH } });
    expect(answer).toMatchObject({ isError: false, content: 'src/index.ts' });
    expect(existsSync(marker)).toBe(false);
  });

  it('refuses a workspace that is not an absolute path, before any I/O', async () => {
    await expect(findFiles({ root, pattern: '*', workspace: 'repo' })).rejects.toMatchObject({ code: 'FF_INVALID_OPTION', option: 'workspace' });
  });
});

describe('a planted rg.exe on Windows paths', () => {
  it('compares folders inside the root and the cwd case-insensitively, and wants a drive or UNC path', async () => {
    const base = { rgPath: undefined, platform: 'win32' as const, root: 'C:\\Repo', cwd: 'D:\\Work' };
    const PATH = ['c:\\repo\\node_modules\\.bin', 'C:\\REPO\\.venv\\Scripts', 'd:\\work\\tools', '\\bin', 'C:bin'].join(';');
    // Nothing here exists on this disk: the point is that none of them is even tried.
    const { buildSearchDirs } = await import('../../src/rg/resolve.js');
    expect(buildSearchDirs({ ...base, env: { Path: PATH } })).toEqual([]);
    expect(buildSearchDirs({ ...base, env: { Path: `${PATH};C:\\Program Files\\ripgrep` } })).toEqual(['C:\\Program Files\\ripgrep']);
  });
});
