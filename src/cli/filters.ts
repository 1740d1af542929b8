/**
 * The command's entry filters as fd spells them, turned into the library's absolute options:
 *
 * - `-t/--type f|d|l|p|s|b|c` (also `file`, `dir`/`directory`, `symlink`, and fd's `pipe`,
 *   `socket`, `block-device`, `char-device` for the special files), repeatable: a list of kinds;
 * - `--changed-within WHEN` / `--changed-before WHEN`: a duration back from the wall clock when
 *   the command started (`2h`, `3d`, `1week`, `10min`, `90s`, `2weeks 3d`: humantime's units, as
 *   fd's), or a date (`2026-01-31`, `2026-01-31 12:00:00`, `2026-01-31T12:00:00Z`; without a zone,
 *   local time, as fd), or `@SECONDS` since the epoch. The library takes instants only: "now" is
 *   read here, once, from `Date.now()` (the library's clock is monotonic, for budgets);
 * - `-S/--size [+-]N[unit]`, repeatable, as fd: `+` at least, `-` at most, no sign exactly; units
 *   `b`, `k`/`kb` (1000), `ki`/`kib` (1024), `m`, `mi`, `g`, `gi`, `t`, `ti`, case ignored, a unit required.
 *
 * Every refusal is a usage error naming the flag and the text (status 2).
 */
import type { EntryType } from '../plan/select.js';

const TYPE_LETTERS: Record<string, EntryType> = {
  f: 'file', file: 'file', d: 'directory', dir: 'directory', directory: 'directory', l: 'symlink', symlink: 'symlink',
  p: 'pipe', pipe: 'pipe', s: 'socket', socket: 'socket', b: 'block-device', 'block-device': 'block-device', c: 'char-device', 'char-device': 'char-device',
};

/** Every word `-t` takes (letters and names, any case), as completions offer them. */
export const TYPE_WORDS: readonly string[] = Object.keys(TYPE_LETTERS);

/** `-t` values, repeatable, each one kind. */
export function parseTypes(value: string | string[]): EntryType[] {
  const kinds = [value].flat().map((text) => {
    const key = text.toLowerCase();
    // Own keys only: `-t constructor` is no kind.
    if (!Object.hasOwn(TYPE_LETTERS, key)) throw new Error(`--type must be f (file), d (directory), l (symlink), p (pipe), s (socket), b (block-device) or c (char-device), got ${JSON.stringify(text)}`);
    return TYPE_LETTERS[key]!;
  });
  return [...new Set(kinds)];
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** humantime's units (fd parses durations with it): `m` is minutes, `M` months. */
const DURATION_UNITS: [RegExp, number][] = [
  [/^(ms|msec|millis|milliseconds?)$/, 1],
  [/^(s|sec|secs|seconds?)$/, SECOND],
  [/^(m|min|mins|minutes?)$/, MINUTE],
  [/^(h|hr|hrs|hours?)$/, HOUR],
  [/^(d|days?)$/, DAY],
  [/^(w|weeks?)$/, 7 * DAY],
  [/^(M|months?)$/, 30.44 * DAY],
  [/^(y|years?)$/, 365.25 * DAY],
];

/** `2h`, `2weeks 3d`, `1h30m`: milliseconds, or undefined when the text is no duration. */
export function parseDuration(text: string): number | undefined {
  const parts = text.trim().match(/\d+\s*[a-zA-Z]+/g);
  if (parts === null || parts.join('').replace(/\s/g, '') !== text.replace(/\s/g, '')) return undefined;
  let total = 0;
  for (const part of parts) {
    const [, digits, unit] = /^(\d+)\s*([a-zA-Z]+)$/.exec(part)!;
    const scale = DURATION_UNITS.find(([name]) => name.test(unit!))?.[1];
    if (scale === undefined) return undefined;
    total += Number(digits) * scale;
  }
  return total;
}

/** `2026-01-31`, `2026-01-31 12:00[:00]`, ISO with a zone, `@SECONDS`: epoch ms, or undefined. */
export function parseDate(text: string): number | undefined {
  const at = /^@(-?\d+)$/.exec(text);
  if (at !== null) return Number(at[1]) * SECOND;
  const local = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(text);
  if (local !== null) {
    const [y, mo, d, h, mi, s] = local.slice(1).map((v) => Number(v ?? 0)) as [number, number, number, number, number, number];
    const when = new Date(y, mo - 1, d, h, mi, s);
    // `2026-02-30` would roll over to March: refuse a date that does not exist.
    return when.getMonth() === mo - 1 && when.getDate() === d ? when.getTime() : undefined;
  }
  if (/^\d{4}-\d{2}-\d{2}T.*(Z|[+-]\d{2}:?\d{2})$/.test(text)) {
    const ms = Date.parse(text);
    return Number.isNaN(ms) ? undefined : ms;
  }
  return undefined;
}

/** A `--changed-*` value as an instant: a duration back from `now`, or a date. */
export function parseWhen(flag: string, now: number): (value: string | string[]) => number {
  return (value) => {
    const text = [value].flat().at(-1)!;
    const duration = parseDuration(text);
    const when = duration === undefined ? parseDate(text) : now - duration;
    if (when === undefined) throw new Error(`${flag} must be a duration (2h, 3d, 1week) or a date (2026-01-31, "2026-01-31 12:00:00", @SECONDS), got ${JSON.stringify(text)}`);
    return when;
  };
}

const SIZE_UNITS: Record<string, number> = { b: 1, k: 1e3, ki: 1024, m: 1e6, mi: 1024 ** 2, g: 1e9, gi: 1024 ** 3, t: 1e12, ti: 1024 ** 4 };

export interface SizeBounds {
  minSize?: number;
  maxSize?: number;
}

/** `-S` values, repeatable: every bound applies, so the tightest of each side is kept. */
export function parseSizes(value: string | string[]): SizeBounds {
  const bounds: SizeBounds = {};
  for (const text of [value].flat()) {
    const m = /^([+-]?)(\d+)(b|[kmgt]i?b?)$/i.exec(text);
    const bytes = m === null ? NaN : Number(m[2]) * SIZE_UNITS[m[3]!.toLowerCase().replace(/(.)b$/, '$1')]!;
    if (m === null || !Number.isSafeInteger(bytes)) throw new Error(`--size must be [+-]N with a unit (b, k, ki, m, mi, g, gi, t, ti), as fd: +10k, -1M, 500b; got ${JSON.stringify(text)}`);
    if (m[1] !== '-') bounds.minSize = Math.max(bounds.minSize ?? 0, bytes);
    if (m[1] !== '+') bounds.maxSize = Math.min(bounds.maxSize ?? Infinity, bytes);
  }
  return bounds;
}
