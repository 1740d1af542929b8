/**
 * The special-file family (issue 27): generated trees (generate.ts) where some files are FIFOs
 * (mkfifo) and some unix sockets (listening servers), searched by kind against oracles no one
 * here wrote: GNU find (`-type p`, `-type s`, `-name`) and fd (`-t p`, `-t s`, no `-t`: every
 * entry). Every walker form (promise, sync, stream) and `auto` must list what they list, say
 * `complete: true`, and never open a special file (a FIFO's open would hang the case).
 *
 * Environment: FF_CONFORMANCE_SEED picks the trees; FF_SPECIAL_TREES how many (default 6).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, unlinkSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFiles, findFilesStream, findFilesSync, type EntryTypeOption, type FindOptions } from '../../src/index.js';
import { itIf, onWindows, posixOnly } from '../helpers/skip-why.js';
import { hasRg, realRg } from '../helpers/real-rg.js';
import { Rng, generateTree, materializeTree } from './generate.js';

const SEED = Number(process.env.FF_CONFORMANCE_SEED ?? 20261203);
const TREES = Number(process.env.FF_SPECIAL_TREES ?? 6);
/** A unix socket's path must fit in sun_path (108 bytes on Linux). */
const MAX_SOCKET_PATH = 100;
const which = (name: string) => (onWindows ? undefined : spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).stdout.trim() || undefined);
const fd = which('fdfind') ?? which('fd');

interface SpecialTree {
  root: string;
  fifos: string[];
  sockets: string[];
}

const trees: SpecialTree[] = [];
const servers: Server[] = [];

/** Turns about a quarter of the files into FIFOs and a few shallow ones into sockets. */
async function makeTree(rng: Rng, index: number): Promise<SpecialTree> {
  const root = mkdtempSync(join(tmpdir(), `ff-sp${index}-`));
  const spec = generateTree(rng, false);
  materializeTree(root, spec);
  const fifos: string[] = [];
  const sockets: string[] = [];
  for (const file of spec.files) {
    const path = join(root, file);
    const roll = rng.int(8);
    if (roll > 1) continue;
    try {
      unlinkSync(path);
    } catch {
      continue; // a collision materializeTree skipped
    }
    if (roll === 1 && Buffer.byteLength(path) < MAX_SOCKET_PATH) {
      const server = createServer();
      await new Promise<void>((resolve) => server.listen(path, resolve));
      servers.push(server);
      sockets.push(file);
    } else {
      execFileSync('mkfifo', ['--', path]);
      fifos.push(file);
    }
  }
  return { root, fifos, sockets };
}

/** GNU find's answer, root-relative, sorted. */
function gnuFind(root: string, ...args: string[]): string[] {
  const run = spawnSync('find', ['.', '-mindepth', '1', ...args, '-printf', '%P\\0'], { cwd: root, encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
  return run.stdout.split('\0').filter(Boolean).sort();
}

/** fd's answer (every entry: hidden and ignored too), sorted. */
function fdList(root: string, ...args: string[]): string[] {
  const run = spawnSync(fd!, ['--hidden', '--no-ignore', '--print0', ...args], { cwd: root, encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
  return run.stdout.split('\0').filter(Boolean).map((p) => p.replace(/^\.\//, '').replace(/\/$/, '')).sort();
}

/** Ours, through every walker form and auto, which must agree and be complete. */
async function ours(root: string, options: Partial<FindOptions>): Promise<string[]> {
  const all = { root, pattern: '*', ...options };
  const result = await findFiles(all);
  expect(result.complete).toBe(true);
  expect(findFilesSync(all).matches).toEqual(result.matches);
  const streamed: string[] = [];
  for await (const path of findFilesStream(all)) streamed.push(path);
  expect(streamed.sort()).toEqual(result.matches);
  if (hasRg) expect((await findFiles({ ...all, backend: 'auto', rgPath: realRg.path })).matches).toEqual(result.matches);
  return result.matches;
}

beforeAll(async () => {
  if (onWindows) return;
  const rng = new Rng(SEED);
  for (let i = 0; i < TREES; i++) trees.push(await makeTree(rng, i));
}, 60_000);

afterAll(async () => {
  await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
  for (const tree of trees) rmSync(tree.root, { recursive: true, force: true });
});

const KINDS: [EntryTypeOption[], string[]][] = [
  [['pipe'], ['-type', 'p']],
  [['socket'], ['-type', 's']],
  [['pipe', 'socket'], ['(', '-type', 'p', '-o', '-type', 's', ')']],
  [['file', 'directory', 'symlink'], ['(', '-type', 'f', '-o', '-type', 'd', '-o', '-type', 'l', ')']],
  [['file', 'pipe'], ['(', '-type', 'f', '-o', '-type', 'p', ')']],
  [['any'], []],
];

describe.skipIf(onWindows)(posixOnly(`special-file family: ${TREES} generated trees with FIFOs and sockets`, 'mkfifo and unix sockets'), () => {
  it('the trees hold special files of both kinds (the family tests something)', () => {
    expect(trees.flatMap((t) => t.fifos).length).toBeGreaterThan(0);
    expect(trees.flatMap((t) => t.sockets).length).toBeGreaterThan(0);
  });

  it('each kind list lists what find -type lists, and by name (find -name) too', async () => {
    for (const tree of trees) {
      for (const [type, findArgs] of KINDS) {
        expect(await ours(tree.root, { type }), `${tree.root} ${type}`).toEqual(gnuFind(tree.root, ...findArgs));
        // A name pattern over the special files' extensions: `*.ts` finds a FIFO named x.ts under pipe.
        for (const name of [...tree.fifos, ...tree.sockets].map((f) => f.slice(f.lastIndexOf('/') + 1))) {
          const ext = /\.[a-z0-9]+$/.exec(name)?.[0];
          if (ext === undefined) continue;
          expect(await ours(tree.root, { type, pattern: `*${ext}` }), `${tree.root} ${type} *${ext}`).toEqual(gnuFind(tree.root, ...findArgs, '-name', `*${ext}`));
          break;
        }
      }
    }
  });

  itIf([fd !== undefined, 'fd is not installed'])('pipe, socket and any list what fd -t p, -t s and fd list', async () => {
    for (const tree of trees) {
      expect(await ours(tree.root, { type: 'pipe' })).toEqual(fdList(tree.root, '-t', 'p'));
      expect(await ours(tree.root, { type: 'socket' })).toEqual(fdList(tree.root, '-t', 's'));
      expect(await ours(tree.root, { type: 'any' })).toEqual(fdList(tree.root));
    }
  });
});
