/**
 * The benchmark trees, on real disk, built only when missing:
 *
 * - small:      ~5k files, from a seeded PRNG          (bench/fixtures/small)
 * - synthetic:  ~200k files, ~10k dirs, depth <= 9     (bench/fixtures/synthetic)
 * - realistic:  `npm ci` of a pinned package list      (bench/.scratch/realistic, ~114k files)
 *
 * The generated trees are a function of their spec and seed only: the same on every machine. Each
 * has hidden files and dirs, symlinks to files, to dirs and dangling ones, and a `src/` subtree of
 * mostly `.ts` files so that a rooted glob (`src/**\/*.ts`) has something to prune. A tree is
 * complete when its manifest (`<root>.json`, with the counts) exists and names the same
 * generator version; otherwise it is deleted and built again.
 *
 * From the command line: `node bench/suites/fixtures.mjs` builds what is missing and prints the counts.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { npmEnv } from './clean-env.mjs';

const BENCH = path.dirname(path.dirname(fileURLToPath(import.meta.url))); // bench/ (this file is bench/lib/fixtures.mjs)
const GENERATOR_VERSION = 1;

/** Sections of a generated tree: a top-level dir, its share of dirs and files, and its file kinds. */
const CODE_SECTIONS = [
  { name: 'src', share: 0.09, exts: { '.ts': 55, '.tsx': 10, '.js': 8, '.json': 5, '.css': 5, '.md': 4, '.test.ts': 13 } },
  { name: 'node_modules', share: 0.52, exts: { '.js': 45, '.d.ts': 15, '.json': 9, '.md': 7, '.js.map': 10, '.ts': 4, '.mjs': 5, '.cjs': 3, '': 2 } },
  { name: 'packages', share: 0.18, exts: { '.ts': 30, '.js': 30, '.json': 10, '.md': 10, '.css': 10, '.snap': 10 } },
  { name: 'docs', share: 0.04, exts: { '.md': 70, '.png': 20, '.html': 10 } },
  { name: 'test', share: 0.07, exts: { '.ts': 40, '.js': 30, '.snap': 15, '.json': 15 } },
  { name: '.git', share: 0.06, exts: { '': 90, '.pack': 5, '.idx': 5 } },
  { name: 'assets', share: 0.04, exts: { '.png': 40, '.svg': 30, '.jpg': 20, '.woff2': 10 } },
];

export const GENERATED = {
  small: { seed: 0x5eed0005, files: 5_000, dirs: 250, maxDepth: 9, fileLinks: 12, dirLinks: 4, danglingLinks: 2 },
  synthetic: { seed: 0x5eed0200, files: 200_000, dirs: 10_000, maxDepth: 9, fileLinks: 300, dirLinks: 60, danglingLinks: 6 },
};

/** The trees in size order, as the suite uses them. */
export const TREE_NAMES = ['small', 'realistic', 'synthetic'];

export function treeRoot(name) {
  return name === 'realistic' ? path.join(BENCH, '.scratch', 'realistic') : path.join(BENCH, 'fixtures', name);
}

/** mulberry32: a small, fast, seeded PRNG; returns floats in [0, 1). */
function makeRandom(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'to', 'vi', 'ze', 'po', 'da', 'fe', 'gu', 'hi', 'jo', 'be', 'qu', 'ix'];
const COMMON = ['index', 'utils', 'types', 'main', 'config', 'helpers', 'README', 'LICENSE', 'package', 'core'];

function makeName(random) {
  if (random() < 0.15) return COMMON[Math.floor(random() * COMMON.length)];
  const n = 2 + Math.floor(random() * 3);
  let s = '';
  for (let i = 0; i < n; i++) s += SYLLABLES[Math.floor(random() * SYLLABLES.length)];
  return s;
}

function pickWeighted(random, weights) {
  const keys = Object.keys(weights);
  let total = 0;
  for (const k of keys) total += weights[k];
  let r = random() * total;
  for (const k of keys) {
    r -= weights[k];
    if (r < 0) return k;
  }
  return keys[keys.length - 1];
}

/** A name not yet used in this directory. */
function uniqueName(taken, wanted) {
  let name = wanted;
  for (let i = 2; taken.has(name); i++) name = `${wanted}-${i}`;
  taken.add(name);
  return name;
}

/**
 * Plans the tree in memory (dirs, files, links), deterministically from the spec, then writes it.
 * Each section's dirs grow as a random recursive tree (each new dir under a uniformly chosen
 * existing one of the section, shallower than maxDepth), which gives a realistic mix of depths.
 */
function generateTree(root, spec) {
  const random = makeRandom(spec.seed);
  const dirs = []; // { rel, depth, taken: Set, section }
  const files = []; // rel
  const rootDir = { rel: '', depth: 0, taken: new Set() };
  for (const section of CODE_SECTIONS) {
    const top = { rel: uniqueName(rootDir.taken, section.name), depth: 1, taken: new Set(), section };
    const own = [top];
    dirs.push(top);
    const count = Math.max(1, Math.round(spec.dirs * section.share));
    while (own.length < count) {
      let parent;
      do parent = own[Math.floor(random() * own.length)];
      while (parent.depth >= spec.maxDepth);
      const hidden = section.name !== '.git' && random() < 0.01;
      const name = uniqueName(parent.taken, (hidden ? '.' : '') + makeName(random));
      const dir = { rel: `${parent.rel}/${name}`, depth: parent.depth + 1, taken: new Set(), section };
      own.push(dir);
      dirs.push(dir);
    }
    const fileCount = Math.round(spec.files * section.share);
    for (let i = 0; i < fileCount; i++) {
      const dir = own[Math.floor(random() * own.length)];
      const hidden = random() < 0.015;
      const name = uniqueName(dir.taken, (hidden ? '.' : '') + makeName(random) + pickWeighted(random, section.exts));
      files.push(`${dir.rel}/${name}`);
    }
  }
  // A few files at the top, as a repository has.
  for (const name of ['package.json', 'README.md', 'tsconfig.json', '.gitignore', '.editorconfig']) files.push(uniqueName(rootDir.taken, name));

  const links = []; // { rel, target } with target relative to the link's dir
  const addLink = (target, prefix) => {
    const dir = dirs[Math.floor(random() * dirs.length)];
    const name = uniqueName(dir.taken, `${prefix}-${makeName(random)}`);
    links.push({ rel: `${dir.rel}/${name}`, target: target === undefined ? 'no-such-entry' : path.posix.relative(dir.rel, target) });
    return dir;
  };
  for (let i = 0; i < spec.fileLinks; i++) addLink(files[Math.floor(random() * files.length)], 'link-file');
  for (let i = 0; i < spec.dirLinks; i++) {
    // Never to an ancestor: a peer that follows links must not loop (loops are issue 8's business).
    let target;
    let from;
    do {
      target = dirs[Math.floor(random() * dirs.length)];
      from = dirs[Math.floor(random() * dirs.length)];
    } while (from.rel === target.rel || from.rel.startsWith(target.rel + '/'));
    const name = uniqueName(from.taken, `link-dir-${makeName(random)}`);
    links.push({ rel: `${from.rel}/${name}`, target: path.posix.relative(from.rel, target.rel) });
  }
  for (let i = 0; i < spec.danglingLinks; i++) addLink(undefined, 'link-dangling');

  fs.mkdirSync(root, { recursive: true });
  for (const dir of dirs) fs.mkdirSync(path.join(root, dir.rel));
  let i = 0;
  for (const rel of files) {
    // One file in 1,000 holds a rare literal, for the content-search workload to come.
    const body = i++ % 1000 === 0 ? `// ${rel}\nexport const marker = 'NEEDLE_7f3a';\n` : `// ${rel}\n`;
    fs.writeFileSync(path.join(root, rel), body);
  }
  for (const link of links) fs.symlinkSync(link.target, path.join(root, link.rel));
}

/** Counts a tree without following links: what find-file should return for "all files". */
export function countTree(root) {
  const counts = { files: 0, dirs: 0, symlinks: 0, symlinksToDirs: 0, hiddenFiles: 0, filesUnderHiddenDirs: 0, maxDepth: 0 };
  const stack = [{ dir: root, depth: 0, hidden: false }];
  while (stack.length > 0) {
    const { dir, depth, hidden } = stack.pop();
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const isHidden = entry.name.startsWith('.');
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        counts.dirs++;
        stack.push({ dir: full, depth: depth + 1, hidden: hidden || isHidden });
      } else if (entry.isFile()) {
        counts.files++;
        if (isHidden) counts.hiddenFiles++;
        else if (hidden) counts.filesUnderHiddenDirs++;
        counts.maxDepth = Math.max(counts.maxDepth, depth + 1);
      } else if (entry.isSymbolicLink()) {
        counts.symlinks++;
        try {
          if (fs.statSync(full).isDirectory()) counts.symlinksToDirs++;
        } catch {
          // dangling
        }
      }
    }
  }
  return counts;
}

function manifestPath(name) {
  return `${treeRoot(name)}.json`;
}

function readManifest(name) {
  try {
    const manifest = JSON.parse(fs.readFileSync(manifestPath(name), 'utf8'));
    if (manifest.generatorVersion === GENERATOR_VERSION && fs.existsSync(treeRoot(name))) return manifest;
  } catch {
    // missing or unreadable: build it
  }
  return undefined;
}

function installRealistic(root) {
  fs.mkdirSync(root, { recursive: true });
  for (const file of ['package.json', 'package-lock.json']) fs.copyFileSync(path.join(BENCH, 'realistic', file), path.join(root, file));
  // --ignore-scripts: the tree is data; nothing from it runs.
  const npm = spawnSync('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: root, stdio: 'inherit', env: npmEnv() });
  if (npm.status !== 0) throw new Error(`npm ci for the realistic tree failed (exit ${npm.status}); see the output above`);
}

/** Builds one tree if it is missing or stale, and returns its manifest. */
export function ensureTree(name, log = console.log) {
  const existing = readManifest(name);
  if (existing) return existing;
  const root = treeRoot(name);
  const started = performance.now();
  log(`building the ${name} tree in ${path.relative(process.cwd(), root) || '.'} ...`);
  fs.rmSync(root, { recursive: true, force: true });
  if (name === 'realistic') installRealistic(root);
  else generateTree(root, GENERATED[name]);
  const manifest = { name, root, generatorVersion: GENERATOR_VERSION, ...countTree(root), builtAt: new Date().toISOString() };
  if (name !== 'realistic') manifest.seed = GENERATED[name].seed;
  fs.writeFileSync(manifestPath(name), JSON.stringify(manifest, null, 2) + '\n');
  log(`  built in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return manifest;
}

export function describeTree(m) {
  return `${m.name}: ${m.files.toLocaleString('en-US')} files, ${m.dirs.toLocaleString('en-US')} dirs, ${m.symlinks} symlinks (${m.symlinksToDirs} to dirs), ${m.hiddenFiles + m.filesUnderHiddenDirs} hidden files, depth ${m.maxDepth}`;
}

/** Builds every tree that is missing; returns the manifests by name. */
export function ensureFixtures(names = TREE_NAMES, log = console.log) {
  const manifests = {};
  for (const name of names) manifests[name] = ensureTree(name, log);
  return manifests;
}
