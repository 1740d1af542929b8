// The encoding of the generated code-point tables, written here and read by src/range-table.ts:
// base-36 numbers in pairs `gap span`, one pair per inclusive range, ascending (lo = the previous
// hi + 1 + gap, the first counting from 0; hi = lo + span), wrapped into lines of at most `width`.

/** Ascending code points to inclusive `[lo, hi]` ranges. */
export function toRanges(codes) {
  const ranges = [];
  for (const code of codes) {
    const last = ranges.at(-1);
    if (last !== undefined && last[1] === code - 1) last[1] = code;
    else ranges.push([code, code]);
  }
  return ranges;
}

/** Ranges as the tables' lines. */
export function encodeRanges(ranges, width) {
  const numbers = [];
  let next = 0;
  for (const [lo, hi] of ranges) {
    numbers.push((lo - next).toString(36), (hi - lo).toString(36));
    next = hi + 1;
  }
  return wrapWords(numbers, width, '');
}

/** Words joined by spaces into lines of at most `width` characters, each line starting with `lead`. */
export function wrapWords(words, width, lead) {
  const lines = [];
  let line = lead;
  for (const word of words) {
    if (line.length + word.length + 1 > width && line !== lead) {
      lines.push(line);
      line = lead;
    }
    line += line === '' ? word : ` ${word}`;
  }
  if (line !== lead) lines.push(line);
  return lines;
}
