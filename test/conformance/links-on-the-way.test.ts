/**
 * Links on the way (issue 27), a generated family: seeded real trees full of links (to files, to
 * directories, to an ancestor, dangling; test/conformance/generate.ts) and glob patterns built from
 * the names reachable *through* the links, checked against an oracle that follows links: GNU
 * `find -L` lists every regular file a follower reaches, minimatch (test/conformance/oracles.ts)
 * says which of them the pattern matches. find-file never follows links, so:
 *
 * - every file the oracle matches through a link and find-file does not return must be covered:
 *   the first symlink on its path is named in `linksOnTheWay` (or, when its own path matches, in
 *   `linkMatches`: a link is named once), never a silent complete empty answer;
 * - every link find-file names is a symlink whose target is a directory (`stat`), and, for a
 *   pattern with a slash, one minimatch's partial match could descend into;
 * - a tree with no symlinked directory gets no link named;
 * - `auto` names the same links as the walker whenever it looked at links (`linksExamined`).
 *
 * FF_LINKS_SEED and FF_LINKS_TREES pick the trees; the patterns come from the same seed. Wired
 * into `npm test` (and so .ci/run) like every test/conformance family.
 */
import { spawnSync } from 'node:child_process';
import { lstatSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Minimatch, braceExpand } from 'minimatch';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { findFiles, type FindResult } from '../../src/index.js';
import { describeIf, onWindows, posix } from '../helpers/skip-why.js';
import { hasRg, realRg } from '../helpers/real-rg.js';
import { Rng, generatePatterns, generateTree, materializeTree, type GeneratedPattern, type TreeSpec } from './generate.js';
import { minimatchOracle } from './oracles.js';

const SEED = Number(process.env.FF_LINKS_SEED ?? 20261204);
/** `npm run test:conformance:long` (FF_CONFORMANCE_CASES=100000) runs 50 trees. */
const TREES = Number(process.env.FF_LINKS_TREES ?? Math.max(12, Math.ceil(Number(process.env.FF_CONFORMANCE_CASES ?? 0) / 2000)));
const PER_TREE = 50;
const AUTO_PER_TREE = 6;

let base = '';

/** What a follower sees: `find -L . -type f` (a loop is reported on stderr and not entered). */
function followedFiles(root: string): string[] {
  const run = spawnSync('find', ['-L', '.', '-type', 'f', '-print0'], { cwd: root, maxBuffer: 16 << 20 });
  return run.stdout
    .toString('utf8')
    .split('\0')
    .filter((p) => p !== '' && p !== '.')
    .map((p) => p.slice(2))
    .sort();
}

function followedDirs(root: string): string[] {
  const run = spawnSync('find', ['-L', '.', '-mindepth', '1', '-type', 'd', '-print0'], { cwd: root, maxBuffer: 16 << 20 });
  return run.stdout.toString('utf8').split('\0').filter((p) => p !== '').map((p) => p.slice(2)).sort();
}

/** The first proper prefix of `rel` that is a symlink, if any. */
function firstLinkOn(root: string, rel: string): string | undefined {
  const parts = rel.split('/');
  for (let i = 1; i < parts.length; i++) {
    const prefix = parts.slice(0, i).join('/');
    if (lstatSync(join(root, prefix)).isSymbolicLink()) return prefix;
  }
  return undefined;
}

function isLinkToDirectory(root: string, rel: string): boolean {
  try {
    return lstatSync(join(root, rel)).isSymbolicLink() && statSync(join(root, rel)).isDirectory();
  } catch {
    return false;
  }
}

/**
 * minimatch's own partial match: could a path below directory `rel` match the pattern? A slash-less
 * alternative matches base names at any depth (matchBase): every directory leads to it.
 */
function couldDescend(pattern: string, nocase: boolean, rel: string): boolean {
  return braceExpand(pattern).some((alternative) => {
    if (!alternative.includes('/')) return true;
    const mm = new Minimatch(alternative, { dot: true, nocomment: true, nonegate: true, nocase, optimizationLevel: 2, nobrace: true });
    return mm.match(rel, true) || mm.match(`./${rel}`, true);
  });
}

interface Problem {
  tree: number;
  pattern: string;
  nocase: boolean;
  problem: string;
}

interface LinkTree {
  index: number;
  root: string;
  spec: TreeSpec;
  files: string[];
  patterns: GeneratedPattern[];
}

const trees: LinkTree[] = [];

beforeAll(() => {
  if (onWindows) return;
  base = mkdtempSync(join(tmpdir(), 'ff-links-family-'));
  const rng = new Rng(SEED);
  for (let index = 0; index < TREES; index++) {
    const spec = generateTree(rng, false);
    // Every other tree is given more links to directories, one of them pnpm-shaped (a hidden store).
    if (index % 2 === 0 && spec.dirs.length > 0) {
      spec.links.push({ path: 'via-link', target: rng.pick(spec.dirs) });
      spec.links.push({ path: 'deps', target: rng.pick(spec.dirs) });
    }
    // Every fourth tree has no link to a directory at all: nothing may be named there.
    if (index % 4 === 3) spec.links = spec.links.filter((l) => l.path.endsWith('.ts') || l.path === 'l.js' || l.path === 'x9');
    const root = join(base, `t${index}`);
    materializeTree(root, spec);
    const files = followedFiles(root);
    const patterns = generatePatterns(rng, files, followedDirs(root), PER_TREE).filter((p) => !p.tags.includes('fixed') || rng.chance(0.3));
    trees.push({ index, root, spec, files, patterns });
  }
}, 120_000);

afterAll(() => {
  if (base !== '') rmSync(base, { recursive: true, force: true });
});

async function tryFind(options: Parameters<typeof findFiles>[0]): Promise<FindResult | undefined> {
  try {
    return await findFiles(options);
  } catch {
    return undefined; // an intended refusal: the main conformance suite checks those
  }
}

describeIf(posix('symlinks need a privilege on Windows (test/windows covers junctions)'))('links on the way: generated trees against find -L and minimatch (issue 27)', () => {
  it('names the first link of every path a follower matches and find-file does not return, and names nothing else', async () => {
    const problems: Problem[] = [];
    let covered = 0;
    let checked = 0;
    for (const tree of trees) {
      const linkDirs = tree.spec.links.map((l) => l.path).filter((p) => isLinkToDirectory(tree.root, p));
      for (const [i, c] of tree.patterns.entries()) {
        const result = await tryFind({ root: tree.root, pattern: c.pattern, caseSensitive: !c.nocase, timeBudgetMs: 10_000 });
        if (result === undefined || !result.complete) continue;
        checked++;
        const report = (problem: string) => problems.push({ tree: tree.index, pattern: c.pattern, nocase: c.nocase, problem });
        const expected = minimatchOracle(tree.files, c);
        if (!(expected instanceof Error)) {
          const returned = new Set(result.matches);
          for (const rel of expected) {
            if (returned.has(rel)) continue;
            const link = firstLinkOn(tree.root, rel);
            if (link === undefined) continue; // a glob disagreement, not about links: conformance.test.ts's
            covered++;
            // Named once: a link whose own path matches is in `linkMatches` instead.
            if (!result.linksOnTheWay.includes(link) && !result.linkMatches.includes(link)) report(`${JSON.stringify(rel)} is reached through ${link}, which is not named`);
          }
        }
        for (const named of result.linksOnTheWay) {
          if (!isLinkToDirectory(tree.root, named)) report(`names ${named}, not a symlink to a directory`);
          else if (!couldDescend(c.pattern, c.nocase, named)) report(`names ${named}, which the pattern cannot descend into`);
        }
        if (linkDirs.length === 0 && result.linkOnTheWayCount > 0) report('names a link in a tree with no symlinked directory');
        if (result.linkOnTheWayCount !== result.linksOnTheWay.length) report('count and list disagree');
        if (hasRg && i < AUTO_PER_TREE) {
          const auto = await tryFind({ root: tree.root, pattern: c.pattern, caseSensitive: !c.nocase, backend: 'auto', rgPath: realRg.path });
          if (auto?.linksExamined && JSON.stringify(auto.linksOnTheWay) !== JSON.stringify(result.linksOnTheWay)) report(`auto names ${JSON.stringify(auto.linksOnTheWay)}`);
        }
      }
    }
    // The family must exercise the rule, not pass vacuously.
    expect(checked).toBeGreaterThan(TREES * 10);
    expect(covered).toBeGreaterThan(0);
    expect(problems.slice(0, 40)).toEqual([]);
  }, 300_000);
});
