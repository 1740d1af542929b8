/**
 * Whole root-relative paths against a glob's segments. A `**` segment is zero or more whole
 * segments (`a/**` for a file needs one at least: a file named `a` is not below `a`); `**` inside
 * a segment is `*` (src/glob/parse.ts).
 *
 * Two ways to test a path, chosen once per pattern: one V8 regex for the whole path when every
 * segment has linear source and there is at most one `**` (then each star is held between two
 * `/` and the `**` tries each directory once: the commonest shapes, `src/**\/*.ts`, stay one regex
 * call); else the path is stepped segment by segment over a set of pattern positions, each
 * segment's own bounded test deciding a step (cost: depth × segments × one segment test).
 */
import { REPLACEMENT_CHAR } from '../fs.js';
import { GLOBSTAR_SOURCE, compiledRegex } from './regex.js';
import { splitSegments } from './parse.js';
import { compileSegment, type SegmentGlob } from './segment.js';

/** A `**` segment. */
export const GLOBSTAR = Symbol('globstar');

export type PathSegment = SegmentGlob | typeof GLOBSTAR;

/** Splits one brace-free, normalised glob into compiled segments (consecutive `**` merged). */
export function compilePath(glob: string, escapes: boolean, raw: string, caseSensitive: boolean): PathSegment[] {
  const segments: PathSegment[] = [];
  for (const text of splitSegments(glob, escapes)) {
    if (text === '**') {
      if (segments[segments.length - 1] !== GLOBSTAR) segments.push(GLOBSTAR);
    } else {
      segments.push(compileSegment(text, escapes, raw, caseSensitive));
    }
  }
  return segments;
}

/**
 * The whole-path regex source, when every segment has one (undefined otherwise). `forFiles`: a
 * trailing `**` needs at least one more segment; for directories (exclude) it may be none, so
 * `dist/**` leaves out `dist`.
 */
export function pathSource(segments: readonly PathSegment[], forFiles: boolean): string | undefined {
  let out = '';
  const last = segments.length - 1;
  for (let i = 0; i <= last; i++) {
    const segment = segments[i]!;
    if (segment === GLOBSTAR) {
      out += i < last ? GLOBSTAR_SOURCE.inner : i === 0 ? GLOBSTAR_SOURCE.alone : forFiles ? GLOBSTAR_SOURCE.lastForFiles : GLOBSTAR_SOURCE.lastForDirs;
      continue;
    }
    if (segment.source === undefined) return undefined;
    out += segment.source;
    if (i < last && !(i + 1 === last && segments[last] === GLOBSTAR)) out += '/';
  }
  return `^${out}$`;
}

type NameTest = (segment: SegmentGlob, name: string) => boolean;

const exactly: NameTest = (segment, name) => segment.test(name);
/** A name holding U+FFFD may have been other bytes: could some reading of it match? */
const possibly: NameTest = (segment, name) => (name.includes(REPLACEMENT_CHAR) ? segment.couldMatch(name) : segment.test(name));

/** Does the whole path match? Compiled once per pattern. */
export function buildPathTest(segments: readonly PathSegment[], forFiles: boolean, caseSensitive: boolean): (rel: string) => boolean {
  const globstars = segments.filter((s) => s === GLOBSTAR).length;
  const source = globstars <= 1 ? pathSource(segments, forFiles) : undefined;
  const re = source === undefined ? undefined : compiledRegex(source, caseSensitive ? '' : 'i');
  if (re !== undefined) return (rel) => re.test(rel);
  const stepper = new PathStepper(segments, forFiles);
  return (rel) => stepper.accepts(rel, exactly);
}

/** Could a path holding U+FFFD match in some reading of its undecoded names? */
export function buildUndecodedPathTest(segments: readonly PathSegment[], forFiles: boolean): (rel: string) => boolean {
  const stepper = new PathStepper(segments, forFiles);
  return (rel) => stepper.accepts(rel, possibly);
}

/**
 * Could some path below the directory `relDir` match? Over-answering only costs a read;
 * under-answering would hide files, so every unsure case says yes, and a directory name holding
 * U+FFFD is read if any reading of its bytes could lead to a match (the read then fails with EILSEQ
 * or finds the name was real).
 */
export function buildPartialTest(segments: readonly PathSegment[], caseSensitive: boolean): (relDir: string) => boolean {
  const stepper = new PathStepper(segments, true);
  const stepped = (relDir: string) => stepper.leadsBelow(relDir, relDir.includes(REPLACEMENT_CHAR) ? possibly : exactly);
  const fast = literalPrefixThenGlobstar(segments, caseSensitive);
  return fast === undefined ? stepped : (relDir) => (relDir.includes(REPLACEMENT_CHAR) ? stepped(relDir) : fast(relDir));
}

/** The general partial test, for every shape (exported for the test that checks the fast one against it). */
export function buildSteppedPartialTest(segments: readonly PathSegment[]): (relDir: string) => boolean {
  const stepper = new PathStepper(segments, true);
  return (relDir) => stepper.leadsBelow(relDir, exactly);
}

/** The set of pattern positions reached after each name of a path; reused, never re-entered. */
class PathStepper {
  private readonly n: number;
  private current: Uint8Array;
  private next: Uint8Array;

  constructor(
    private readonly segments: readonly PathSegment[],
    private readonly forFiles: boolean,
  ) {
    this.n = segments.length;
    this.current = new Uint8Array(this.n + 1);
    this.next = new Uint8Array(this.n + 1);
  }

  /** Does the path match the whole pattern? */
  accepts(rel: string, test: NameTest): boolean {
    return this.run(rel, test) && this.current[this.n] === 1;
  }

  /** Is some position left from which a name below could still match? */
  leadsBelow(relDir: string, test: NameTest): boolean {
    if (!this.run(relDir, test)) return false;
    for (let i = 0; i < this.n; i++) if (this.current[i] === 1) return true;
    return false;
  }

  /** Steps through the names of `path`; false once no position is left. */
  private run(path: string, test: NameTest): boolean {
    const { n, segments } = this;
    this.current.fill(0);
    this.current[0] = 1;
    this.closure(this.current);
    let start = 0;
    for (;;) {
      const slash = path.indexOf('/', start);
      const name = slash < 0 ? path.slice(start) : path.slice(start, slash);
      const next = this.next;
      next.fill(0);
      let any = false;
      for (let i = 0; i < n; i++) {
        if (this.current[i] !== 1) continue;
        const segment = segments[i]!;
        if (segment === GLOBSTAR) {
          next[i] = 1;
          if (i === n - 1) next[n] = 1;
          any = true;
        } else if (test(segment, name)) {
          next[i + 1] = 1;
          any = true;
        }
      }
      if (!any) return false;
      this.closure(next);
      this.next = this.current;
      this.current = next;
      if (slash < 0) return true;
      start = slash + 1;
    }
  }

  /** A `**` may also be no segment at all; a trailing one only for directories, and never alone. */
  private closure(states: Uint8Array): void {
    const { n, segments } = this;
    for (let i = 0; i < n; i++) {
      if (states[i] !== 1 || segments[i] !== GLOBSTAR) continue;
      if (i < n - 1 || (!this.forFiles && n > 1)) states[i + 1] = 1;
    }
  }
}

/**
 * The partial test of the commonest rooted shape, `lit/lit/**...` (literal names, then `**`), as
 * string compares: a directory could hold a match when it lies on the literal path or below it
 * (the `**` takes any names, and a file below needs only what follows it). Perf: the general test
 * splits the path and steps sets per directory (2.3 ms of a 34 ms rooted walk, profiled).
 * Undefined for other shapes, and when case does not matter (a folded compare would have to fold
 * exactly as the regex does).
 */
function literalPrefixThenGlobstar(segments: readonly PathSegment[], caseSensitive: boolean): ((relDir: string) => boolean) | undefined {
  if (!caseSensitive) return undefined;
  const names: string[] = [];
  let i = 0;
  for (; i < segments.length; i++) {
    const segment = segments[i]!;
    if (segment === GLOBSTAR || segment.literal === undefined) break;
    names.push(segment.literal);
  }
  if (segments[i] !== GLOBSTAR) return undefined;
  const prefix = names.join('/');
  if (prefix === '') return () => true;
  // Perf: a length check and one compare, with no string made per directory.
  const SLASH = 47;
  return (relDir) =>
    relDir.length > prefix.length
      ? relDir.charCodeAt(prefix.length) === SLASH && relDir.startsWith(prefix)
      : relDir.length === prefix.length
        ? relDir === prefix
        : prefix.charCodeAt(relDir.length) === SLASH && prefix.startsWith(relDir);
}
