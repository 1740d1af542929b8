/**
 * Seeded generators for the glob conformance suite (test/conformance/conformance.test.ts): small
 * real directory trees full of names that break matchers, and glob patterns built from a grammar
 * over the names actually in a tree (so most patterns have hits). Everything comes from one
 * mulberry32 stream: the same seed gives the same trees and patterns on every machine (no
 * Math.random, no clock, no directory order).
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { mulberry32 } from '../helpers/prng.js';


export class Rng {
  private readonly next: () => number;
  constructor(seed: number) {
    this.next = mulberry32(seed);
  }
  float(): number {
    return this.next();
  }
  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  /** An integer in [lo, hi]. */
  range(lo: number, hi: number): number {
    return lo + this.int(hi - lo + 1);
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[this.int(items.length)]!;
  }
  /** A new seed derived from this stream (for independent sub-streams). */
  fork(): Rng {
    return new Rng(Math.floor(this.next() * 4294967296));
  }
}

// ---------------------------------------------------------------------------------------------
// Trees
// ---------------------------------------------------------------------------------------------

const KELVIN = '\u212A';
const LONG_S = '\u017F';

/** Names that tend to repeat at several depths (what multi-`**` patterns need). */
const DIR_NAMES = ['a', 'b', 'c', 'src', 'lib', 'pkg', 'core', 'util', 'test', 'app', 'x1', '2'];
const ODD_DIR_NAMES = [
  '.hid', '.config', 'dir one', '[id]', 'x{1,2}', '{a,b}', '(p)', '!bang', '@at', '+plus', 'a,b', '-dash',
  'd\nx', 'é', '中文', '😀', `${KELVIN}dir`, 'kdir', `${LONG_S}rc`, 'dir.ts', 'a.b', '!(a)', '@(x)', 'x[', ']',
];
const FILE_NAMES = [
  'a', 'b', 'c', 'index.ts', 's.ts', 'a.ts', 'b.js', 'a.b.js', 'x.js', 'README.md', 'main.c', 'x1', 'x2', 'x3',
  'x10', '1', '2.log', '007.txt', 'Makefile', 'UPPER.TS', 'mixed.Ts', 'in.ts', 't.ts', 'page.tsx', 'a.d.ts',
];
const ODD_FILE_NAMES = [
  '.hid', '.env', '.a.ts', '..dots', '.x.js', 'name with space.txt', ' lead.ts', 'trail.ts ', '[id]', '[id].ts',
  'x{1,2}', '{a,b}', '(p).ts', '!bang', '!bang.ts', '@at.md', '+plus', 'a,b', '-dash.ts', '--files.md', ']', '[',
  'x[.ts', '!(a)', '@(x)', 'a+(b)', 'a*b', 'what?', 'semi;colon', 'a|b', "quote'.ts", '#hash.ts', '$dollar',
  '~tilde', '%pct', '&amp', '=eq', 'a^b', 'back\\slash.ts', 'n\nl.ts', 'tab\tx.ts', '\n', 'é.ts', 'É.ts',
  'cafe\u0301.md', 'café.md', '中文.ts', '😀.ts', '😀', 'a😀b', `${KELVIN}.txt`, 'k.txt', 'K.txt', `${LONG_S}.txt`,
  's.txt', 'S.txt', 'Ω.ts', 'ß.ts', '10.ts', '2.ts', 'x.1.2', 'ab', 'aab', 'abab', 'xxx', 'x',
];

export interface TreeSpec {
  /** Root-relative regular files (with `/`). */
  files: string[];
  /** Root-relative directories, parents before children. */
  dirs: string[];
  /** Symlinks: `target` relative to the link's directory. */
  links: { path: string; target: string }[];
}

/** The files every run's first tree holds: the shapes earlier matchers got wrong. */
const ANCHOR_FILES = [
  'pkg/core/src/t.ts',
  'pkg/core/src/util/s.ts',
  'pkg/web/lib/src/deep/er/x.ts',
  'a/b/c',
  'a/b/c.ts',
  'd\nx/in.ts',
  'x1',
  'x2',
  'x3',
  'x{1,2}',
  'app/[id]/page.tsx',
  '[id]/i',
  'a.b.js',
  'b.js',
  'n\nl.ts',
  '.hid/.env',
  'src/src/src/a.ts',
  'dir one/file one.ts',
  '😀/中文.ts',
  `${KELVIN}.txt`,
  'k.txt',
  `${LONG_S}rc/a.ts`,
];

/**
 * A small tree: 20 to 90 files, at most 5 levels, hostile names, a few links (to a file, to a
 * directory, to an ancestor, dangling), repeated directory names at several depths.
 */
export function generateTree(rng: Rng, withAnchors: boolean): TreeSpec {
  const files = new Set<string>();
  const dirs = new Set<string>();
  const addFile = (rel: string) => {
    const parts = rel.split('/');
    for (let i = 1; i < parts.length; i++) dirs.add(parts.slice(0, i).join('/'));
    files.add(rel);
  };
  if (withAnchors) for (const f of ANCHOR_FILES) addFile(f);

  const fileName = () => (rng.chance(0.45) ? rng.pick(ODD_FILE_NAMES) : rng.pick(FILE_NAMES));
  const dirName = () => (rng.chance(0.35) ? rng.pick(ODD_DIR_NAMES) : rng.pick(DIR_NAMES));
  const grow = (prefix: string, depth: number) => {
    const children = depth === 0 ? rng.range(5, 10) : rng.range(1, 5);
    for (let i = 0; i < children; i++) {
      if (depth < 4 && rng.chance(depth === 0 ? 0.45 : 0.3)) {
        const dir = prefix + dirName();
        if (files.has(dir)) continue;
        dirs.add(dir);
        grow(dir + '/', depth + 1);
      } else {
        const file = prefix + fileName();
        if (dirs.has(file)) continue;
        files.add(file);
      }
    }
  };
  grow('', 0);
  // A chain of repeated names (`src/x/src/y/src/z.ts`): what several `**` in one pattern must cross.
  if (rng.chance(0.8)) {
    const d1 = rng.pick(DIR_NAMES);
    const d2 = rng.pick(DIR_NAMES);
    const chain = [d1, d2, d1, rng.pick(DIR_NAMES), d1].slice(0, rng.range(2, 5));
    const file = chain.join('/') + '/' + fileName();
    if (!chain.some((_, i) => files.has(chain.slice(0, i + 1).join('/')))) addFile(file);
  }
  // An empty directory and a directory whose name looks like a file pattern's target.
  if (rng.chance(0.5)) dirs.add('empty');

  // Drop files whose path is also a directory (a name picked twice for both).
  for (const f of [...files]) if (dirs.has(f)) files.delete(f);

  const dirList = [...dirs].sort((x, y) => x.split('/').length - y.split('/').length || (x < y ? -1 : 1));
  const fileList = [...files].sort();
  const links: TreeSpec['links'] = [];
  const taken = new Set([...files, ...dirs]);
  const linkAt = (dir: string, name: string, target: string) => {
    const path = dir === '' ? name : `${dir}/${name}`;
    if (taken.has(path)) return;
    taken.add(path);
    links.push({ path, target });
  };
  const up = (dir: string) => (dir === '' ? '' : dir.split('/').map(() => '..').join('/') + '/');
  const linkCount = rng.range(1, 4);
  for (let i = 0; i < linkCount; i++) {
    const dir = rng.chance(0.5) || dirList.length === 0 ? '' : rng.pick(dirList);
    const kind = rng.int(4);
    // Link names a pattern would match if links were returned: the suite checks they never are.
    if (kind === 0 && fileList.length > 0) linkAt(dir, rng.pick(['link.ts', 'index.ts', 'l.js', 'x9']), up(dir) + rng.pick(fileList));
    else if (kind === 1 && dirList.length > 0) linkAt(dir, rng.pick(['linkdir', 'src', 'lib2']), up(dir) + rng.pick(dirList));
    else if (kind === 2) linkAt(dir, 'loop', up(dir) || '.');
    else linkAt(dir, 'dangling.ts', 'does-not-exist.ts');
  }
  return { files: fileList, dirs: dirList, links };
}

/**
 * Creates the tree under `root`. A name the filesystem cannot hold next to another (case-folding
 * filesystems: `k.txt` and `K.txt`) is skipped: the oracles read the tree that exists, never the spec.
 */
export function materializeTree(root: string, spec: TreeSpec): void {
  mkdirSync(root, { recursive: true });
  for (const dir of spec.dirs) {
    try {
      mkdirSync(join(root, dir), { recursive: true });
    } catch {
      // collision on a case-insensitive filesystem, or a file already there: skip
    }
  }
  for (const file of spec.files) {
    try {
      mkdirSync(dirname(join(root, file)), { recursive: true });
      writeFileSync(join(root, file), file, { flag: 'wx' });
    } catch {
      // as above
    }
  }
  for (const link of spec.links) {
    try {
      symlinkSync(link.target, join(root, link.path));
    } catch {
      // as above
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Patterns
// ---------------------------------------------------------------------------------------------

export interface GeneratedPattern {
  pattern: string;
  /** Case-insensitive matching (`caseSensitive: false`, bash `nocaseglob`, minimatch `nocase`). */
  nocase: boolean;
  /** Which grammar productions built it (for the summary and for grouping disagreements). */
  tags: string[];
}

/** Code points, not UTF-16 units. */
function chars(s: string): string[] {
  return Array.from(s);
}

type EscapeContext = 'top' | 'brace' | 'extglob';

/**
 * A literal name as glob text. `full`: every character any dialect could read as magic gets a
 * backslash. Otherwise only what would be magic here: `* ? [ \` always, braces when the name could
 * form a brace set, `,` inside braces, `( ) |` inside extglobs, `(` after `! @ +`.
 */
function escapeLiteral(text: string, full: boolean, ctx: EscapeContext): string {
  const cs = chars(text);
  const couldBrace = text.includes('{') && text.includes('}');
  let out = '';
  cs.forEach((c, i) => {
    let magic: boolean;
    if ('*?[\\'.includes(c)) magic = true;
    else if (full && '[]{}()!@+,|'.includes(c)) magic = true;
    else if (c === '{' || c === '}') magic = couldBrace || ctx === 'brace';
    else if (c === ',') magic = ctx === 'brace';
    else if (c === '(' || c === ')' || c === '|') magic = ctx === 'extglob' || (c === '(' && i > 0 && '!@+'.includes(cs[i - 1]!));
    else magic = false;
    out += magic ? '\\' + c : c;
  });
  return out;
}

const DECOYS = ['zz', 'q', 'nomatch', 'js', 'ts', 'a', 'x1', 'src', 'é', '😀'];

function flipCase(rng: Rng, text: string): string {
  return chars(text)
    .map((c) => {
      if (!rng.chance(0.5)) return c;
      const u = c.toUpperCase();
      const l = c.toLowerCase();
      const other = c === u ? l : u;
      // Only one-to-one flips (not `ß` -> `SS`).
      return chars(other).length === 1 ? other : c;
    })
    .join('');
}

/** An ASCII neighbour range around `c` (`[a-c]` for `b`), or undefined. */
function rangeAround(c: string): string | undefined {
  if (!/^[a-zA-Z0-9]$/.test(c)) return undefined;
  const code = c.charCodeAt(0);
  const lo = String.fromCharCode(/[a0A]/.test(c) ? code : code - 1);
  const hi = String.fromCharCode(/[z9Z]/.test(c) ? code : code + 1);
  return `[${lo}-${hi}]`;
}

const CLASS_UNSAFE = /[\]\\^!\-[]/;

/** One path segment: glob text that matches `name` (or, for `miss` productions, likely not). */
function segmentGlob(rng: Rng, name: string, full: boolean, ctx: EscapeContext, tags: Set<string>, isLast: boolean): string {
  const cs = chars(name);
  const esc = (t: string, c: EscapeContext = ctx) => escapeLiteral(t, full, c);
  const n = cs.length;
  const roll = rng.int(20);
  switch (roll) {
    case 0:
      tags.add('star');
      return '*';
    case 1: {
      const k = rng.int(n + 1);
      tags.add('prefix*');
      return esc(cs.slice(0, k).join('')) + '*';
    }
    case 2: {
      tags.add('*suffix');
      const dot = name.lastIndexOf('.');
      const k = dot > 0 && rng.chance(0.6) ? chars(name.slice(0, dot)).length : rng.int(n + 1);
      return '*' + esc(cs.slice(k).join(''));
    }
    case 3: {
      tags.add('*mid*');
      const i = rng.int(n);
      const j = rng.range(i, n);
      return '*' + esc(cs.slice(i, j).join('')) + '*';
    }
    case 4:
    case 5: {
      tags.add('?');
      const out = cs.map((c) => (rng.chance(0.35) ? '?' : esc(c)));
      if (!out.includes('?')) out[rng.int(n)] = '?';
      return out.join('');
    }
    case 6:
    case 7: {
      const i = rng.int(n);
      const c = cs[i]!;
      let cls: string | undefined;
      const variant = rng.int(8);
      if (variant === 0 && /[0-9]/.test(c)) (cls = '[[:digit:]]'), tags.add('[[:digit:]]');
      else if (variant === 1 && /\p{L}/u.test(c)) (cls = rng.pick(['[[:alpha:]]', '[[:alnum:]]'])), tags.add('[[:alpha:]]');
      else if (variant === 2 && c === ']') (cls = '[]a]'), tags.add('[]a]');
      else if (variant === 3 && c !== 'x' && c !== '/') (cls = '[!x]'), tags.add('[!x]');
      else if (variant === 4 && c !== 'x') (cls = '[^x]'), tags.add('[^x]');
      else if (variant === 5 && rangeAround(c) !== undefined) (cls = rangeAround(c)), tags.add('[a-c]');
      else if (variant === 6 && /[d-z]/.test(c)) (cls = '[!a-c]'), tags.add('[!a-c]');
      else if (!CLASS_UNSAFE.test(c)) (cls = `[${rng.chance(0.5) ? c : 'q' + c}]`), tags.add('[abc]');
      if (cls === undefined) return esc(name);
      return esc(cs.slice(0, i).join('')) + cls + esc(cs.slice(i + 1).join(''));
    }
    case 8: {
      tags.add('@(a|b)');
      const decoy = rng.pick(DECOYS);
      const alts = rng.chance(0.5) ? [esc(name, 'extglob'), esc(decoy, 'extglob')] : [esc(decoy, 'extglob'), esc(name, 'extglob')];
      return `@(${alts.join('|')})`;
    }
    case 9: {
      // `*(c)` / `+(c)` over a run of one character, `?(c)` over one or none.
      const i = rng.int(n);
      const c = cs[i]!;
      let j = i;
      while (j < n && cs[j] === c) j++;
      const kind = rng.pick(['*', '+', '?'] as const);
      tags.add(`${kind}(x)`);
      const inner = esc(c, 'extglob');
      if (kind === '?') return esc(cs.slice(0, i).join('')) + `?(${inner})` + esc(cs.slice(i + 1).join(''));
      return esc(cs.slice(0, i).join('')) + `${kind}(${inner})` + esc(cs.slice(j).join(''));
    }
    case 10: {
      if (!isLast && rng.chance(0.5)) return esc(name);
      // `!(...)` only as the last thing in a segment.
      tags.add('!(x)');
      const dot = name.lastIndexOf('.');
      if (dot > 0 && rng.chance(0.5)) {
        tags.add('*.!(ext)');
        const head = rng.chance(0.5) ? '*' : esc(name.slice(0, dot));
        const ext = rng.pick(['js', 'ts', 'md', name.slice(dot + 1)]);
        return `${head}.!(${escapeLiteral(ext, full, 'extglob')})`;
      }
      if (rng.chance(0.3)) return `!(*.${rng.pick(['ts', 'js', 'md'])})`;
      return `!(${rng.chance(0.3) ? esc(name, 'extglob') : esc(rng.pick(DECOYS), 'extglob')})`;
    }
    case 11: {
      tags.add('{a,b}');
      const decoy = rng.pick(DECOYS);
      if (ctx === 'brace') return esc(name);
      return rng.chance(0.5) ? `{${esc(name, 'brace')},${esc(decoy, 'brace')}}` : `{${esc(decoy, 'brace')},${esc(name, 'brace')}}`;
    }
    case 12: {
      const m = /^(.*?)([1-8])(.*)$/su.exec(name);
      if (m === null || ctx === 'brace') return esc(name);
      tags.add('{1..3}');
      const d = Number(m[2]);
      const lo = rng.range(Math.max(0, d - 2), d);
      const hi = rng.range(d, d + 2);
      return esc(m[1]!, 'brace') + `{${lo}..${hi}}` + esc(m[3]!, 'brace');
    }
    case 13: {
      tags.add('\\escape');
      // Every character escaped, letters included (`\a` is `a` everywhere).
      return cs.map((c) => (/[\p{L}\p{N}]/u.test(c) && !rng.chance(0.3) ? c : '\\' + c)).join('');
    }
    default:
      return esc(name);
  }
}

/**
 * Patterns for one tree. `files` are the regular files that exist, `dirs` the directories (both
 * root-relative, from the real listing): literals come from them so most patterns have hits.
 */
export function generatePatterns(rng: Rng, files: readonly string[], dirs: readonly string[], count: number, first = false): GeneratedPattern[] {
  const out: GeneratedPattern[] = [];
  for (const pattern of FIXED_PATTERNS) out.push({ pattern, nocase: false, tags: ['fixed'] });
  if (first) for (const pattern of FIRST_TREE_PATTERNS) out.push({ pattern, nocase: false, tags: ['fixed'] });
  for (const pattern of FIXED_NOCASE) out.push({ pattern, nocase: true, tags: ['fixed'] });
  while (out.length < count) out.push(onePattern(rng, files, dirs));
  return out.slice(0, Math.max(count, 0));
}

/** Checked on every tree: the shapes of known bugs, and the brief's examples. */
export const FIXED_PATTERNS = [
  '*', '**', '**/*', '*.ts', '**/*.ts', '?', '*.js', 'pkg/**/src/**/*.ts', '**/src/**/*.ts', 'pkg/**', 'a/./b/c',
  './a/b/c', '{./a/b/c,zzz}', 'x\\{1,2\\}', 'x{1,2}', 'x{1..3}', '!(a)', '*.!(js)', '**/!(*.ts)', '[id]', '\\[id\\]',
  'app/[id]/page.tsx', 'app/\\[id\\]/page.tsx', 'd\nx/*', '**/in.ts', '*\n*', '[[:digit:]]*', '[]a]', '[!a-c]*',
  '[^x]*', '@(a|b)', '*(x)', '+(x)', '?(x)', '.*', '**/.*', 'src/**', '**/src/*', '*/*', '*/*/*', '??.ts', '?.txt',
  '😀*', '*😀*', '?😀?', '[😀]*', 'é*', 'a.b.*', '*.*.*', '\\*', 'a\\*b', 'what\\?', '**/**/*.ts', 'src/**/**/a.ts',
  'a/**/c', 'a/**/b/**/c', 'n\nl.ts', '{a,b}', '\\{a,b\\}', '{**/x1,x2}', '{x1,**/x2}', './x1', '{./x1,zzz}',
  '{d\nx/in.ts,zzz}', '{n\nl.ts,x1}', '*.{ts,md}', '[[:alpha:]]*', '[[:alnum:]]*.ts',
];

/** Checked on the first tree only: shapes that hung find-file (each hang costs the case deadline). */
const FIRST_TREE_PATTERNS = ['*(x'];

const FIXED_NOCASE = [
  'K.TXT', 'k.txt', 's.txt', 'É.TS', 'upper.ts', '*.TS', 'PKG/**/SRC/**/*.TS', '[k]*', 'A/B/C', 'k.[[:alpha:]]xt', 's*/a.ts',
  's*/[[:alpha:]].ts',
];

/** Intended refusals (src/patterns.ts): generated now and then to check they are refused. */
const REFUSALS = ['', '   ', '../x', 'a/../b', '{..,a}/x', '/etc/*', '/abs', '!*.js', '!x1', 'src/', 'a/**/', '..', './..', '.', 'src/.', '*/.', 'a/**/.', '{*/.,x1}'];

function onePattern(rng: Rng, files: readonly string[], dirs: readonly string[]): GeneratedPattern {
  const tags = new Set<string>();
  if (rng.chance(0.01)) return { pattern: rng.pick(REFUSALS), nocase: false, tags: ['refusal'] };
  const nocase = rng.chance(0.12);
  if (nocase) tags.add('nocase');
  const full = rng.chance(0.3);
  if (full) tags.add('full-escape');

  // A file (most patterns), or a directory with `/**` (everything below it).
  const fromDir = dirs.length > 0 && rng.chance(0.12);
  let target = fromDir ? rng.pick(dirs) : files.length > 0 ? rng.pick(files) : 'nothing';
  if (nocase) target = flipCase(rng, target);
  let parts = target.split('/');
  const miss = rng.chance(0.12);
  if (miss) {
    tags.add('miss');
    const i = rng.int(parts.length);
    parts[i] = rng.chance(0.5) ? parts[i] + 'q' : 'q' + parts[i];
  }

  const slashLess = !fromDir && rng.chance(0.3);
  const wrap = rng.chance(0.07);
  const ctx: EscapeContext = wrap ? 'brace' : 'top';
  let segs: string[];
  if (slashLess) {
    tags.add('base-name');
    segs = [segmentGlob(rng, parts[parts.length - 1]!, full, ctx, tags, true)];
    if (rng.chance(0.25)) (segs = ['**', ...segs]), tags.add('**/x');
  } else {
    segs = parts.map((p, i) => (rng.chance(0.5) ? segmentGlob(rng, p, full, ctx, tags, i === parts.length - 1) : escapeLiteral(p, full, ctx)));
    if (fromDir) (segs = [...segs, '**']), tags.add('dir/**');
    // `**` in place of runs of directory segments (possibly empty runs), up to three times.
    const stars = rng.chance(0.45) ? rng.range(1, 3) : 0;
    for (let s = 0; s < stars; s++) {
      const dirCount = segs.length - 1;
      const i = rng.int(dirCount + 1);
      const len = rng.int(Math.min(3, dirCount - i) + 1);
      if (segs.slice(i, i + len).includes('**')) continue;
      segs.splice(i, len, '**');
      tags.add(i === 0 ? '**-start' : '**-middle');
    }
    if (segs.length > 1 && rng.chance(0.05) && segs[segs.length - 1] !== '**') {
      // `a/**` for the file's directory.
      segs[segs.length - 1] = '**';
      tags.add('**-end');
    }
    if (segs.length > 1 && rng.chance(0.08)) {
      segs.splice(rng.range(1, segs.length - 1), 0, '.');
      tags.add('inner ./');
    }
    if (rng.chance(0.06)) (segs = ['.', ...segs]), tags.add('leading ./');
  }
  let pattern = segs.join('/');
  if (rng.chance(0.03)) {
    // `x/.` exists only when `x` is a directory: a pattern ending so names directories, refused.
    pattern += rng.pick(['/.', '/./', '/.//']);
    tags.add('trailing /.');
  }
  if (wrap) {
    tags.add('{alt,alt}');
    const decoy = rng.pick(['zzz', '**/x1', './q/zz', '*.nomatch', 'a/b/c']);
    const first = rng.chance(0.5) && !pattern.startsWith('./') ? `./${pattern}` : pattern;
    if (first !== pattern) tags.add('{./alt}');
    pattern = rng.chance(0.5) ? `{${first},${decoy}}` : `{${decoy},${first}}`;
  }
  return { pattern, nocase, tags: [...tags].sort() };
}

/** The text with `count` characters dropped at random places (a pattern made malformed on purpose). */
export function dropSome(text: string, count: number, rng: Rng): string {
  const chars = [...text];
  for (let i = 0; i < count && chars.length > 0; i++) chars.splice(rng.int(chars.length), 1);
  return chars.join('');
}
