/**
 * `find-file mcp --watch` (issue 32, point 4): the real server, spawned as a host spawns it, keeps a
 * watched index of each search root and answers glob from it. Every answer is compared with a
 * server without --watch on the same tree at the same moment, after each change, with no wait
 * between the change and the call: the index's cookie sync makes a change made before a call part
 * of its answer. A root's first call walks within the server's budget and the client's cancel
 * while its index opens in the background (an adversarial run: 9.7 s for `--time-budget-ms 300`).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, renameSync, rmSync, watch, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeIf, linux } from '../helpers/skip-why.js';
import { MCP_BIN, connect, serverCommand, textOf, type Session } from './helpers.js';

let tree: string;
let watched: Session;
let fresh: Session;

beforeAll(async () => {
  tree = mkdtempSync(join(tmpdir(), 'ff-mcp-watch-'));
  mkdirSync(join(tree, 'src', 'auth'), { recursive: true });
  writeFileSync(join(tree, 'src', 'index.ts'), 'export {};\n');
  writeFileSync(join(tree, 'src', 'auth', 'login.ts'), 'export class Login {}\n');
  writeFileSync(join(tree, 'README.md'), '# x\n');
  [watched, fresh] = await Promise.all([connect(serverCommand(['--root', tree, '--watch'])), connect(serverCommand(['--root', tree]))]);
}, 60_000);

afterAll(async () => {
  await Promise.all([watched?.close(), fresh?.close()]);
  if (tree) rmSync(tree, { recursive: true, force: true });
});

/** The same call to both servers: the text the model reads and the paths the host reads. */
async function both(args: Record<string, unknown>) {
  const call = async (session: Session) => {
    const result = await session.client.callTool({ name: 'glob', arguments: args });
    return { text: textOf(result), paths: (result.structuredContent as { paths?: string[] } | undefined)?.paths, isError: result.isError };
  };
  // One after the other: in a root without .git the index's cookie lives in the root for the length
  // of its sync, and the other server's empty-answer overview, listing the root meanwhile, would name it.
  const fromIndex = await call(watched);
  const fromWalk = await call(fresh);
  expect(fromIndex).toEqual(fromWalk);
  return fromIndex;
}

describeIf(linux('the index watches with inotify; elsewhere --watch walks afresh'))('mcp --watch', () => {
  it('says it serves from watched indexes', async () => {
    expect(await watched.waitForStderr('from watched indexes')).toContain('from watched indexes');
  });

  it('answers from an index once it is open: each call syncs with its cookie, written in the root (no .git) and seen here', async () => {
    let cookie: string | undefined;
    const watcher = watch(tree, (_event, name) => {
      if (name?.startsWith('.find-file-cookie-') === true) cookie = name;
    });
    try {
      // The first call walks and opens the index after its answer; a three-file tree's opens at once.
      for (let call = 0; call < 50 && cookie === undefined; call++) {
        const result = await watched.client.callTool({ name: 'glob', arguments: { pattern: '*.md' } });
        expect(textOf(result)).toContain('README.md');
        await new Promise((resolve) => setTimeout(resolve, call * 10));
      }
    } finally {
      watcher.close();
    }
    expect(cookie).toMatch(/^\.find-file-cookie-/);
  });

  it('answers glob word for word as a fresh walk, and a change made just before a call is in its answer', async () => {
    expect((await both({ pattern: '**/*.ts' })).paths).toEqual(['src/auth/login.ts', 'src/index.ts']);
    writeFileSync(join(tree, 'src', 'auth', 'logout.ts'), 'x');
    expect((await both({ pattern: '**/*.ts' })).paths).toEqual(['src/auth/login.ts', 'src/auth/logout.ts', 'src/index.ts']);
    renameSync(join(tree, 'src', 'auth'), join(tree, 'src', 'session'));
    expect((await both({ pattern: '**/*.ts' })).paths).toEqual(['src/index.ts', 'src/session/login.ts', 'src/session/logout.ts']);
    rmSync(join(tree, 'src', 'session'), { recursive: true });
    const gone = await both({ pattern: 'login*' });
    expect(gone.paths).toEqual([]);
    // The empty answer's guidance (names seen, the overview) comes through the index's walk too.
    expect(gone.text).toContain('login');
  });

  it('a search under a folder of the root (its own index) and with options that shape the tree answers the same', async () => {
    mkdirSync(join(tree, 'docs'));
    writeFileSync(join(tree, 'docs', 'guide.md'), 'x');
    await both({ pattern: '*.md', path: 'docs' });
    writeFileSync(join(tree, 'docs', 'api.md'), 'x');
    expect((await both({ pattern: '*.md', path: 'docs' })).paths).toEqual(['docs/api.md', 'docs/guide.md']);
    expect((await both({ pattern: '**/*', respect_git_ignore: false, type: 'any', sort: 'mtime' })).isError).toBe(false);
  });
});

// Side by side (concurrent): each server's start, 300 ms and its close took ~2.5 s one after another.
describeIf(linux('the index watches with inotify; elsewhere --watch walks afresh'))('mcp --watch: a root\'s first call while its index opens', () => {
  const SLOW_MS = 60_000;
  /**
   * A chain of `depth` folders, each read `SLOW_MS` late (the slow-fs preload): the index's first
   * walk takes minutes, so an answer that waited for it would run past the test's timeout. No clock
   * decides the verdict: an answer at all, saying it stopped, is the proof.
   */
  const slowChain = (depth: number) => {
    let dir = mkdtempSync(join(tmpdir(), 'ff-mcp-watch-slow-'));
    const root = dir;
    for (let i = 0; i < depth; i++) dir = join(dir, 'd');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'leaf.txt'), 'x');
    return root;
  };

  it('answers within --time-budget-ms, saying it stopped, not after the index\'s whole walk', async ({ expect }) => {
    const root = slowChain(10);
    const session = await connect(serverCommand(['--root', root, '--watch', '--time-budget-ms', '300'], SLOW_MS));
    try {
      const result = await session.client.callTool({ name: 'glob', arguments: { pattern: '**/*.txt' } });
      expect(result.structuredContent).toMatchObject({ complete: false, incompleteReasons: ['time-budget'] });
    } finally {
      await session.close();
      rmSync(root, { recursive: true, force: true });
    }
  }, 60_000);

  it('a cancel stops the first call at once, not after the index\'s whole walk', async ({ expect }) => {
    const root = slowChain(10);
    const session = await connect(serverCommand(['--root', root, '--watch'], SLOW_MS));
    try {
      const controller = new AbortController();
      const call = session.client.callTool({ name: 'glob', arguments: { pattern: '**/*.txt' } }, undefined, { signal: controller.signal });
      setTimeout(() => controller.abort(), 300);
      await expect(call).rejects.toThrow();
      expect(await session.waitForStderr('glob cancelled by the client')).toContain('glob cancelled by the client');
    } finally {
      await session.close();
      rmSync(root, { recursive: true, force: true });
    }
  }, 60_000);
}, { concurrent: true });

it('--watch with --backend ripgrep or auto is a usage error (exit 2): the index answers as the walker', () => {
  for (const backend of ['ripgrep', 'auto']) {
    const run = spawnSync(process.execPath, [MCP_BIN, '--watch', '--backend', backend], { input: '', encoding: 'utf8' });
    expect(run.status, backend).toBe(2);
    expect(run.stderr).toContain(`--watch answers as the walker: it cannot go with --backend ${backend}`);
  }
});
