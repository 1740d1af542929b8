/**
 * Generated families from an adversary's findings, each checked against the real peer (tinyglobby,
 * node-glob) as the oracle: names and patterns drawn by a seeded generator, not one hand-written
 * case, so a rule that holds for the sample but not the family fails here.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as ng from 'glob';
import * as rawGlob from 'glob/raw';
import * as tg from 'tinyglobby';
import { afterAll, describe, expect, it } from 'vitest';
import * as ffGlob from '../../src/compat/glob.js';
import * as ffTiny from '../../src/compat/tinyglobby.js';
import { Rng } from '../conformance/generate.js';
import { itIf, posix } from '../helpers/skip-why.js';
import { buildTree, removeTree, sorted } from './tree.js';

const roots: string[] = [];
afterAll(() => roots.forEach(removeTree));

function tree(paths: readonly string[]): string {
  const root = buildTree(paths);
  roots.push(root);
  return root;
}

/** A name of 1-4 characters from `alphabet`, with `must` placed at a random position. */
function nameWith(rng: Rng, alphabet: string, must: string): string {
  const chars = Array.from({ length: rng.range(0, 3) }, () => rng.pick([...alphabet]));
  chars.splice(rng.int(chars.length + 1), 0, must);
  return chars.join('');
}

describe('find-file/tinyglobby absolute: a `\\` in a name or in cwd is a character off win32', () => {
  // tinyglobby itself finds nothing under a cwd holding `\\` (it reads the cwd as a pattern): its
  // oracle there is its answer in the same tree under a cwd without one, the prefix swapped back.
  itIf(posix('`\\` is a separator on win32, no name can hold it'))('names and cwds holding `\\`, as tinyglobby returns them', async () => {
    const rng = new Rng(0x5c5c);
    for (let round = 0; round < 12; round++) {
      const names = Array.from({ length: 4 }, () => nameWith(rng, 'ab.', '\\'));
      const paths = [...names.map((n) => `${n}.js`), ...names.map((n) => `d${n}/x.js`), 'plain.js'];
      const cwd = join(tree([]), nameWith(rng, 'cw', rng.pick(['\\', 'x'])));
      const twin = join(tree([]), 'twin');
      for (const dir of [cwd, twin]) {
        for (const path of paths) {
          mkdirSync(dirname(join(dir, path)), { recursive: true });
          writeFileSync(join(dir, path), '');
        }
      }
      for (const options of [{ absolute: true }, { absolute: true, onlyFiles: false }, { absolute: true, onlyDirectories: true }]) {
        for (const pattern of ['**', '*.js', '**/*\\\\*', 'd*/**']) {
          const theirs = sorted((await tg.glob(pattern, { cwd: twin, ...options })).map((p) => cwd + p.slice(twin.length)));
          const ours = ffTiny.globSync(pattern, { cwd, ...options });
          expect(sorted(ours), `${pattern} ${JSON.stringify({ cwd, ...options })}`).toEqual(theirs);
          expect(ours.every((p) => existsSync(p))).toBe(true);
        }
      }
    }
  });
});

/** A tree of 3-8 files under directories named from `a`, `b`, `c` (a name is a file in one place, a directory in another). */
function randomTree(rng: Rng): string[] {
  const paths = new Set<string>();
  const count = rng.range(3, 8);
  // A few tries each: top-level files `a`, `b`, `c` leave room for nothing more.
  for (let tries = 0; paths.size < count && tries < 50; tries++) {
    const depth = rng.range(1, 3);
    const path = Array.from({ length: depth }, () => rng.pick(['a', 'b', 'c'])).join('/');
    const clash = [...paths].some((p) => p.startsWith(`${path}/`) || path.startsWith(`${p}/`) || p === path);
    if (!clash) paths.add(path + (rng.chance(0.3) ? '.js' : ''));
  }
  return [...paths];
}

/** A pattern ending in `.` segments (`x/.`, `x/./`, `x/.//`) or `//`, naming cwd (`.`, `./`), or holding `.` in a brace set before `/**`. */
function dotEndedPattern(rng: Rng): string {
  const segment = () => rng.pick(['a', 'b', 'c', '*', '**', '?', '{a,b}', '[ab]', 'c.js']);
  const head = Array.from({ length: rng.range(1, 3) }, segment).join('/');
  if (rng.chance(0.05)) return rng.pick(['.', './', './.', './/']);
  if (rng.chance(0.25)) return `${rng.pick([`{${head},.}`, `{.,${head}}`, `${head}{/,x}`, `{${head}/.,zz}`])}/**`;
  return head + rng.pick(['/.', '/./', '/.//', '/./.', '//']);
}

/** Whether a `/` stands inside a brace set (nested ones too). */
function slashInBraces(pattern: string): boolean {
  let depth = 0;
  for (const c of pattern) {
    if (c === '{') depth++;
    else if (c === '}') depth = Math.max(0, depth - 1);
    else if (c === '/' && depth > 0) return true;
  }
  return false;
}

/** The adapter's answer, or the refusal's code. */
function attempt(run: () => string[]): string[] | string {
  try {
    return sorted(run());
  } catch (error) {
    return `threw ${(error as { code?: string }).code}: ${(error as Error).message}`;
  }
}

describe('patterns and ignores ending in `.` segments: `x/.` exists only when `x` is a directory', () => {
  const rng = new Rng(0x2e2e);
  const cases = Array.from({ length: 30 }, () => ({ tree: randomTree(rng), patterns: Array.from({ length: 8 }, () => dotEndedPattern(rng)) }));
  /** Each case's tree, built by whichever test comes first and read by both (nothing writes to it). Perf: 30 trees, built once. */
  const built = new Map<readonly string[], string>();
  const treeOf = (paths: readonly string[]) => built.get(paths) ?? built.set(paths, tree(paths)).get(paths)!;

  it('find-file/glob answers as node-glob, as a pattern and, under nodir, as an ignore', async () => {
    for (const { tree: paths, patterns } of cases) {
      const cwd = treeOf(paths);
      for (const pattern of patterns) {
        for (const options of [{}, { nodir: true }, { dot: true }] as { nodir?: boolean; dot?: boolean }[]) {
          const full = { cwd, ...options };
          const theirs = sorted(await ng.glob(pattern, full));
          const ours = attempt(() => ffGlob.globSync(pattern, full));
          const what = `${pattern} ${JSON.stringify(options)} over ${paths.join(' ')}`;
          // Without nodir, a wildcard `x/**` names the files `x` too (docs/compat.md): more, only files.
          const more = typeof ours === 'string' || options.nodir ? [] : ours.filter((p) => !theirs.includes(p) && paths.includes(p));
          // node-glob with dot: true drops `.` and the top-level files from `{*,.}/**` (it returns them
          // for `./**` and without dot): more, never less, there.
          if (options.dot && /[{,]\.[,}]/.test(pattern)) expect(ours, what).toEqual(expect.arrayContaining(theirs));
          else expect(ours, what).toEqual(sorted([...theirs, ...more]));
        }
        const ignored = { cwd, ignore: pattern, nodir: true };
        // node-glob throws on some (`ignore: './'`: "empty pattern list"): no answer to compare.
        const theirs = attempt(() => ng.globSync('**', ignored));
        if (typeof theirs === 'string') continue;
        const ours = attempt(() => ffGlob.globSync('**', ignored));
        const what = `ignore ${pattern} over ${paths.join(' ')}`;
        // Only `x/.` names directories in an ignore (`x/` and `x/.//` are `x`); one that names
        // a directory without `/**` also leaves out what is below it (docs/compat.md): fewer paths.
        if (/\/\.$|\/\*\*$/.test(pattern.replace(/\/{2,}/g, '/'))) expect(ours, what).toEqual(theirs);
        else expect(theirs, what).toEqual(expect.arrayContaining(ours as string[]));
      }
    }
  });

  it('find-file/tinyglobby answers as tinyglobby, as a pattern and as an ignore', async () => {
    for (const { tree: paths, patterns } of cases) {
      const cwd = treeOf(paths);
      // picomatch reads a brace set holding `/` by quirks of its own (`{**/c.js,.}/**` as an ignore
      // leaves out `a/c.js` and keeps `c.js`): those are in the node-glob family only.
      for (const pattern of patterns.filter((p) => !slashInBraces(p))) {
        for (const options of [{}, { onlyFiles: false }, { expandDirectories: false }, { expandDirectories: false, onlyFiles: false }]) {
          const full = { cwd, ...options };
          // tinyglobby throws on some (`{.,*}/**`: picomatch's "Expected pattern to be a non-empty string"): no answer to compare.
          // And its `.` (cwd itself, `{.,b}/**` with onlyFiles: false): cwd is never a match; and its
          // `x/.` for `x/**/**` is `x` (or `x/`), as the adapter writes it, and nothing where no `x`
          // exists (`b/**/**/**` gave `b/.` in a tree with no `b`) (docs/compat.md).
          const isDir = (x: string) => paths.some((p) => p.startsWith(`${x}/`));
          const unDot = (p: string) => (!p.endsWith('/.') ? [p] : isDir(p.slice(0, -2)) ? [p.slice(0, -1)] : paths.includes(p.slice(0, -2)) ? [p.slice(0, -2)] : []);
          const theirs = attempt(() => [...new Set(tg.globSync(pattern, full).filter((p) => p !== '.').flatMap(unDot))]);
          if (typeof theirs !== 'string') {
            // `x/**/**` (here `c/**/.` + tinyglobby's `/**`) names a file `x` too (docs/compat.md): more, only files.
            const ours = attempt(() => ffTiny.globSync(pattern, full));
            const more = typeof ours === 'string' || !pattern.includes('**') ? [] : ours.filter((p) => !theirs.includes(p) && paths.includes(p));
            expect(ours, `${pattern} ${JSON.stringify(options)} over ${paths.join(' ')}`).toEqual(sorted([...theirs, ...more]));
          }
          const ignored = { ...full, ignore: pattern };
          const theirsIgnored = attempt(() => tg.globSync('**', ignored));
          if (typeof theirsIgnored === 'string') continue;
          // An ignore `*` + `/**` leaves out the directories the `*` names too (docs/compat.md): fewer, only directories.
          const oursIgnored = attempt(() => ffTiny.globSync('**', ignored));
          const fewer = typeof oursIgnored === 'string' ? [] : theirsIgnored.filter((p) => !oursIgnored.includes(p) && p.endsWith('/'));
          expect(oursIgnored, `ignore ${pattern} ${JSON.stringify(options)} over ${paths.join(' ')}`).toEqual(theirsIgnored.filter((p) => !fewer.includes(p)));
        }
      }
    }
  });
});

describe("ignores are read as the peer reads them: a name's literal text is no reading of an ignore", () => {
  const rng = new Rng(0x6964);
  const syntax = () => {
    const plain = () => rng.pick(['a', 'b', 'c', 'id', 'x']);
    return rng.pick([`[${plain()}]`, '[a-c]', `${plain()}[${plain()}]`, `[...${plain()}]`, `(${plain()})`, `${plain()}(1)`, `+(${plain()})`, `@(${plain()})`, '[!a]']);
  };
  const cases = Array.from({ length: 20 }, () => Array.from({ length: 3 }, syntax));

  it('find-file/glob and find-file/tinyglobby against node-glob and tinyglobby, the ignore being a path\'s own text', async () => {
    for (const names of cases) {
      const paths = [...new Set([...names.map((n) => `${n}.md`), ...names.map((n) => `app/${n}/page.tsx`), 'a.md', 'b.md', 'id.md', 'x1.md', 'app/a/page.tsx', 'app/id/page.tsx', 'app/i/page.tsx'])];
      const cwd = tree(paths);
      for (const ignore of [...names.map((n) => `${n}.md`), ...names.map((n) => `app/${n}/**`), ...names.map((n) => `app/${n}/page.tsx`)]) {
        const what = `ignore ${ignore} over ${paths.join(' ')}`;
        const ngTheirs = sorted(await ng.glob('**', { cwd, ignore, nodir: true }));
        expect(attempt(() => ffGlob.globSync('**', { cwd, ignore, nodir: true })), `glob ${what}`).toEqual(ngTheirs);
        const tgTheirs = attempt(() => tg.globSync('**', { cwd, ignore }));
        expect(attempt(() => ffTiny.globSync('**', { cwd, ignore })), `tinyglobby ${what}`).toEqual(tgTheirs);
      }
    }
  });
});

// node-glob 14.0.6's two entries disagree: `glob` (what hosts import, a minified bundle) leaves a
// leading `!` or `#` as it is; `glob/raw` (its minimatch 11) writes `\!`, `\#`. The adapter's is
// the one hosts import, and every form of both is read literally by its `glob`.
describe("find-file/glob's escape is node-glob's, character by character", () => {
  // Every ASCII character but NUL, and a few beyond, alone and at the start, middle and end of a name.
  const chars = [...Array.from({ length: 127 }, (_, i) => String.fromCharCode(i + 1)), 'é', '😀', '\u00a0', '\u2028'];
  const strings = chars.flatMap((c) => [c, `${c}x`, `a${c}b`, `x${c}`, `${c}${c}`]);

  it('the same string as the real escape under each option, and the real unescape gives the text back', () => {
    for (const s of strings) {
      for (const windowsPathsNoEscape of [false, true]) {
        for (const magicalBraces of [false, true]) {
          const options = { windowsPathsNoEscape, magicalBraces };
          expect(ffGlob.escape(s, options), `${JSON.stringify(s)} ${JSON.stringify(options)}`).toBe(ng.escape(s, options));
        }
      }
      expect(ng.unescape(ffGlob.escape(s, { windowsPathsNoEscape: false })), JSON.stringify(s)).toBe(s);
    }
  });

  itIf(posix('names holding `\\` and most ASCII punctuation are POSIX ones'))('finds each name by its escape (and by glob/raw\'s two forms), as node-glob does', async () => {
    const names = chars.filter((c) => c !== '/' && c >= ' ').flatMap((c) => [`${c}x`, `a${c}b`]);
    const cwd = tree(names.map((n) => `d/${n}`));
    for (const name of names) {
      // The windowsPathsNoEscape form leaves `\\` as it is: a separator there, where no name holds one.
      const forms = [ffGlob.escape(name, { windowsPathsNoEscape: false }), rawGlob.escape(name), ...(name.includes('\\') ? [] : [rawGlob.escape(name, { windowsPathsNoEscape: true })])];
      for (const escaped of forms) {
        const pattern = `d/${escaped}`;
        expect(sorted(ffGlob.globSync(pattern, { cwd })), pattern).toEqual([`d/${name}`]);
      }
      const pattern = `d/${ffGlob.escape(name, { windowsPathsNoEscape: false })}`;
      expect(sorted(await ng.glob(pattern, { cwd })), pattern).toEqual([`d/${name}`]);
    }
  });
});

describe("find-file/tinyglobby and a `\\` before a magic character (escapePath leaves it: `a\\*`)", () => {
  itIf(posix('`\\` is a separator on win32, no name can hold it'))('finds and ignores what tinyglobby does, for names and their escapePath', async () => {
    const rng = new Rng(0x5c2a);
    for (let round = 0; round < 10; round++) {
      const names = Array.from({ length: 4 }, () => `${rng.pick(['a', 'b'])}\\${rng.pick(['*', '?', '[b]', '(c)', '{x,y}', '!'])}`);
      // Beside each, the name its escapes would read as (`a*` beside `a\*`).
      const paths = [...new Set([...names, ...names.map((n) => n.replace('\\', '')), 'ab', 'bc'])].flatMap((n) => [n, `d/${n}`]);
      const cwd = tree(paths);
      const patterns = names.flatMap((n) => [n, tg.escapePath(n), `d/${n}`, `d/${tg.escapePath(n)}`]);
      for (const pattern of patterns) {
        for (const options of [{}, { expandDirectories: false }]) {
          const what = `${pattern} ${JSON.stringify(options)} over ${paths.join(' ')}`;
          expect(attempt(() => ffTiny.globSync(pattern, { cwd, ...options })), what).toEqual(attempt(() => tg.globSync(pattern, { cwd, ...options })));
          expect(attempt(() => ffTiny.globSync('**', { cwd, ignore: pattern, ...options })), `ignore ${what}`).toEqual(attempt(() => tg.globSync('**', { cwd, ignore: pattern, ...options })));
        }
      }
    }
  });
});
