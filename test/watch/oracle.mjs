/**
 * The index's oracle: random operations on a small real tree, and after each one the same query
 * to the index and to a fresh walk (`findFilesSync`, the walker), compared whole. Plain JavaScript with the
 * library passed in, so the same run works in-process (from src/) and as `nobody` from the
 * unprivileged sandbox's build (test/helpers/unprivileged.ts), where `chmod 000` really denies.
 */
import { chmodSync, linkSync, lstatSync, mkdirSync, readdirSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';

/**
 * mulberry32: a small seeded PRNG, so a failing run can be replayed from its seed. A copy of
 * test/helpers/prng.ts: this file is copied alone into the unprivileged sandbox, so it imports nothing of ours.
 */
export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const DIR_NAMES = ['a', 'b', 'c', '.d'];
const FILE_NAMES = ['x.ts', 'y.md', 'z.ts', '.h.ts', 'a'];
// Links out of the root (into `outside`, where directories are moved out and back): only a watch set up for the link sees their targets change.
// `l0/../out1`: a `..` after a link (to `../outside/out0`: it lands in `outside/out1`, which toggles), resolved by the kernel through the link (an adversarial run: read as text, a stale answer).
const LINK_TARGETS = ['..', 'a', 'x.ts', 'nowhere', '../b', '../outside/out0', '../outside/out1', '../../outside/out2', 'l0/../b', 'l1/../x.ts', 'l0/../out1', 'l2/../out2'];

/** The queries each operation is checked with (one per operation, in turn). */
export const QUERIES = [
  { pattern: '**/*.ts' },
  { pattern: '**', type: 'any' },
  { pattern: '*', type: ['file', 'directory'] },
  { pattern: 'a/**', type: 'any' },
  { pattern: '**/x.ts', maxResults: 2 },
  { pattern: '**', type: 'symlink' },
  { pattern: '**/*', maxDepth: 2, type: 'any' },
  { pattern: '{a,b}/*/*.ts' },
  // Metadata, which a write through a hard link from outside changes with no event on a watched
  // directory (an adversarial run: a kept answer said "none of 2 bytes or more"), and a time filter
  // (the index's view once refused the walk's bigint lstat: every candidate a gap).
  { pattern: '**', minSize: 2 },
  { pattern: '**/*.ts', stats: true },
  { pattern: '**', modifiedAfter: 1 },
];

/** Every path under `root` (relative), directories with a trailing `/`; unreadable ones are not entered. */
function listTree(root) {
  const out = { dirs: [''], files: [], links: [] };
  const stack = [''];
  while (stack.length > 0) {
    const rel = stack.pop();
    let entries;
    try {
      entries = readdirSync(join(root, rel), { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      const path = rel + entry.name;
      if (entry.isDirectory()) {
        out.dirs.push(path + '/');
        stack.push(path + '/');
      } else if (entry.isSymbolicLink()) out.links.push(path);
      else out.files.push(path);
    }
  }
  return out;
}

/** One random operation; returns its description. Operations that fail (a rename into itself, ENOTDIR) are no-ops, still followed by a query. */
function randomOp(ctx) {
  const { root, outside, random, chmod } = ctx;
  const pick = (list) => list[Math.floor(random() * list.length)];
  const tree = listTree(root);
  const dir = () => pick(tree.dirs);
  const attempt = (what, fn) => {
    try {
      fn();
      return what;
    } catch (error) {
      return `${what} (${error.code ?? error.message})`;
    }
  };
  if (ctx.parentLocked) {
    // The root's parent was made unsearchable for one query: open it again first.
    ctx.parentLocked = false;
    return attempt('chmod 755 the root\'s parent', () => chmodSync(dirname(root), 0o755));
  }
  const roll = random();
  if (roll < 0.06 && tree.files.length > 0) {
    // A hard link out of the root, then writes through it: the file changes, its directory hears nothing.
    const from = pick(tree.files);
    const linked = readdirSync(outside).filter((name) => name.startsWith('hl'));
    if (linked.length === 0 || random() < 0.4) return attempt(`ln ${from} outside/hl${ctx.serial}`, () => linkSync(join(root, from), join(outside, `hl${ctx.serial++}`)));
    const via = pick(linked);
    return attempt(`write via outside/${via}`, () => writeFileSync(join(outside, via), 'y'.repeat(Math.floor(random() * 5))));
  }
  if (chmod && roll > 0.985) {
    // No watch sees the root's ancestors (an adversarial run: answers from memory after this).
    ctx.parentLocked = true;
    return attempt('chmod 000 the root\'s parent', () => chmodSync(dirname(root), 0o000));
  }
  if (roll < 0.2) {
    const path = dir() + pick(FILE_NAMES);
    return attempt(`create ${path}`, () => writeFileSync(join(root, path), 'x'));
  }
  if (roll < 0.3 && tree.files.length + tree.links.length > 0) {
    const path = pick([...tree.files, ...tree.links]);
    return attempt(`delete ${path}`, () => unlinkSync(join(root, path)));
  }
  if (roll < 0.4 && tree.files.length > 0) {
    const from = pick(tree.files);
    const to = dir() + pick(FILE_NAMES);
    return attempt(`rename ${from} ${to}`, () => renameSync(join(root, from), join(root, to)));
  }
  if (roll < 0.52) {
    const depth = 1 + Math.floor(random() * 3);
    const path = Array.from({ length: depth }, () => pick(DIR_NAMES)).join('/');
    return attempt(`mkdir -p ${path}`, () => mkdirSync(join(root, path), { recursive: true }));
  }
  if (roll < 0.58 && tree.dirs.length > 1) {
    const path = pick(tree.dirs.slice(1));
    return attempt(`rm -r ${path}`, () => rmSync(join(root, path), { recursive: true, force: true }));
  }
  if (roll < 0.66 && tree.dirs.length > 1) {
    const from = pick(tree.dirs.slice(1));
    const to = dir() + pick(DIR_NAMES);
    return attempt(`rename ${from} ${to}`, () => renameSync(join(root, from), join(root, to)));
  }
  if (roll < 0.72 && tree.dirs.length > 1) {
    const from = pick(tree.dirs.slice(1));
    const away = `out${ctx.serial++}`;
    return attempt(`move out ${from}`, () => renameSync(join(root, from), join(outside, away)));
  }
  if (roll < 0.78) {
    const away = readdirSync(outside);
    if (away.length === 0) return 'move in (nothing outside)';
    const to = dir() + pick(DIR_NAMES);
    return attempt(`move in ${to}`, () => renameSync(join(outside, pick(away)), join(root, to)));
  }
  if (roll < 0.86) {
    const path = dir() + `l${Math.floor(random() * 3)}`;
    return attempt(`ln -s ${path}`, () => symlinkSync(pick(LINK_TARGETS), join(root, path)));
  }
  if (roll < 0.92 && tree.links.length > 0) {
    const path = pick(tree.links);
    const temp = join(root, `${path}.swap`);
    return attempt(`swap link ${path}`, () => {
      symlinkSync(pick(LINK_TARGETS), temp);
      renameSync(temp, join(root, path));
    });
  }
  if (roll < 0.96) {
    // Outside the root only: what a link out of the root leads to appears or goes, the tree untouched.
    const path = join(outside, `out${Math.floor(random() * 3)}`);
    return attempt(`toggle ${path}`, () => (readdirSync(outside).includes(path.slice(outside.length + 1)) ? rmSync(path, { recursive: true }) : mkdirSync(path)));
  }
  if (chmod && tree.dirs.length > 1) {
    const locked = [...ctx.locked];
    if (locked.length > 0 && random() < 0.5) {
      const path = pick(locked);
      ctx.locked.delete(path);
      return attempt(`chmod 755 ${path}`, () => chmodSync(join(root, path), 0o755));
    }
    const path = pick(tree.dirs.slice(1));
    ctx.locked.add(path);
    return attempt(`chmod 000 ${path}`, () => chmodSync(join(root, path), 0o000));
  }
  const path = dir() + pick(FILE_NAMES);
  return attempt(`create ${path}`, () => writeFileSync(join(root, path), 'x'));
}

/** The answer without its running time, the one field two runs of the same walk may not share. */
function comparable(result) {
  return { ...result, stats: { ...result.stats, elapsedMs: 0 } };
}

/**
 * Runs `ops` random operations on `root` (a directory of its own, `outside` beside it for renames
 * out and in), asking the index and a fresh walk after each. Returns the differences (at most
 * `maxDiffs`), each with the operations that led to it, and how many answers had a gap (a
 * directory denied by `chmod 000`), so a test can tell that the gaps were exercised.
 */
export async function runOracle({ openIndex, findFilesSync, root, outside, seed, ops, chmod, tree = {}, maxDiffs = 3 }) {
  const ctx = { root, outside, random: prng(seed), chmod, locked: new Set(), serial: 0, parentLocked: false };
  const treeOptions = { root, ...tree };
  const index = await openIndex(treeOptions);
  const diffs = [];
  const history = [];
  let compared = 0;
  let gaps = 0;
  try {
    for (let i = 0; i < ops && diffs.length < maxDiffs; i++) {
      history.push(randomOp(ctx));
      // A query stays for a few operations, so an answer kept after one may be reused after the next.
      const query = QUERIES[Math.floor(i / 4) % QUERIES.length];
      let indexed;
      let fresh;
      // Asked twice: the second may be the kept answer (nothing changed between), and must be as exact.
      let again;
      try {
        indexed = comparable(await index.find(query));
        again = comparable(await index.find(query));
      } catch (error) {
        indexed = { threw: error.code ?? String(error) };
        again = indexed;
      }
      // Perf: the sync form, the same walker read by read: 0.20-0.35 ms of CPU a walk against 0.51-1.07 ms
      // for findFiles (each async read a round trip through libuv's threads), 2,000 walks a run.
      try {
        fresh = comparable(findFilesSync({ ...treeOptions, ...query, backend: 'walker' }));
      } catch (error) {
        fresh = { threw: error.code ?? String(error) };
      }
      compared++;
      if (fresh.skippedCount > 0) gaps++;
      if (!isDeepStrictEqual(indexed, fresh)) diffs.push({ op: i, query, indexed, fresh, lastOps: history.slice(-8) });
      else if (!isDeepStrictEqual(again, fresh)) diffs.push({ op: i, query, again: true, indexed: again, fresh, lastOps: history.slice(-8) });
    }
  } finally {
    if (ctx.parentLocked) chmodSync(dirname(root), 0o755);
    for (const path of ctx.locked) {
      try {
        chmodSync(join(root, path), 0o755);
      } catch {
        // renamed away or removed since: nothing left locked there
      }
    }
    index.close();
  }
  return { seed, compared, gaps, diffs, stats: index.stats() };
}
