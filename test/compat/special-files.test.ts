/**
 * FIFOs and sockets: node-glob returns them (its `nodir` drops directories only), tinyglobby does
 * not. An adversarial run: `find-file/glob` asked the walk for files, directories and links, so
 * `**` + `/*.js` over a FIFO `pipe.js` gave `['a.js']` with `complete: true`, and a literal
 * `pipe.js` gave `[]`. Generated patterns under several option sets, each adapter against its real
 * peer on a real tree, sorted arrays compared; with `withFileTypes`, each entry's kind too.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import * as nodeGlob from 'glob';
import * as tinyglobby from 'tinyglobby';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { glob as ourGlob, globSync as ourGlobSync } from '../../src/compat/glob.js';
import { glob as ourTiny, globSync as ourTinySync } from '../../src/compat/tinyglobby.js';
import { buildTree, removeTree, sorted } from './tree.js';

const FILES = ['a.js', 'sub/b.js', 'sub/deep/c.txt', 'x.txt'];
const FIFOS = ['pipe.js', 'sub/p2.js', 'sub/deep/p3.txt', 'fifo'];
const SOCKETS = ['sock.js', 'sub/s2'];

/** Every pattern shape over the names above: literal, wildcard, globstar, braces, sets, at each depth. */
const PATTERNS = [
  ...['**/*.js', '*', '**', '*.js', 'sub/*', 'sub/**', '**/p*', '**/*.txt', 'sub/deep/*', '*/*', '**/s*'],
  ...[...FIFOS, ...SOCKETS],
  ...['{pipe,a}.js', 'p?pe.js', '[ps]*', 'sub/{p2,b}.js', '**/@(p2|sock).js', 'sub/**/p3.txt', '**/fifo', 's*/*'],
];
const OPTIONS = [{}, { nodir: true }, { dot: true }, { maxDepth: 2 }];

const unix = process.platform !== 'win32';
let root: string;
const servers: Server[] = [];

beforeAll(async () => {
  if (!unix) return;
  root = buildTree(FILES);
  for (const fifo of FIFOS) {
    mkdirSync(join(root, fifo, '..'), { recursive: true });
    execFileSync('mkfifo', [join(root, fifo)]);
  }
  for (const socket of SOCKETS) {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(join(root, socket), resolve));
    servers.push(server);
  }
});
afterAll(async () => {
  if (!unix) return;
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  removeTree(root);
});

interface Entry {
  relativePosix(): string;
  isFile(): boolean;
  isDirectory(): boolean;
  isFIFO(): boolean;
  isSocket(): boolean;
  isSymbolicLink(): boolean;
}
const kind = (e: Entry): string => (e.isFIFO() ? 'fifo' : e.isSocket() ? 'socket' : e.isDirectory() ? 'dir' : e.isSymbolicLink() ? 'link' : e.isFile() ? 'file' : '?');
const describeAll = (entries: readonly Entry[]): string[] => sorted(entries.map((e) => `${e.relativePosix()} ${kind(e)}`));

describe.skipIf(!unix)('FIFOs and sockets: returned as node-glob returns them, left out as tinyglobby leaves them out', () => {
  it(`find-file/glob equals node-glob on ${PATTERNS.length} patterns × ${OPTIONS.length} option sets, async and sync, complete unless maxDepth cut the walk`, async () => {
    const failures: string[] = [];
    let special = 0;
    for (const pattern of PATTERNS) {
      for (const options of OPTIONS) {
        const full = { cwd: root, ...options };
        const theirs = sorted(await nodeGlob.glob(pattern, full));
        special += theirs.filter((p) => FIFOS.includes(p) || SOCKETS.includes(p)).length;
        for (const got of [await ourGlob(pattern, full), ourGlobSync(pattern, full)]) {
          if (JSON.stringify(sorted(got)) !== JSON.stringify(theirs) || (!('maxDepth' in options) && !got.result.complete)) {
            failures.push(`${pattern} ${JSON.stringify(options)}: ours ${JSON.stringify(sorted(got))} complete ${got.result.complete}, node-glob ${JSON.stringify(theirs)}`);
          }
        }
      }
    }
    expect(failures.slice(0, 10)).toEqual([]);
    expect(special).toBeGreaterThan(60);
  });

  it('withFileTypes: each entry is the kind node-glob says (isFIFO, isSocket), with and without stat', async () => {
    const failures: string[] = [];
    for (const pattern of ['**', '**/*.js', 'sub/**', '*']) {
      for (const options of [{ withFileTypes: true as const }, { withFileTypes: true as const, stat: true }, { withFileTypes: true as const, nodir: true }]) {
        const theirs = describeAll(await nodeGlob.glob(pattern, { cwd: root, ...options }));
        const ours = describeAll(await ourGlob(pattern, { cwd: root, ...options }));
        if (JSON.stringify(ours) !== JSON.stringify(theirs)) failures.push(`${pattern} ${JSON.stringify(options)}: ours ${JSON.stringify(ours)}, node-glob ${JSON.stringify(theirs)}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it(`find-file/tinyglobby equals tinyglobby (no special file) on the same patterns, async and sync`, async () => {
    const failures: string[] = [];
    for (const pattern of PATTERNS) {
      for (const options of [{}, { onlyFiles: false }, { dot: true }]) {
        const full = { cwd: root, followSymbolicLinks: false, ...options };
        const theirs = sorted(await tinyglobby.glob(pattern, full));
        const mine = { cwd: root, ...options };
        for (const got of [await ourTiny(pattern, mine), ourTinySync(pattern, mine)]) {
          if (JSON.stringify(sorted(got)) !== JSON.stringify(theirs)) failures.push(`${pattern} ${JSON.stringify(options)}: ours ${JSON.stringify(sorted(got))}, tinyglobby ${JSON.stringify(theirs)}`);
        }
      }
    }
    expect(failures.slice(0, 10)).toEqual([]);
  });
});
