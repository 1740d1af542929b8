/**
 * The encoding of the generated code-point tables (src/glob/posix-class-table.ts,
 * src/rg-uppercase-table.ts; written by scripts/lib/range-table.mjs): base-36 numbers in pairs
 * `gap span`, one pair per range, ascending: lo = the previous hi + 1 + gap (the first counts from
 * 0), hi = lo + span. Decoded on first use into flat `[lo0, hi0, lo1, hi1, ...]`, searched by halves.
 */

/** A table's lines to flat inclusive ranges. */
export function decodeRanges(lines: readonly string[]): Uint32Array {
  const numbers = lines.join(' ').split(' ');
  const flat = new Uint32Array(numbers.length);
  let next = 0;
  for (let i = 0; i < numbers.length; i += 2) {
    flat[i] = next + parseInt(numbers[i]!, 36);
    flat[i + 1] = flat[i]! + parseInt(numbers[i + 1]!, 36);
    next = flat[i + 1]! + 1;
  }
  return flat;
}

/** Whether `cp` lies in one of the flat ranges: the last range starting at or before it, found by halves. */
export function inRanges(flat: Uint32Array, cp: number): boolean {
  let low = 0;
  let high = flat.length / 2 - 1;
  while (low <= high) {
    const mid = (low + high) >>> 1;
    if (flat[2 * mid]! <= cp) low = mid + 1;
    else high = mid - 1;
  }
  return high >= 0 && cp <= flat[2 * high + 1]!;
}
