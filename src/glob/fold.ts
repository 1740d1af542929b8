/**
 * Case folding when case does not matter, exactly as a JavaScript regex with `i` and without `u`
 * folds (ECMAScript's Canonicalize): per UTF-16 unit, to its single-unit upper case, never from a
 * non-ASCII character to an ASCII one (the KELVIN SIGN stays apart from `k`, as on NTFS). Characters
 * beyond U+FFFF never fold. The state-set matcher (src/glob/nfa.ts) folds with this so that it and
 * the regex fast path answer alike (test/glob/nfa.test.ts checks them against each other).
 */

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
