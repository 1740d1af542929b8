/**
 * The POSIX character classes (`[[:punct:]]` ...) with bash's meaning in a UTF-8 locale: the code
 * points glibc's iswctype answers yes for in C.UTF-8, from the generated posix-class-table.ts (see
 * scripts/posix-classes/generate.mjs), not hand-picked Unicode properties.
 *
 * Rules, as bash 5.2 applies them (test/conformance/class-sweep.test.ts checks them against bash):
 * - a class is tested against the character itself: when case is ignored (`nocaseglob`,
 *   `nocasematch`) `[[:upper:]]` still does not match `a`; the caller must not fold first;
 * - a name bash does not know (`[[:bogus:]]`, `[[:UPPER:]]`) is a class with no members:
 *   `[[:bogus:]]` matches nothing, `[![:bogus:]]` any one character, `[[:bogus:]b]` only `b`.
 */
import { decodeRanges, inRanges } from '../range-table.js';
import { POSIX_CLASS_TABLE } from './posix-class-table.js';

export type PosixClassName = keyof typeof POSIX_CLASS_TABLE;
export type CodePointRange = readonly [lo: number, hi: number];

export const POSIX_CLASS_NAMES: readonly PosixClassName[] = Object.keys(POSIX_CLASS_TABLE) as PosixClassName[];

export function isPosixClassName(name: string): name is PosixClassName {
  return Object.hasOwn(POSIX_CLASS_TABLE, name);
}

/** Flat `[lo0, hi0, lo1, hi1, ...]`, decoded on a class's first use. */
const decoded = new Map<string, Uint32Array>();
const NO_MEMBERS = new Uint32Array(0);

function flatRanges(name: string): Uint32Array {
  let flat = decoded.get(name);
  if (flat !== undefined) return flat;
  if (!isPosixClassName(name)) return NO_MEMBERS;
  flat = decodeRanges(POSIX_CLASS_TABLE[name]);
  decoded.set(name, flat);
  return flat;
}

/** Whether code point `cp` is in the class; false for every code point of a class bash does not know. */
export function isInPosixClass(name: string, cp: number): boolean {
  return inRanges(flatRanges(name), cp);
}

/** The class's members as ascending, disjoint, non-adjacent inclusive ranges; none for an unknown name. */
export function posixClassRanges(name: string): readonly CodePointRange[] {
  const flat = flatRanges(name);
  const ranges: CodePointRange[] = [];
  for (let i = 0; i < flat.length; i += 2) ranges.push([flat[i]!, flat[i + 1]!]);
  return ranges;
}
