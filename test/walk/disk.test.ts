/**
 * The default `node:fs` path on the real disk, in a temp dir. POSIX-only cases (symlinks, `find`
 * as an oracle) say so in their names and run on Linux and macOS CI.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFiles, findFilesStream, findFilesSync } from '../../src/index.js';
import { buildUndecodableTree } from '../helpers/names.js';
import { itIf, linux, posix } from '../helpers/skip-why.js';

const isPosix = process.platform !== 'win32';
let root: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'find-file-disk-'));
  const files = ['a.txt', 'src/index.ts', 'src/lib/util.ts', 'src/lib/util.test.ts', '.config/settings.json', 'name with spaces.md', 'ünïcødé/文件.ts'];
  for (const file of files) {
    mkdirSync(join(root, file, '..'), { recursive: true });
    writeFileSync(join(root, file), file);
  }
  mkdirSync(join(root, 'empty'));
  if (isPosix) {
    symlinkSync(join(root, 'src'), join(root, 'link-to-src'));
    symlinkSync(root, join(root, 'src', 'loop'));
    symlinkSync(join(root, 'missing'), join(root, 'dangling'));
  }
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('real disk, default node:fs', () => {
  it('finds files by base name and by path, the same through every API flavour', async () => {
    const result = await findFiles({ root, pattern: '*.ts' });
    expect(result.matches).toEqual(['src/index.ts', 'src/lib/util.test.ts', 'src/lib/util.ts', 'ünïcødé/文件.ts']);
    expect(result.complete).toBe(true);
    expect(findFilesSync({ root, pattern: '*.ts' }).matches).toEqual(result.matches);
    const streamed: string[] = [];
    for await (const path of findFilesStream({ root, pattern: '*.ts' })) streamed.push(path);
    expect(streamed.sort()).toEqual(result.matches);
    expect((await findFiles({ root, pattern: 'src/lib/*.ts' })).matches).toEqual(['src/lib/util.test.ts', 'src/lib/util.ts']);
  });

  it('returns absolute native paths', async () => {
    const result = await findFiles({ root, pattern: 'a.txt', absolute: true });
    expect(result.matches).toEqual([join(root, 'a.txt')]);
  });

  it('rejects a missing root with ENOENT and a file root with ENOTDIR', async () => {
    await expect(findFiles({ root: join(root, 'missing'), pattern: '*' })).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(findFiles({ root: join(root, 'a.txt'), pattern: '*' })).rejects.toMatchObject({ code: 'ENOTDIR' });
  });

  itIf(posix('symlinks need a privilege on Windows (test/windows covers junctions)'))('(POSIX) counts symlinks, never follows them, and agrees with find -type f', async () => {
    const result = await findFiles({ root, pattern: '*' });
    expect(result).toMatchObject({ symlinkSkipped: 3, complete: true });
    const find = spawnSync('find', [root, '-type', 'f'], { encoding: 'utf8' });
    expect(find.status).toBe(0);
    const expected = find.stdout.split('\n').filter(Boolean).map((p) => p.slice(root.length + 1)).sort();
    expect(result.matches).toEqual(expected);
    expect(result.matches).toHaveLength(7);
  });

  itIf(posix('symlinks need a privilege on Windows (test/windows covers junctions)'))('(POSIX) names the links whose name matches, the same through every API flavour', async () => {
    const expected = { matches: [], matchedCount: 0, linkMatches: ['dangling', 'link-to-src'], linkMatchedCount: 2, linksExamined: true, complete: true };
    const options = { root, pattern: '{link-*,dangling}' };
    expect(await findFiles(options)).toMatchObject(expected);
    expect(findFilesSync(options)).toMatchObject(expected);
    const stream = findFilesStream(options);
    for await (const _ of stream) throw new Error('a link is never a match');
    const { matches: _matches, ...summary } = expected;
    expect(await stream.summary).toMatchObject(summary);
  });

  itIf(linux('names that are not UTF-8 are a Linux case'))('(Linux) reports names that are not valid UTF-8 as EILSEQ, never as vanished', async () => {
    const dir = buildUndecodableTree('find-file-utf8-');
    try {
      for (const result of [await findFiles({ root: dir, pattern: '*' }), findFilesSync({ root: dir, pattern: '*' })]) {
        expect(result.matches).toEqual(['ok.txt', 'real-\uFFFD.txt']);
        expect([...result.skipped].sort((a, b) => a.path.localeCompare(b.path))).toEqual([
          { path: 'bad\uFFFD', code: 'EILSEQ' },
          { path: 'f\uFFFD.txt', code: 'EILSEQ' },
        ]);
        expect(result).toMatchObject({ complete: false, incompleteReasons: ['io-error'] });
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  itIf(posix('symlinks need a privilege on Windows (test/windows covers junctions)'))('(POSIX) opens a root that is a symlink', async () => {
    const result = await findFiles({ root: join(root, 'link-to-src'), pattern: '*.ts' });
    expect(result.matches).toEqual(['index.ts', 'lib/util.test.ts', 'lib/util.ts']);
  });
});
