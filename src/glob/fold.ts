/**
 * Case folding when case does not matter, exactly as a JavaScript regex with `i` and without `u`
 * folds (ECMAScript's Canonicalize): per UTF-16 unit, to its single-unit upper case, never from a
 * non-ASCII character to an ASCII one (the KELVIN SIGN stays apart from `k`, as on NTFS). Characters
 * beyond U+FFFF never fold. The state-set matcher (src/glob/nfa.ts) folds with this so that it and
 * the regex fast path answer alike (test/glob/nfa.test.ts checks them against each other).
 */

import type { ClassItem, GlobNode } from './parse.js';

let canonical: Uint16Array | undefined;
let equivalents: Map<number, number[]> | undefined;

function canonicalTable(): Uint16Array {
  if (canonical !== undefined) return canonical;
  const table = new Uint16Array(0x10000);
  for (let unit = 0; unit < 0x10000; unit++) {
    const upper = String.fromCharCode(unit).toUpperCase();
    const folded = upper.length === 1 ? upper.charCodeAt(0) : unit;
    table[unit] = unit >= 128 && folded < 128 ? unit : folded;
  }
  return (canonical = table);
}

/** The folded form of one code point (itself beyond U+FFFF). */
export function fold(cp: number): number {
  if (cp < 0x80) return cp >= 0x61 && cp <= 0x7a ? cp - 0x20 : cp;
  return cp > 0xffff ? cp : canonicalTable()[cp]!;
}

/** Every code point that folds as `cp` does, `cp` among them (only the ones that differ are stored). */
export function foldEquivalents(cp: number): readonly number[] {
  if (cp > 0xffff) return [cp];
  if (equivalents === undefined) {
    const table = canonicalTable();
    const groups = new Map<number, number[]>();
    for (let unit = 0; unit < 0x10000; unit++) {
      const key = table[unit]!;
      const group = groups.get(key);
      if (group === undefined) groups.set(key, [unit]);
      else group.push(unit);
    }
    equivalents = new Map();
    for (const group of groups.values()) if (group.length > 1) for (const unit of group) equivalents.set(unit, group);
  }
  return equivalents.get(cp) ?? [cp];
}

/**
 * bash's `nocaseglob` lowers a range's ends and the character before it compares (`[0-Z]` is
 * `[0-z]`, so `^` and `_` are in it; `[!:-a]` leaves `B` out of its range, as `b` is past `a`),
 * where the regex `i` and `fold` ask whether any case partner of the character is in the range
 * as written. For a range with ASCII ends, the range bash compares with, less its capitals (bash
 * never reaches them: it compares `b` for `B`; the `i` fold reaches them through their lower
 * case), makes the two answer alike. Ranges with other ends keep the fold's reading (a deviation
 * in docs/contract.md).
 */
export function foldRangesAsBash(nodes: readonly GlobNode[]): GlobNode[] {
  return nodes.map((node): GlobNode => {
    if (node.kind === 'class') return { ...node, items: node.items.flatMap(rangeAsBash) };
    if (node.kind === 'group' || node.kind === 'not') return { ...node, alternatives: node.alternatives.map(foldRangesAsBash) };
    return node;
  });
}

function rangeAsBash(item: ClassItem): ClassItem[] {
  if (!('lo' in item) || item.lo === item.hi || item.lo > 0x7f || item.hi > 0x7f) return [item];
  const lower = (c: number) => (c >= 0x41 && c <= 0x5a ? c + 0x20 : c);
  const lo = lower(item.lo);
  const hi = lower(item.hi);
  // Reversed once lowered, it matches nothing (`[a-Z]` is `[a-z]`, `[z-A]` nothing).
  return [
    { lo, hi: Math.min(hi, 0x40) },
    { lo: Math.max(lo, 0x5b), hi },
  ].filter((range) => range.lo <= range.hi);
}
