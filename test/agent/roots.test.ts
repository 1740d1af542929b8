/**
 * Several workspace roots (`ToolContext.roots`): a relative path and no path mean the primary root;
 * an absolute path may lie in any root; answers about another root show absolute paths, which the
 * model can pass back as they are; everything outside every root is refused, naming them all.
 * memfs and the fake clock, plus one real-disk case: ripgrep is never run from a PATH folder
 * inside another root.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { globTool, grepTool, type ToolContext } from '../../src/agent/index.js';
import { FindFileError } from '../../src/errors.js';
import { FakeClock, asFs, buildVolume, type Tree } from '../helpers/memfs.js';
import { describeIf, posix } from '../helpers/skip-why.js';

const TREE: Tree = {
  w: { src: { 'a.ts': 'needle in w\n' } },
  other: { lib: { 'b.ts': 'needle in other\n', 'c.md': 'x\n' }, 'top.ts': 'needle\n', link: { link: '/srv/w' } },
  outside: { 'secret.ts': 'needle\n' },
};

function ctx(extra: Partial<ToolContext> = {}): ToolContext {
  return { root: '/srv/w', roots: ['/srv/other'], fs: asFs(buildVolume(TREE, '/srv')), platform: 'posix', clock: new FakeClock(), ...extra };
}

describe('which root a path means', () => {
  it('no path and a relative path: the primary root, paths relative to it, as with one root', async () => {
    expect((await globTool({ pattern: '*.ts' }, ctx())).content).toBe('src/a.ts');
    expect((await globTool({ pattern: '*.ts', path: 'src' }, ctx())).content).toBe('src/a.ts');
  });

  it('an absolute path inside another root: searched there, answered with absolute paths', async () => {
    const result = await globTool({ pattern: '*.ts', path: '/srv/other' }, ctx());
    // `link` leads to /srv/w, a directory `*.ts` would descend into: named (issue 27), never followed.
    expect(result.content).toBe(
      [
        '/srv/other/lib/b.ts',
        '/srv/other/top.ts',
        'Also 1 symlinked directory on the way was not followed: /srv/other/link. To look inside, search the target by a path inside the workspace, if it has one.',
        'Left out by policy: 1 symbolic link not followed.',
      ].join('\n'),
    );
    expect(result.metadata).toMatchObject({ searchRoot: '/srv/other', complete: true, workspaceRoot: '/srv/w' });
    const grep = await grepTool({ query: 'needle', path: '/srv/other/lib' }, ctx());
    expect(grep.content).toBe('/srv/other/lib/b.ts:1:1: needle in other');
  });

  it('each path of such an answer can be passed back as a path, as it is', async () => {
    const file = await grepTool({ query: 'needle', path: '/srv/other/lib/b.ts' }, ctx());
    expect(file.content).toBe('/srv/other/lib/b.ts:1:1: needle in other');
    const dir = await globTool({ pattern: '*.md', path: '/srv/other/lib' }, ctx());
    expect(dir.content).toBe('/srv/other/lib/c.md');
  });
});

describe('refusals name every root', () => {
  const advice = 'Only the workspace roots /srv/w, /srv/other can be searched: give a path relative to /srv/w (for example "src"), an absolute path inside one of them, or omit path to search /srv/w.';

  it('an absolute path outside every root', async () => {
    const result = await globTool({ pattern: '*', path: '/srv/outside' }, ctx());
    expect(result).toMatchObject({ isError: true, metadata: { error: { code: 'path-absolute-outside' } } });
    expect(result.content).toBe(`Refused: path "/srv/outside" is outside every workspace root. ${advice}`);
  });

  it('climbing out of the other root with ".." (resolved first: /srv/other/../outside is outside)', async () => {
    const result = await globTool({ pattern: '*', path: '/srv/other/../outside' }, ctx());
    expect(result.content).toBe(`Refused: path "/srv/other/../outside" is outside every workspace root. ${advice}`);
    const relative = await globTool({ pattern: '*', path: '../other' }, ctx());
    expect(relative.content).toBe(`Refused: path "../other" climbs out of the workspace root /srv/w with "..". ${advice}`);
  });

  it('a path that does not exist in the other root names that root, and shows what is there', async () => {
    const result = await globTool({ pattern: '*', path: '/srv/other/nope/deeper' }, ctx());
    expect(result).toMatchObject({ isError: true, metadata: { error: { code: 'path-not-found' }, overview: { root: '/srv/other', names: ['lib/', 'link', 'top.ts'] } } });
    expect(result.content.split('\n')[0]).toBe('Path "/srv/other/nope/deeper" does not exist under the workspace root /srv/other.');
  });

  it('a link inside the other root is refused, named by its absolute path', async () => {
    const result = await globTool({ pattern: '*', path: '/srv/other/link' }, ctx());
    expect(result.content).toContain('goes through the symbolic link "/srv/other/link"');
  });

  it('one root, as before: the wording does not change', async () => {
    const result = await globTool({ pattern: '*', path: '/srv/other' }, ctx({ roots: [] }));
    expect(result.content).toBe('Refused: path "/srv/other" is outside the workspace root /srv/w. Only the workspace root /srv/w can be searched: give a path relative to it (for example "src"), or omit path to search all of it.');
  });
});

describe('the roots setting', () => {
  it('a root given twice is one root; a relative one, or roots that is no array, throws before any I/O', async () => {
    const twice = await globTool({ pattern: '*', path: '/srv/outside' }, ctx({ roots: ['/srv/other', '/srv/other/', '/srv/w'] }));
    expect(twice.content).toContain('Only the workspace roots /srv/w, /srv/other can be searched');
    const relative = await globTool({ pattern: '*' }, ctx({ roots: ['other'] })).catch((e: unknown) => e);
    expect(relative).toBeInstanceOf(FindFileError);
    expect(relative).toMatchObject({ code: 'FF_INVALID_ROOT', option: 'roots[0]', message: 'roots[0] must be an absolute path (a workspace root), got "other"' });
    const notArray = await globTool({ pattern: '*' }, ctx({ roots: '/srv/other' as unknown as string[] })).catch((e: unknown) => e);
    expect(notArray).toMatchObject({ code: 'FF_INVALID_OPTION', option: 'roots' });
  });
});

describeIf(posix('the rg planted in another root is a #!/bin/sh script made executable with chmod'))('ripgrep and the other roots (real disk)', () => {
  it('an rg on the PATH inside another root is never run: auto answers with the walker', async () => {
    const base = mkdtempSync(join(tmpdir(), 'ff-roots-'));
    try {
      const primary = join(base, 'w');
      const other = join(base, 'other');
      mkdirSync(join(primary, 'src'), { recursive: true });
      mkdirSync(join(other, 'bin'), { recursive: true });
      writeFileSync(join(primary, 'src', 'a.ts'), 'x\n');
      const marker = join(base, 'PLANTED-RG-RAN');
      writeFileSync(join(other, 'bin', 'rg'), `#!/bin/sh\necho ran > '${marker}'\n`);
      chmodSync(join(other, 'bin', 'rg'), 0o755);
      const result = await globTool({ pattern: '*.ts' }, { root: primary, roots: [other], backend: 'auto', env: { PATH: join(other, 'bin') } });
      expect(result.content).toBe('src/a.ts');
      expect(result.metadata).toMatchObject({ complete: true, result: { backend: 'walker' } });
      expect(existsSync(marker)).toBe(false);
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });
});
