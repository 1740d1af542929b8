/**
 * A segment's nodes matched by simulating every state at once (Thompson's construction): the cost
 * is at most (name length × program size) for every construct, stars, classes and extglobs at any
 * nesting, where a backtracking regex can take exponential time (`*a*a*a*a*x` against 250 `a`s:
 * 46 s in V8's regex; here microseconds). src/glob/segment.ts uses it wherever a V8 regex is not
 * provably linear.
 *
 * `!(L)` is only ever the last node of a segment: "the rest of the name is not in L". Before the
 * run, L reversed is simulated once from the end of the name, which gives for every position
 * whether the rest is in L: linear too.
 *
 * A name that was not valid UTF-8 comes from the filesystem with U+FFFD where its bad bytes were,
 * and bash reads such a name in one of two ways. Where glibc cannot decode it, byte by byte: each
 * U+FFFD is then one to three bytes (the decoder makes one U+FFFD of a cut sequence such as
 * `\xe2\x82`), every other non-ASCII character its UTF-8 bytes. Where glibc can, character by
 * character: glibc decodes forms UTF-8 forbids (a 4-byte form above U+10FFFF, the 5- and 6-byte
 * forms, `\xf4\x90\x80\x80`, `\xf8..`, `\xfc..`) as ONE character each, where the decoder gives
 * one U+FFFD per byte, so a run of four to six U+FFFD may be one character. `couldMatch` answers
 * whether some reading could match: each U+FFFD is itself, one to three unknown bytes, or with the
 * next three to five U+FFFD one unknown character (the readings are mixed freely: a superset, and
 * a cheap one, one more step per U+FFFD). An unknown byte or character matches `?`, `*` and every
 * class (bash's answer depends on bytes we no longer have), never a literal. Over-answering only
 * costs an lstat that finds the name cannot be opened (an `EILSEQ` gap); under-answering would
 * hide a file.
 */
import { fold, foldEquivalents } from './fold.js';
import type { ClassItem, GlobNode } from './parse.js';
import { isInPosixClass } from './posix-classes.js';

const OP_CHAR = 0;
const OP_ANY = 1;
const OP_CLASS = 2;
const OP_SPLIT = 3;
const OP_NOT = 4;
const OP_MATCH = 5;

/** A byte of a name that did not decode: it matches no literal, and anything else may match it. */
const UNKNOWN = -1;

type CodeTest = (cp: number) => boolean;

/** A compiled program: consuming ops (char, any, class) go to `next`; a split to each of `outs`. */
interface Program {
  op: number[];
  arg: number[];
  next: number[];
  outs: number[][];
  classes: CodeTest[];
  nots: Program[];
  /** For each of `nots`: does an empty rest pass whatever it holds (`afterStar`)? */
  notPassesEmpty: boolean[];
  start: number;
}

export interface SegmentNfa {
  /** Does the name match? */
  matches(name: string): boolean;
  /** Could the name match in some byte reading of its U+FFFD and non-ASCII characters? */
  couldMatch(name: string): boolean;
  /** The program's size, `!(...)`'s own programs included: linear in the pattern's length (test/glob/nfa.test.ts). */
  readonly states: number;
}

export function compileNfa(nodes: readonly GlobNode[], caseSensitive: boolean): SegmentNfa {
  const program = compileProgram(nodes, caseSensitive);
  const run = new Runner(program, caseSensitive);
  return {
    matches: (name) => run.matches(codePoints(name)),
    couldMatch: (name) => run.couldMatch(codePoints(name), undecodedReadings(name)),
    states: sizeOf(program),
  };
}

function sizeOf(program: Program): number {
  return program.op.length + program.nots.reduce((sum, not) => sum + sizeOf(not), 0);
}

function compileProgram(nodes: readonly GlobNode[], caseSensitive: boolean): Program {
  const p: Program = { op: [], arg: [], next: [], outs: [], classes: [], nots: [], notPassesEmpty: [], start: 0 };
  const emit = (op: number, arg: number, next: number, outs: number[] = []) => {
    p.op.push(op);
    p.arg.push(arg);
    p.next.push(next);
    p.outs.push(outs);
    return p.op.length - 1;
  };
  const sequence = (seq: readonly GlobNode[], next: number): number => {
    for (let i = seq.length - 1; i >= 0; i--) next = node(seq[i]!, next);
    return next;
  };
  // A loop: a split whose branches come back to it (`*`, `*(..)`, the tail of `+(..)`).
  const loop = (bodies: (back: number) => number[], next: number) => {
    const split = emit(OP_SPLIT, 0, -1);
    p.outs[split] = [...bodies(split), next];
    return split;
  };
  const node = (n: GlobNode, next: number): number => {
    switch (n.kind) {
      case 'char':
        return emit(OP_CHAR, caseSensitive ? n.cp : fold(n.cp), next);
      case 'one':
        return emit(OP_ANY, 0, next);
      case 'star':
        return loop((back) => [emit(OP_ANY, 0, back)], next);
      case 'class':
        p.classes.push(classTest(n.items, n.negated, caseSensitive));
        return emit(OP_CLASS, p.classes.length - 1, next);
      case 'not':
        p.nots.push(compileProgram([{ kind: 'group', op: '@', alternatives: n.alternatives.map(reversed) }], caseSensitive));
        p.notPassesEmpty.push(n.afterStar);
        // The check, then the rest of the name (whatever it is, once it is not in the language).
        return emit(OP_NOT, p.nots.length - 1, loop((back) => [emit(OP_ANY, 0, back)], next));
      case 'group': {
        const alternatives = (to: number) => n.alternatives.map((alt) => sequence(alt, to));
        if (n.op === '@') return emit(OP_SPLIT, 0, -1, alternatives(next));
        if (n.op === '?') return emit(OP_SPLIT, 0, -1, [...alternatives(next), next]);
        if (n.op === '*') return loop(alternatives, next);
        // `+(..)`: the alternatives once, then back to them or on. Compiled once, not once before
        // a `*(..)` loop and again inside it: that doubled the program at each level of nesting
        // (`+(+(+(...a)))` 25 deep: 2^25 nodes, a minute, then out of memory).
        const again = emit(OP_SPLIT, 0, -1);
        const entries = alternatives(again);
        p.outs[again] = [...entries, next];
        return emit(OP_SPLIT, 0, -1, entries);
      }
    }
  };
  p.start = sequence(nodes, emit(OP_MATCH, 0, -1));
  return p;
}

/** The nodes that match the reversed texts of what `seq` matches. */
function reversed(seq: readonly GlobNode[]): GlobNode[] {
  return [...seq].reverse().map((n) => (n.kind === 'group' || n.kind === 'not' ? { ...n, alternatives: n.alternatives.map(reversed) } : n));
}

/**
 * One `[...]` set. Ignoring case, a character is in it when any character that folds like it is
 * in a range (as a regex with `i` decides); POSIX classes are never folded (bash does not fold them).
 */
function classTest(items: readonly ClassItem[], negated: boolean, caseSensitive: boolean): CodeTest {
  const ranges = items.filter((item): item is { lo: number; hi: number } => 'lo' in item);
  const posix = items.filter((item): item is { posix: string } => 'posix' in item).map((item) => item.posix);
  const inRanges = (cp: number) => {
    for (const r of ranges) if (cp >= r.lo && cp <= r.hi) return true;
    return false;
  };
  const inFoldedRanges = caseSensitive ? inRanges : (cp: number) => foldEquivalents(cp).some(inRanges);
  const inSet = (cp: number) => inFoldedRanges(cp) || posix.some((name) => isInPosixClass(name, cp));
  return negated ? (cp) => !inSet(cp) : inSet;
}

/** The name as code points (as written: a class tests them unfolded, literals compare folded). */
function codePoints(name: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < name.length; i++) {
    const cp = name.codePointAt(i)!;
    if (cp > 0xffff) i++;
    out.push(cp);
  }
  return out;
}

/**
 * For each code point of the name, how many unknown bytes it may also be read as (0: only itself):
 * U+FFFD one to three, another non-ASCII character its UTF-8 length.
 */
function undecodedReadings(name: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < name.length; i++) {
    const cp = name.codePointAt(i)!;
    if (cp > 0xffff) i++;
    out.push(cp < 0x80 ? 0 : cp === 0xfffd ? -3 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4);
  }
  return out;
}

/** How many U+FFFD glibc may read as one character: a 4-byte form above U+10FFFF, a 5- or 6-byte form. */
const MIN_GLIBC_RUN = 4;
const MAX_GLIBC_RUN = 6;

/** For each position, how many U+FFFD run from it (0 where the character is another). */
function replacementRuns(readings: readonly number[]): number[] {
  const runs: number[] = new Array(readings.length + 1).fill(0);
  for (let i = readings.length - 1; i >= 0; i--) runs[i] = readings[i]! < 0 ? runs[i + 1]! + 1 : 0;
  return runs;
}

/** The state sets of one program, reused across names (one matcher is never re-entered). */
class Runner {
  private readonly mark: Int32Array;
  private generation = 0;
  private inL: boolean[][] = [];
  private readonly notRunners: Runner[];
  /** In `couldMatch`, `!(...)` cannot be judged on unknown bytes: it may match. */
  private unsure = false;

  constructor(
    private readonly p: Program,
    private readonly caseSensitive: boolean,
  ) {
    this.mark = new Int32Array(p.op.length);
    this.notRunners = p.nots.map((not) => new Runner(not, caseSensitive));
  }

  matches(input: readonly number[]): boolean {
    this.unsure = false;
    this.inL = this.notRunners.map((r, k) => {
      const inL = r.suffixesIn(input);
      if (this.p.notPassesEmpty[k]) inL[input.length] = false;
      return inL;
    });
    let states = this.closure([this.p.start], 0);
    for (let pos = 0; pos < input.length && states.length > 0; pos++) states = this.step(states, input[pos]!, pos + 1);
    return this.accepts(states);
  }

  couldMatch(input: readonly number[], readings: readonly number[]): boolean {
    this.unsure = true;
    this.inL = [];
    const runs = replacementRuns(readings);
    // The states a run of U+FFFD read as one character reaches, by the position after the run.
    let later: Set<number>[] | undefined;
    let states = this.closure([this.p.start], 0);
    for (let pos = 0; pos < input.length; pos++) {
      const joined = later?.[pos];
      if (joined !== undefined) states = [...new Set([...states, ...joined])];
      if (states.length === 0) {
        if (later === undefined) break;
        continue;
      }
      const reading = readings[pos]!;
      if (reading === 0) {
        states = this.step(states, input[pos]!, pos + 1);
        continue;
      }
      // Itself, or `n` unknown bytes (U+FFFD: any of one to three).
      const found = new Set(this.step(states, input[pos]!, pos + 1));
      let unknown = states;
      for (let n = 1; n <= Math.abs(reading); n++) {
        unknown = this.step(unknown, UNKNOWN, pos + 1);
        if (reading < 0 || n === reading) for (const s of unknown) found.add(s);
      }
      // glibc's reading: this U+FFFD and the next three to five are one character.
      if (runs[pos]! >= MIN_GLIBC_RUN) {
        const one = this.step(states, UNKNOWN, pos + 1);
        later ??= [];
        for (let n = MIN_GLIBC_RUN; n <= Math.min(MAX_GLIBC_RUN, runs[pos]!); n++) {
          const at = (later[pos + n] ??= new Set());
          for (const s of one) at.add(s);
        }
      }
      states = [...found];
    }
    const joined = later?.[input.length];
    return this.accepts(states) || (joined !== undefined && this.accepts([...joined]));
  }

  /** For each position `i` of the input, is the text from `i` to the end in the language? */
  private suffixesIn(input: readonly number[]): boolean[] {
    this.unsure = false;
    const inL: boolean[] = new Array(input.length + 1);
    let states = this.closure([this.p.start], 0);
    inL[input.length] = this.accepts(states);
    for (let pos = input.length - 1; pos >= 0; pos--) {
      states = states.length === 0 ? states : this.step(states, input[pos]!, 0);
      inL[pos] = this.accepts(states);
    }
    return inL;
  }

  private accepts(states: readonly number[]): boolean {
    for (const s of states) if (this.p.op[s] === OP_MATCH) return true;
    return false;
  }

  private step(states: readonly number[], cp: number, pos: number): number[] {
    const { op, arg, next, classes } = this.p;
    const literal = this.caseSensitive || cp === UNKNOWN ? cp : fold(cp);
    const targets: number[] = [];
    for (const s of states) {
      const code = op[s];
      if (code === OP_ANY || (code === OP_CHAR && arg[s] === literal) || (code === OP_CLASS && (cp === UNKNOWN || classes[arg[s]!]!(cp)))) targets.push(next[s]!);
    }
    return this.closure(targets, pos);
  }

  /** The states reachable from `from` without consuming, at input position `pos`. */
  private closure(from: readonly number[], pos: number): number[] {
    const { op, arg, next, outs } = this.p;
    const gen = ++this.generation;
    const out: number[] = [];
    const stack = [...from];
    while (stack.length > 0) {
      const s = stack.pop()!;
      if (this.mark[s] === gen) continue;
      this.mark[s] = gen;
      const code = op[s];
      if (code === OP_SPLIT) for (const t of outs[s]!) stack.push(t);
      else if (code === OP_NOT) {
        if (this.unsure || !this.inL[arg[s]!]![pos]) stack.push(next[s]!);
      } else out.push(s);
    }
    return out;
  }
}
