/**
 * Property-based tests of the walker's contract (issue 8): random trees with hidden entries and
 * every kind of symlink, random fault sets, random patterns and limits, on memfs, against a
 * reference model written here from the contract alone (plain recursion, minimatch with
 * matchBase: nothing shared with the engine).
 */
import fc from 'fast-check';
import { minimatch } from 'minimatch';
import { describe, expect, it } from 'vitest';
import { findFiles, findFilesSync, type FindResult } from '../../src/index.js';
import { FakeClock, asFs, buildVolume, faultyFs, type Tree } from '../helpers/memfs.js';

const ROOT = '/root';
type Node = string | Tree | { link: string };

const names = fc.constantFrom('a', 'b', 'c.js', 'd.txt', '.h', '.e.js', 'x y.js', 'sub', 'src', 'é.js');
const linkTargets = fc.constantFrom(ROOT, `${ROOT}/a`, '..', '.', '/nowhere', `${ROOT}/c.js`, `${ROOT}/sub`);

const treeArb: fc.Arbitrary<Tree> = fc.letrec<{ tree: Tree; node: Node }>((tie) => ({
  tree: fc.dictionary(names, tie('node'), { maxKeys: 5 }),
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(''),
    linkTargets.map((link) => ({ link })),
    tie('tree'),
  ) as fc.Arbitrary<Node>,
})).tree;

const patternArb = fc.constantFrom('*', '*.js', '*.txt', 'c.js', '**/d.txt', 'sub/*', 'src/**/*.js', 'a/**', '{a,sub}/*.js', '?.js', '.h/*', 'a/b/*');
const codeArb = fc.constantFrom('EACCES', 'EPERM', 'EIO', 'EBUSY', 'ENOENT');

interface Dir {
  rel: string; // '' for the root, else 'a/b'
  depth: number;
}

function isLinkNode(v: Node): v is { link: string } {
  return typeof v === 'object' && typeof (v as { link?: unknown }).link === 'string' && Object.keys(v).length === 1;
}

/** Every directory of the tree (links excluded), with its depth. */
function dirsOf(tree: Tree, rel = '', depth = 0): Dir[] {
  const own: Dir[] = [{ rel, depth }];
  for (const [name, v] of Object.entries(tree)) {
    if (typeof v === 'object' && !isLinkNode(v)) own.push(...dirsOf(v as Tree, rel ? `${rel}/${name}` : name, depth + 1));
  }
  return own;
}

const matchOpts = { dot: true, matchBase: true };

/**
 * Could anything under `rel` match? Any base-name pattern; else minimatch's own partial matching,
 * where the pattern still has a segment left for a path below `rel` (minimatch's partial match
 * says yes to `sub/x` for `sub/*`, though nothing below `sub/x` has two segments).
 */
function couldEnter(pattern: string, rel: string): boolean {
  if (minimatch.braceExpand(pattern).some((p) => !p.replace(/^(\*\*\/)+/, '').includes('/'))) return true;
  const depth = rel.split('/').length;
  return minimatch.braceExpand(pattern).some(
    (p) => (p.includes('**') || p.split('/').length > depth) && new minimatch.Minimatch(p, { dot: true }).match(rel, true),
  );
}

interface Case {
  tree: Tree;
  pattern: string;
  faults: Record<string, string>; // rel of a dir → code
  hidden: boolean;
  maxDepth: number | undefined;
  maxResults: number | undefined;
}

/** The reference: what a full, honest walk of the readable part finds, and which faulted dirs it meets. */
function reference(c: Case) {
  const matches: string[] = [];
  const met: { path: string; code: string }[] = [];
  let deeperEntry = false;
  const walk = (node: Tree, rel: string, depth: number) => {
    for (const [name, v] of Object.entries(node)) {
      if (!c.hidden && name.startsWith('.')) continue;
      const childRel = rel ? `${rel}/${name}` : name;
      if (c.maxDepth !== undefined && depth + 1 > c.maxDepth) {
        deeperEntry = true;
        continue;
      }
      if (typeof v === 'string') {
        if (minimatch(childRel, c.pattern, matchOpts)) matches.push(childRel);
      } else if (!isLinkNode(v)) {
        if (!couldEnter(c.pattern, childRel)) continue;
        if (c.maxDepth !== undefined && depth + 1 >= c.maxDepth) {
          // At the limit: something below, or a listing that failed (it may hold anything).
          const fault = c.faults[childRel];
          if (Object.keys(v).length > 0 || (fault !== undefined && fault !== 'ENOENT')) deeperEntry = true;
          continue;
        }
        const code = c.faults[childRel];
        if (code) met.push({ path: childRel, code });
        else walk(v as Tree, childRel, depth + 1);
      }
    }
  };
  if (c.maxDepth === 0) deeperEntry = Object.keys(c.tree).length > 0;
  else walk(c.tree, '', 0);
  return { matches: matches.sort(), met, deeperEntry };
}

const caseArb: fc.Arbitrary<Case> = treeArb.chain((tree) => {
  const dirRels = dirsOf(tree).map((d) => d.rel).filter((r) => r !== '');
  return fc.record({
    tree: fc.constant(tree),
    pattern: patternArb,
    faults: dirRels.length === 0 ? fc.constant({}) : fc.dictionary(fc.constantFrom(...dirRels), codeArb, { maxKeys: 3 }),
    hidden: fc.boolean(),
    maxDepth: fc.option(fc.integer({ min: 0, max: 4 }), { nil: undefined }),
    maxResults: fc.option(fc.integer({ min: 0, max: 6 }), { nil: undefined }),
  });
});

function optionsFor(c: Case, jitter?: number) {
  const vol = buildVolume(c.tree);
  const readdirFaults = Object.fromEntries(Object.entries(c.faults).map(([rel, code]) => [`${ROOT}/${rel}/`, code]));
  return {
    root: ROOT,
    platform: 'posix' as const,
    pattern: c.pattern,
    hidden: c.hidden,
    fs: faultyFs(asFs(vol), { readdir: readdirFaults, ...(jitter === undefined ? {} : { jitter }) }),
    clock: new FakeClock(),
    ...(c.maxDepth !== undefined ? { maxDepth: c.maxDepth } : {}),
    ...(c.maxResults !== undefined ? { maxResults: c.maxResults } : {}),
  };
}

function checkInvariants(c: Case, result: FindResult) {
  const ref = reference(c);
  const allFiles = new Set(ref.matches);
  // Every match is a reachable regular file that matches the pattern, under the root, reached without a link.
  for (const m of result.matches) {
    expect(allFiles.has(m), `unexpected match ${m}`).toBe(true);
    expect(m.startsWith('/') || m.split('/').includes('..')).toBe(false);
  }
  expect(result.matches).toEqual([...result.matches].sort());
  expect(result.matchedCount).toBe(result.matches.length);
  if (c.maxResults !== undefined) expect(result.matchedCount).toBeLessThanOrEqual(c.maxResults);
  // complete ⇒ exactly the reference.
  if (result.complete) {
    expect(result.matches).toEqual(ref.matches);
    expect(result.incompleteReasons).toEqual([]);
  } else {
    expect(result.incompleteReason).toBe(result.incompleteReasons[0]);
  }
  // Skipped entries are exactly the faulted directories the walk met (all of them unless a limit stopped it).
  const stoppedEarly = result.incompleteReasons.includes('result-limit');
  for (const s of result.skipped) expect(ref.met).toContainEqual(s);
  if (!stoppedEarly) expect([...result.skipped].sort(byPath)).toEqual([...ref.met].sort(byPath));
  // Every reason really happened.
  const codes = result.skipped.map((s) => s.code);
  for (const reason of result.incompleteReasons) {
    if (reason === 'permission-denied') expect(codes.some((k) => k === 'EACCES' || k === 'EPERM')).toBe(true);
    else if (reason === 'io-error') expect(codes.some((k) => k === 'EIO' || k === 'EBUSY')).toBe(true);
    else if (reason === 'depth-limit') expect(ref.deeperEntry).toBe(true);
    else if (reason === 'result-limit') expect(ref.matches.length).toBeGreaterThan(c.maxResults!);
    else throw new Error(`reason ${reason} cannot happen here`);
  }
  // And every gap the reference saw is reported.
  if (ref.met.some((m) => m.code === 'EACCES' || m.code === 'EPERM') && !stoppedEarly) expect(result.incompleteReasons).toContain('permission-denied');
  if (!stoppedEarly && c.maxResults === undefined && ref.met.every((m) => m.code === 'ENOENT') && !ref.deeperEntry) expect(result.complete).toBe(true);
}

const byPath = (a: { path: string }, b: { path: string }) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

let casesRun = 0;
let faultsInjected = 0;

describe('walker properties', () => {
  it('holds the contract on random trees, faults, patterns and limits (async, sync, again, and with reads finishing out of order)', async () => {
    await fc.assert(
      fc.asyncProperty(caseArb, async (c) => {
        casesRun++;
        faultsInjected += Object.keys(c.faults).length;
        const first = await findFiles(optionsFor(c)); // never rejects for per-path errors
        checkInvariants(c, first);
        const again = await findFiles(optionsFor(c));
        expect(again).toEqual(first);
        expect(findFilesSync(optionsFor(c))).toEqual(first);
        // Reads finishing in any order (the async walk then reads ahead) change nothing.
        expect(await findFiles(optionsFor(c, casesRun))).toEqual(first);
      }),
      { numRuns: Number(process.env.FF_PROPERTY_RUNS ?? 600) },
    );
    // The figures docs/reliability.md quotes: printed so a run shows them.
    console.log(`walker properties: ${casesRun} cases, ${faultsInjected} faults injected`);
    expect(casesRun).toBeGreaterThanOrEqual(Number(process.env.FF_PROPERTY_RUNS ?? 600));
  });
});
