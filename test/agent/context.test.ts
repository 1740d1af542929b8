/**
 * The host's context is checked when it is read, every field, before any I/O, with the codes
 * `findFiles` gives the same values: a bad setting is the host's bug, thrown (never answered to the
 * model as a search error).
 */
import { describe, expect, it } from 'vitest';
import { globTool, grepTool, type ToolContext } from '../../src/agent/index.js';
import { FindFileError } from '../../src/errors.js';
import type { FsLike } from '../../src/fs.js';
import { workspace } from '../helpers/agent.js';

/** An fs every call of which throws, and is counted: a check that did I/O would show here. */
function noIoFs(): FsLike & { calls: number } {
  const fs = {
    calls: 0,
    readdir: () => touch(),
    readdirSync: () => touch(),
    lstat: () => touch(),
    lstatSync: () => touch(),
    open: () => touch(),
    read: () => touch(),
    close: () => touch(),
  };
  function touch(): never {
    fs.calls++;
    throw new Error('no I/O before the context is checked');
  }
  return fs as unknown as FsLike & { calls: number };
}

type Row = [value: unknown, code: string];

// A record, so a new ToolContext field does not compile until it has a row here.
const BAD: Record<keyof ToolContext, Row> = {
  root: ['relative/dir', 'FF_INVALID_ROOT'],
  roots: ['/not/an/array', 'FF_INVALID_OPTION'],
  fs: [{ readdir() {} }, 'FF_INVALID_OPTION'],
  clock: [{ now: 5 }, 'FF_INVALID_OPTION'],
  timeBudgetMs: ['x', 'FF_INVALID_LIMIT'],
  maxDepth: [-1, 'FF_INVALID_LIMIT'],
  exclude: ['a', 'FF_INVALID_OPTION'],
  backend: ['fast', 'FF_INVALID_OPTION'],
  runner: ['rg', 'FF_INVALID_OPTION'],
  rgPath: ['bin/rg', 'FF_INVALID_OPTION'],
  env: [{ PATH: 1 }, 'FF_INVALID_OPTION'],
  platform: ['darwin', 'FF_INVALID_OPTION'],
  signal: [{ aborted: false }, 'FF_INVALID_OPTION'],
  countCap: [500, 'FF_INVALID_LIMIT'],
  maxLimit: [501, 'FF_INVALID_LIMIT'],
  onDirectory: ['log', 'FF_INVALID_OPTION'],
  findFiles: [{ find: true }, 'FF_INVALID_OPTION'],
};

const TOOLS = [
  ['glob', (ctx: ToolContext) => globTool({ pattern: '*.ts', path: 'src' }, ctx)],
  ['grep', (ctx: ToolContext) => grepTool({ query: 'x', path: 'src' }, ctx)],
] as const;

describe('a bad host setting', () => {
  describe.each(TOOLS)('%s', (_, run) => {
    it.each(Object.entries(BAD))('%s: throws its code and names the field, before any I/O', async (field, [value, code]) => {
      const fs = noIoFs();
      const ctx = { root: '/w', platform: 'posix', fs, [field]: value } as ToolContext;
      const error = await run(ctx).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(FindFileError);
      expect(error).toMatchObject({ code, option: field });
      expect(fs.calls).toBe(0);
    });

    it('throws for a missing root, an unknown field, a context that is no object, and ripgrep over an injected fs', async () => {
      const fs = noIoFs();
      await expect(run({ platform: 'posix', fs } as unknown as ToolContext)).rejects.toMatchObject({ code: 'FF_MISSING_OPTION', option: 'root' });
      await expect(run({ root: '/w', fs, maxdepth: 2 } as unknown as ToolContext)).rejects.toMatchObject({
        code: 'FF_UNKNOWN_OPTION',
        option: 'maxdepth',
        message: 'unknown option "maxdepth": did you mean "maxDepth"?',
      });
      await expect(run(null as unknown as ToolContext)).rejects.toMatchObject({ code: 'FF_INVALID_OPTION' });
      await expect(run({ root: '/w', platform: 'posix', fs, backend: 'ripgrep' })).rejects.toMatchObject({ code: 'FF_INVALID_OPTION', option: 'backend' });
      expect(fs.calls).toBe(0);
    });

    it('throws, not answers, an exclude glob the library refuses, before any I/O', async () => {
      const fs = noIoFs();
      for (const exclude of [['!x'], ['a/../../b']]) {
        const error = await run({ root: '/w', platform: 'posix', fs, exclude }).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(FindFileError);
        expect((error as FindFileError).option).toBe('exclude[0]');
      }
      expect(fs.calls).toBe(0);
    });
  });

  it('is still the model\'s to fix when the pattern is wrong: answered, not thrown', async () => {
    const answer = await globTool({ pattern: '!*.ts' }, workspace({ src: {} }));
    expect(answer).toMatchObject({ isError: true, metadata: { error: { code: 'FF_INVALID_PATTERN' } } });
  });
});

describe('a host that watches the walk (onDirectory)', () => {
  it('sees every directory each tool reads; glob still collects the names its guidance needs', async () => {
    for (const run of [(ctx: ToolContext) => globTool({ pattern: 'nothing-like-it' }, ctx), (ctx: ToolContext) => grepTool({ query: 'absent' }, ctx)]) {
      const dirs: string[] = [];
      const answer = await run(workspace({ src: { deep: { 'a.ts': 'x\n' } } }, { onDirectory: (dir) => dirs.push(dir) }));
      expect(dirs.slice(0, 3)).toEqual(['', 'src/', 'src/deep/']); // relative to the search root, as the library gives them
      expect(answer.content).toContain('The search root /w holds 1 entry: src/');
    }
  });
});
