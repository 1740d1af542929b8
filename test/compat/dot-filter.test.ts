/**
 * `dot: false` with several patterns, one naming a dot segment: the walk enters dot names, and a
 * dot name is kept only where the pattern that matches it names that dot itself. An adversarial
 * run: tinyglobby `['**' + '/*.ts', '.github/workflows/*.yml']` returned `.cache/a/b/x.ts`, and
 * node-glob `['a/.*', '**']` returned `c/.env`: the filter asked where some pattern names a dot,
 * not whether that pattern matches the path. Each pair of a dot pattern and a wildcard pattern,
 * both orders, through both adapters and both real peers, sorted arrays compared.
 */
import * as nodeGlob from 'glob';
import * as tinyglobby from 'tinyglobby';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { glob as ourGlob, globSync as ourGlobSync } from '../../src/compat/glob.js';
import { glob as ourTiny, globSync as ourTinySync } from '../../src/compat/tinyglobby.js';
import { spawnSync } from 'node:child_process';
import * as nodeFs from 'node:fs';
import { relative, sep } from 'node:path';
import { mulberry32 } from '../helpers/prng.js';
import { buildTree, removeTree, sorted } from './tree.js';

const TREE = ['s.ts', '.cache/a/b/x.ts', '.github/workflows/ci.yml', '.github/x.ts', 'c/.env', 'a/b/.npmrc', 'a/.npmrc', 'a/x.ts', 'b/.eslintrc', 'b/c/.env', '.env', 'a/.hidden/y.ts', 'A/.Npmrc'];
const DOT_PATTERNS = ['.github/workflows/*.yml', 'a/.*', '*/.npmrc', '.cache/**', '**/.env', 'c/.e*', '.github/*', 'a/b/.npmrc', '*/.hidden/*.ts', 'b/.eslintrc', '.*/**', '.e*/**', 'a/.*/**'];
const WILD_PATTERNS = ['**', '**/*.ts', '*', '*/*', '**/*', 'a/**', '**/b/*', '*/*/*'];
const pairs = DOT_PATTERNS.flatMap((d) => WILD_PATTERNS.flatMap((w) => [[d, w], [w, d]]));

let root: string;
beforeAll(() => {
  root = buildTree(TREE);
});
afterAll(() => removeTree(root));

/**
 * tinyglobby's crawler readings the adapter does not copy (docs/compat.md, "tinyglobby's own readings
 * not copied"): patterns sharing the literal folder `a` crawl from it, so the folder comes back as
 * `a/.`, and a case-insensitive search crawls from the folder's own case (no `A/`).
 */
const TINYGLOBBY_QUIRKS: Record<string, { ours: string[]; peer: string[] }> = {
  '["a/.*","a/**"] {"onlyFiles":false}': { ours: ['a/'], peer: ['a/.'] },
  '["a/.*/**","a/**"] {"onlyFiles":false}': { ours: ['a/'], peer: ['a/.'] },
  '["a/.*","a/**"] {"caseSensitiveMatch":false}': { ours: ['A/.Npmrc'], peer: [] },
};

type Run = (patterns: string[], options: Record<string, unknown>) => Promise<string[]> | string[];

/**
 * node-glob, the oracle, with its directory cache (a PathScurry: its `scurry` option) kept per tree
 * across the file's patterns. Perf: hundreds of patterns a tree read each directory once, not once a
 * pattern (the file's CPU 7.3-7.6 s -> 6.4-7.5 s). Exact only where a cached listing answers as a
 * fresh read would: the trees here stay as built, their names are ASCII, and `nocase` calls are not
 * cached. path-scurry finds a child by its name normalized (NFKD, lower-cased under `nocase`), so
 * an entry one pattern named could stand for another name later: in peer-families' escape test,
 * `d/\u00a0x` named by one pattern came back for `d/ x`, a real name, in the next.
 */
function cachedNodeGlob(): Run {
  const scurries = new Map<string, nodeGlob.GlobOptions['scurry']>();
  return (patterns, options) => {
    // node-glob's default: case-insensitive on darwin and win32.
    if (options.nocase ?? (process.platform === 'darwin' || process.platform === 'win32')) return nodeGlob.glob(patterns, options);
    const key = String(options.cwd);
    let scurry = scurries.get(key);
    if (scurry === undefined) scurries.set(key, (scurry = new nodeGlob.Glob('**', options).scurry));
    return nodeGlob.glob(patterns, { ...options, scurry });
  };
}
const nodeGlobCached = cachedNodeGlob();

async function compare(peer: Run, ours: Run[], options: Record<string, unknown>, peerIsTinyglobby = false, cases = pairs): Promise<{ failures: string[]; dots: number }> {
  const failures: string[] = [];
  let dots = 0;
  for (const patterns of cases) {
    const full = { cwd: root, ...options };
    const quirk = TINYGLOBBY_QUIRKS[`${JSON.stringify(patterns)} ${JSON.stringify(options)}`];
    const peerAnswer = await peer(patterns, full);
    const theirs = sorted(quirk && peerIsTinyglobby ? [...peerAnswer.filter((p) => !quirk.peer.includes(p)), ...quirk.ours] : peerAnswer);
    dots += theirs.filter((p) => /(^|\/)\./.test(p)).length;
    for (const run of ours) {
      // tinyglobby never returns the dot directory a `/**` pattern names itself under `dot: false` (`.*` + `/**`: `.cache/`, `a/.*` + `/**`: `a/.hidden/`), where node-glob does (docs/compat.md, deviations).
      const got = sorted(await run(patterns, full)).filter((p) => !(peerIsTinyglobby && /(^|\/)\.[^/]+\/$/.test(p) && !theirs.includes(p)));
      if (JSON.stringify(got) !== JSON.stringify(theirs)) failures.push(`${JSON.stringify(patterns)} ${JSON.stringify(options)}: ours ${JSON.stringify(got)}, peer ${JSON.stringify(theirs)}`);
    }
  }
  return { failures: failures.slice(0, 10), dots };
}

/**
 * How many directories the walk may list for `patterns`: those the peer lists (counted through its
 * `fs` option), with the folders on the way to each from cwd, which the walk lists where the peer
 * steps over them (node-glob's `src/a/*` lists `src/a` alone; tinyglobby crawls from the patterns'
 * literal start, `src/.cfg` for `src/\\.cfg/*`). Case-insensitively tinyglobby crawls from the literal
 * folder's own case (docs/compat.md): the walk also lists its other cases (`A` beside `a`).
 */
async function peerReadAllowance(peer: 'tinyglobby' | 'node-glob', patterns: string[], cwd: string, options: Record<string, unknown>): Promise<number> {
  const reads = new Set<string>();
  const note = (path: unknown) => reads.add(String(path).replace(/\/$/, ''));
  const fs = {
    ...nodeFs,
    readdir: (...args: Parameters<typeof nodeFs.readdir>) => (note(args[0]), nodeFs.readdir(...args)),
    readdirSync: (...args: Parameters<typeof nodeFs.readdirSync>) => (note(args[0]), nodeFs.readdirSync(...args)),
    promises: { ...nodeFs.promises, readdir: (...args: Parameters<typeof nodeFs.promises.readdir>) => (note(args[0]), nodeFs.promises.readdir(...args)) },
  };
  // Their types want readdir's __promisify__, which neither peer calls.
  if (peer === 'tinyglobby') await tinyglobby.glob(patterns, { cwd, ...options, fs: fs as unknown as tinyglobby.GlobOptions['fs'] });
  else await nodeGlob.glob(patterns, { cwd, ...options, fs: fs as unknown as nodeGlob.GlobOptions['fs'] });
  const allowed = new Set([cwd]);
  for (const read of reads) {
    const segments = relative(cwd, read).split(sep).filter((s) => s !== '');
    for (let i = 1; i <= segments.length; i++) allowed.add(segments.slice(0, i).join('/'));
  }
  const start = [...reads].reduce((a, b) => (b.length < a.length ? b : a), [...reads][0] ?? cwd);
  const top = relative(cwd, start).split(sep)[0]!;
  const otherCases = options.caseSensitiveMatch === false && start !== cwd ? nodeFs.readdirSync(cwd).filter((n) => n !== top && n.toLowerCase() === top.toLowerCase()).length : 0;
  return allowed.size + otherCases;
}

/**
 * The number of directories the walk read (`result.stats.dirsRead`) for each adapter, async and
 * sync, against `peerReadAllowance`: find-file/tinyglobby and find-file/glob against tinyglobby,
 * find-file/glob alone against node-glob (whose options it takes). The walk enters dot names when a
 * pattern names one; a dot directory no pattern can keep a match below must stay unread, as the
 * peers leave it: `['**' + '/*.ts', '.github/*']` read all of `.git` and dropped what it found.
 * Reading no more than the peer, case by case, catches a dot directory read for nothing.
 */
async function readsBeyond(peer: 'tinyglobby' | 'node-glob', cases: string[][], cwd: string, options: Record<string, unknown> = {}): Promise<string[]> {
  const failures: string[] = [];
  const globOptions = { cwd, nocase: options.caseSensitiveMatch === false };
  for (const patterns of cases) {
    const allowed = await peerReadAllowance(peer, patterns, cwd, options);
    const tiny = peer === 'tinyglobby' ? [await ourTiny(patterns, { cwd, ...options }), ourTinySync(patterns, { cwd, ...options })] : [];
    const ours = [...tiny, await ourGlob(patterns, globOptions), ourGlobSync(patterns, globOptions)].map((r) => r.result.stats.dirsRead);
    if (ours.some((n) => n > allowed)) failures.push(`${JSON.stringify(patterns)}: ours read ${ours.join('/')} directories, ${peer} ${allowed} with the folders on its way`);
  }
  return failures.slice(0, 10);
}

describe('dot: false across patterns: a dot name only where the pattern that matches it names it', () => {
  for (const options of [{}, { nodir: true }, { nocase: true }]) {
    it(`find-file/glob equals node-glob on ${pairs.length} pattern pairs ${JSON.stringify(options)}, async and sync`, async () => {
      const { failures, dots } = await compare(nodeGlobCached, [(p, o) => ourGlob(p, o), (p, o) => ourGlobSync(p, o)], options);
      expect(failures).toEqual([]);
      expect(dots).toBeGreaterThan(pairs.length / 2); // the family is about dot names the peer does return
    });
  }
  for (const options of [{}, { onlyFiles: false }, { caseSensitiveMatch: false }]) {
    it(`find-file/tinyglobby equals tinyglobby on ${pairs.length} pattern pairs ${JSON.stringify(options)}, async and sync`, async () => {
      const { failures, dots } = await compare((p, o) => tinyglobby.glob(p, o), [(p, o) => ourTiny(p, o), (p, o) => ourTinySync(p, o)], options, true);
      expect(failures).toEqual([]);
      expect(dots).toBeGreaterThan(pairs.length / 2);
    });
  }
  for (const options of [{}, { caseSensitiveMatch: false }]) {
    it(`no adapter reads more directories than tinyglobby on the ${pairs.length} pairs ${JSON.stringify(options)}: a dot directory no pattern keeps a match below stays unread`, async () => {
      expect(await readsBeyond('tinyglobby', pairs, root, options)).toEqual([]);
    });
  }
});

describe('the filter\'s own test of a segment: `*` and `?` in linear time', () => {
  // Dot segments of stars and `?` over names of a, b and dots, each beside `**`: the segment test
  // (shared.ts `wildcardTest`) must read them as the peers do.
  const random = mulberry32(61);
  const piece = () => ['a', 'b', '*', '?', '*a', 'b*'][Math.floor(random() * 6)]!;
  const starPairs = Array.from({ length: 60 }, () => {
    const dot = `${random() < 0.5 ? '*/' : ''}.${Array.from({ length: 1 + Math.floor(random() * 4) }, piece).join('')}`;
    return random() < 0.5 ? [dot, '**'] : ['**', dot];
  });
  const starTree = ['.a', '.ab', '.bab', '.aab.b', 'x/.a', 'x/.bb', 'x/.ba?', 'x/.abab', 'y/.b', 'y/a', 'ab'];
  let starRoot: string;
  beforeAll(() => {
    starRoot = buildTree(starTree);
  });
  afterAll(() => removeTree(starRoot));

  it('find-file/glob equals node-glob on 60 generated star patterns, async and sync', async () => {
    const { failures, dots } = await compare(nodeGlobCached, [(p, o) => ourGlob(p, o), (p, o) => ourGlobSync(p, o)], { cwd: starRoot }, false, starPairs);
    expect(failures).toEqual([]);
    expect(dots).toBeGreaterThan(10);
  });

  it('find-file/tinyglobby equals tinyglobby on them, async and sync', async () => {
    const { failures } = await compare((p, o) => tinyglobby.glob(p, o), [(p, o) => ourTiny(p, o), (p, o) => ourTinySync(p, o)], { cwd: starRoot }, true, starPairs);
    expect(failures).toEqual([]);
  });

  it('no adapter reads more directories than tinyglobby on them', async () => {
    expect(await readsBeyond('tinyglobby', starPairs, starRoot)).toEqual([]);
  });

  it('a segment of twelve stars over a 200-character name answers at once (a regex of them backtracked for minutes)', () => {
    // A child process with a deadline: a regression fails here instead of holding the suite.
    const hostile = buildTree([`${'a'.repeat(200)}`, `.x/${'a'.repeat(200)}`]);
    try {
      const script = `
        const { glob, globSync } = await import(${JSON.stringify(new URL('../../dist/lib/glob.js', import.meta.url).href)});
        const tiny = await import(${JSON.stringify(new URL('../../dist/lib/tinyglobby.js', import.meta.url).href)});
        const patterns = ['.x/' + '*a'.repeat(12) + 'b', '**/*'];
        const cwd = ${JSON.stringify(hostile)};
        console.log(JSON.stringify([await glob(patterns, { cwd }), globSync(patterns, { cwd }), await tiny.glob(patterns, { cwd }), tiny.globSync(patterns, { cwd })]));`;
      const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 30_000 });
      expect(run.status, run.stderr).toBe(0);
      expect(JSON.parse(run.stdout)).toEqual([['a'.repeat(200)], ['a'.repeat(200)], ['a'.repeat(200)], ['a'.repeat(200)]]);
    } finally {
      removeTree(hostile);
    }
  });
});

describe('a dot named by escape, set, extglob or brace: the walk enters dot names, the peer\'s reading decides', () => {
  // An adversarial run: only a plain leading `.` was seen, so `\.github/*`, `[.]env`,
  // `@(.github|.gitlab)/**` and `?(a).e` found nothing, complete, where both peers return the dot
  // paths. Each form of naming `.cfg` (and wildcard forms that must not reach it), at the first,
  // a middle and the last segment, with `**` before, alone and beside a wildcard pattern.
  const FORMS = [
    '\\.cfg', '[.]cfg', '[\\.]cfg', '@(.cfg)', '?(.cfg)', '+(.cfg)', '*(.cfg)', '@(.cfg|zz)', '@(zz|.cfg)', '{.cfg,zz}', '{zz,.cfg}',
    '?(zz).cfg', '*(zz).cfg', '@(.c)fg', '\\.c*', '\\.c?g', '.cfg', '.c*', '[.][c]fg', '@(\\.cfg)', '@(@(.cfg))', '+(zz|.cfg)',
    '{\\.cfg,zz}', '@(.cf|.cg)g', '?(.)cfg', '@(*|.cfg)', '@(.cfg|*)', '{*,.cfg}', '@(.c*|zz)',
    // The sets the two peers read apart: minimatch takes `[.]` as a dot only in a segment with no magic.
    '[.]c*', '@([.]cfg)', '[.c]fg', '[.z]cfg',
    // Wildcards, which reach no dot name in either peer's reading (but tinyglobby's, below).
    '*cfg', '?cfg', '@(?cfg)', '*(z)cfg', '[!z]cfg', '!(zz)',
  ];
  /** Wildcards that reach dot names in tinyglobby's reading, not copied (docs/compat.md, "tinyglobby's own readings not copied"). */
  const TINYGLOBBY_WILDCARDS = new Set(['[!z]cfg', '!(zz)', '@(*|.cfg)', '@(.cfg|*)', '{*,.cfg}']);
  const TEMPLATES = ['F/*', 'F', 'src/F/*', '**/F/*', '**/F', 'src/*/F/*', '*/F', 'src/F/**', '**/src/F'];
  const dotTree = ['.cfg/y.js', '.cfg/.cfg', 'src/.cfg/y.js', 'src/.cfg/.cfg', 'src/a/.cfg/y.js', 'cfg/y.js', 'src/cfg/.cfg', '.other/.cfg', 'src/.other/.cfg', 'zz/y.js', 'src/zz/y.js'];
  const casesOf = (forms: string[]): string[][] => [
    ...forms.flatMap((form) => TEMPLATES.map((t) => [t.replace('F', form)])),
    ...forms.flatMap((form) => [[`src/${form}/*`, '**/*.js'], ['*', `**/${form}`]]),
  ];
  let dotRoot: string;
  beforeAll(() => {
    dotRoot = buildTree(dotTree);
  });
  afterAll(() => removeTree(dotRoot));

  /**
   * Where the adapter may return more, each documented in docs/compat.md: a repeating group
   * (`+(...)`, `*(...)`) beside another pattern is taken as fitting any name, so a dot name the
   * other pattern matched can pass; tinyglobby's crawler prunes a top-level dot directory under a
   * leading `**` + `/` before asking its matcher. Any other difference, and any path missing, fails.
   */
  function allowed(patterns: string[], extra: string[], peerIsTinyglobby: boolean): boolean {
    if (peerIsTinyglobby && patterns.some((p) => p.startsWith('**/'))) return extra.every((p) => /^\.[^/]+\//.test(p));
    return patterns.length > 1 && patterns.some((p) => /[*+]\(/.test(p)) && extra.every((p) => /(^|\/)\./.test(p));
  }

  async function compareDots(peer: Run, ours: Run[], options: Record<string, unknown>, peerIsTinyglobby: boolean): Promise<{ failures: string[]; dots: number }> {
    const failures: string[] = [];
    let dots = 0;
    const forms = peerIsTinyglobby ? FORMS.filter((f) => !TINYGLOBBY_WILDCARDS.has(f)) : FORMS;
    for (const patterns of casesOf(forms)) {
      const full = { cwd: dotRoot, ...options };
      const theirs = sorted(await peer(patterns, full));
      dots += theirs.filter((p) => /(^|\/)\./.test(p)).length;
      for (const run of ours) {
        const got = sorted(await run(patterns, full));
        const missing = theirs.filter((p) => !got.includes(p));
        const extra = got.filter((p) => !theirs.includes(p));
        if (missing.length > 0 || (extra.length > 0 && !allowed(patterns, extra, peerIsTinyglobby))) {
          failures.push(`${JSON.stringify(patterns)} ${JSON.stringify(options)}: ours ${JSON.stringify(got)}, peer ${JSON.stringify(theirs)}`);
        }
      }
    }
    return { failures: failures.slice(0, 10), dots };
  }

  it('a brace range below a dot segment (`.x/{1..3}`) keeps what the walk matched (the segment test does not read ranges)', async () => {
    const rangeRoot = buildTree(['.x/1', '.x/2', '.x/5', '.x/a1', 'y/1']);
    try {
      const cases = [['.x/{1..3}'], ['\\.x/{1..2}'], ['.x/{a,}{1..2}'], ['[.]x/@({1..2})']];
      const pairs: [Run, Run][] = [
        [(p, o) => nodeGlob.glob(p, o), (p, o) => ourGlob(p, o)],
        [(p, o) => tinyglobby.glob(p, o), (p, o) => ourTiny(p, o)],
      ];
      for (const [peer, ours] of pairs) {
        const { failures } = await compare(peer, [ours], { cwd: rangeRoot }, false, cases);
        expect(failures).toEqual([]);
      }
      expect(sorted(await ourGlob('.x/{1..3}', { cwd: rangeRoot }))).toEqual(['.x/1', '.x/2']);
    } finally {
      removeTree(rangeRoot);
    }
  });

  for (const options of [{}, { nodir: true }, { nocase: true }]) {
    it(`find-file/glob equals node-glob on ${casesOf(FORMS).length} generated patterns ${JSON.stringify(options)}, async and sync`, async () => {
      const { failures, dots } = await compareDots(nodeGlobCached, [(p, o) => ourGlob(p, o), (p, o) => ourGlobSync(p, o)], options, false);
      expect(failures).toEqual([]);
      expect(dots).toBeGreaterThan(200);
    });
  }
  it(`no adapter reads more directories than tinyglobby on the ${casesOf(FORMS).length} patterns naming dots in each form`, async () => {
    // A repeating group (`+(.cfg)`, `*(zz).cfg`) is taken as fitting any name (docs/compat.md), so the directories it could name are read.
    const cases = casesOf(FORMS.filter((f) => !TINYGLOBBY_WILDCARDS.has(f))).filter((patterns) => !patterns.some((p) => /[*+]\(/.test(p)));
    expect(await readsBeyond('tinyglobby', cases, dotRoot)).toEqual([]);
  });
  for (const options of [{}, { onlyFiles: false }, { caseSensitiveMatch: false }]) {
    it(`find-file/tinyglobby equals tinyglobby on them ${JSON.stringify(options)}, async and sync`, async () => {
      const { failures, dots } = await compareDots((p, o) => tinyglobby.glob(p, o), [(p, o) => ourTiny(p, o), (p, o) => ourTinySync(p, o)], options, true);
      expect(failures).toEqual([]);
      expect(dots).toBeGreaterThan(200);
    });
  }
});

describe('a brace set holding `/` beside a pattern naming a dot: node-glob expands it first, so the dot rule reads each alternative', () => {
  // `.git/objects` holds the bulk of the tree, as in a real project: a walk that reads it for a set it
  // could not split reads most of the disk (`['**' + '/*.ts', '{.github,src/a}/*']` read 64 directories where node-glob reads 31).
  const braceTree = [...TREE, 'src/a/x.ts', 'src/a/.env', 'src/b/y.ts', 'lib/.x/z.ts', '.x/.y/z.ts', '.git/HEAD', ...Array.from({ length: 24 }, (_, i) => `.git/objects/${i.toString(16).padStart(2, '0')}/o`)];
  // `.*` too: before a last `**`, beside `*`, it once kept the file `.env`, which node-glob does not return.
  const DOT_ALTS = ['.github', '.github/workflows', '.cache/a', '.x/.y', 'lib/.x', '.git', '.c*', '.*'];
  const PLAIN_ALTS = ['src', 'src/a', 'a/b', 'lib/*', '*', 'a', '*/*'];
  // Each pattern ends in a wildcard: node-glob lists a folder for it, where a literal last name is
  // an lstat (the walk lists folders, never guesses a name: reads not counted on its side).
  const TAILS = ['/*', '/**', '/*.ts', '/**/*.yml', '/.e*'];
  const OTHERS = [...WILD_PATTERNS, ...DOT_PATTERNS].filter((p) => /\*[^/]*$/.test(p));
  const rng = mulberry32(0x7b2f);
  const pickOf = <T,>(xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)]!;
  /** A set of 2-3 alternatives, one of them holding `/`, some naming a dot, a tail after it; alone or beside a wildcard or dot pattern. */
  const braceCases: string[][] = Array.from({ length: 90 }, () => {
    const alts = Array.from({ length: 2 + Math.floor(rng() * 2) }, () => pickOf(rng() < 0.5 ? DOT_ALTS : PLAIN_ALTS));
    if (!alts.some((a) => a.includes('/'))) alts[0] = pickOf(['src/a', 'a/b', '.x/.y', '.github/workflows']);
    const braced = `{${alts.join(',')}}${pickOf(TAILS)}`;
    const other = rng() < 0.6 ? [pickOf(OTHERS)] : [];
    return rng() < 0.5 ? [braced, ...other] : [...other, braced];
  });
  let braceRoot: string;
  beforeAll(() => {
    braceRoot = buildTree(braceTree);
  });
  afterAll(() => removeTree(braceRoot));

  for (const options of [{}, { nodir: true }]) {
    it(`find-file/glob equals node-glob on ${braceCases.length} generated pattern lists ${JSON.stringify(options)}, async and sync`, async () => {
      const { failures, dots } = await compare(nodeGlobCached, [(p, o) => ourGlob(p, o), (p, o) => ourGlobSync(p, o)], { cwd: braceRoot, ...options }, false, braceCases);
      expect(failures).toEqual([]);
      expect(dots).toBeGreaterThan(40);
    });
  }

  it(`find-file/glob reads no more directories than node-glob on them (its fs option counted), async and sync`, async () => {
    expect(await readsBeyond('node-glob', braceCases, braceRoot)).toEqual([]);
  });
});
