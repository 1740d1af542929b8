/**
 * Colour on stdout: paths as fd colours them (LS_COLORS), content lines as rg colours them. The rules:
 *
 * - `--color never|always|auto` (default auto); with auto, `NO_COLOR` (not empty) means never, then
 *   `FORCE_COLOR` (set, not `0` or `false`) means always, then a terminal on stdout means colour;
 *   so auto never colours into a pipe or a file. `--json`, `--ndjson` and `-0` are never coloured,
 *   whatever was asked: they are for programs.
 * - Coloured text is always escaped first (src/text-escape.ts), then painted: an ESC in a name is
 *   shown as `\u{1b}`, so only our own sequences reach the terminal.
 * - LS_COLORS is read by a small parser of our own (GNU's `key=SGR` list split on `:`), not a
 *   package: the whole format is twenty lines, and a value that is not an SGR list (digits and `;`)
 *   is dropped, so the variable cannot make us print any other escape sequence.
 * - A path: its directory part in `di`'s style, its name by its kind (`di`, `ln`, `pi`, `so`, `bd`,
 *   `cd`, `ex` for an executable file), else by the longest matching `*.ext` suffix (case ignored,
 *   as fd's lscolors), else `fi`. Without LS_COLORS, GNU's defaults for the kinds, as fd.
 * - A content line as rg's defaults: the path magenta, the line number green, each match bold red.
 */
import { lstatSync } from 'node:fs';
import * as path from 'node:path';
import { kindOf } from '../fs.js';
import type { EntryType } from '../options.js';
import { escapeText } from '../text-escape.js';
import type { OutputMode } from './args.js';

export const COLOR_CHOICES = ['auto', 'always', 'never'] as const;
export type ColorChoice = (typeof COLOR_CHOICES)[number];

/** Whether stdout is coloured (see the rules above). */
export function shouldColorStdout(choice: ColorChoice, output: OutputMode, stream: { isTTY?: boolean }, env: Record<string, string | undefined>): boolean {
  return output === 'human' && shouldColor(choice, stream, env);
}

/**
 * Whether a stream a person reads is coloured: stdout's paths and lines, and stderr's summary and
 * progress line, by the same `--color`, `NO_COLOR` and `FORCE_COLOR` (each stream's own terminal test).
 */
export function shouldColor(choice: ColorChoice, stream: { isTTY?: boolean }, env: Record<string, string | undefined>): boolean {
  if (choice === 'never') return false;
  if (choice === 'always') return true;
  if (env.NO_COLOR) return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false') return true;
  return stream.isTTY === true;
}

/** `text` in an SGR style (`01;34`), reset after. */
export function paint(sgr: string | undefined, text: string): string {
  return sgr === undefined || text === '' ? text : `\x1b[${sgr}m${text}\x1b[0m`;
}

type Kind = 'di' | 'ln' | 'pi' | 'so' | 'bd' | 'cd' | 'ex' | 'fi';

export interface LsColors {
  kinds: Partial<Record<Kind, string>>;
  /** `*.ts=...` as [".ts", style], longest suffix first. */
  suffixes: [string, string][];
}

/** GNU dircolors' defaults for the kinds (what fd uses without LS_COLORS). */
const DEFAULT_LS_COLORS = 'di=01;34:ln=01;36:pi=40;33:so=01;35:bd=40;33;01:cd=40;33;01:ex=01;32';

const KINDS: ReadonlySet<string> = new Set<Kind>(['di', 'ln', 'pi', 'so', 'bd', 'cd', 'ex', 'fi']);
const SGR = /^[0-9;]+$/;

export function parseLsColors(text: string | undefined): LsColors {
  const colors: LsColors = { kinds: {}, suffixes: [] };
  for (const entry of (text === undefined || text === '' ? DEFAULT_LS_COLORS : text).split(':')) {
    const at = entry.indexOf('=');
    const [key, sgr] = [entry.slice(0, at), entry.slice(at + 1)];
    if (at <= 0 || !SGR.test(sgr)) continue;
    if (key.startsWith('*') && key.length > 1) colors.suffixes.push([key.slice(1).toLowerCase(), sgr]);
    else if (KINDS.has(key)) colors.kinds[key as Kind] = sgr;
  }
  colors.suffixes.sort((a, b) => b[0].length - a[0].length);
  return colors;
}

/** LS_COLORS' name for each kind find-file tells (a file may still turn out `ex`). */
const LS_KIND: Record<EntryType, Kind> = { file: 'fi', directory: 'di', symlink: 'ln', pipe: 'pi', socket: 'so', 'block-device': 'bd', 'char-device': 'cd' };

/** The kind of the entry at `file` as LS_COLORS names it; undefined when it cannot be read. */
function lsKindOf(file: string): Kind | undefined {
  try {
    const stats = lstatSync(file);
    const kind = LS_KIND[kindOf(stats) ?? 'file'];
    return kind === 'fi' && process.platform !== 'win32' && (stats.mode & 0o111) !== 0 ? 'ex' : kind;
  } catch {
    return undefined;
  }
}

/**
 * The painter of listed paths: `shown` is the path as printed (raw), `file` where it is on disk
 * (for its kind: one lstat per path, as fd reads each entry's type). Escapes, then paints.
 */
export function buildPathPainter(colors: LsColors, sep: string = path.sep): (shown: string, file: string) => string {
  return (shown, file) => {
    const cut = shown.lastIndexOf(sep) + 1;
    const name = shown.slice(cut);
    const kind = lsKindOf(file);
    const lower = name.toLowerCase();
    const bySuffix = kind === 'fi' || kind === undefined ? colors.suffixes.find(([suffix]) => lower.endsWith(suffix))?.[1] : undefined;
    const style = (kind !== undefined && kind !== 'fi' ? colors.kinds[kind] : undefined) ?? bySuffix ?? (kind === undefined ? undefined : colors.kinds[kind]);
    return paint(colors.kinds.di, escapeText(shown.slice(0, cut))) + paint(style, escapeText(name));
  };
}

/** rg's default colours. */
export const RG_STYLES = { path: '35', line: '32', match: '1;31' } as const;

/**
 * A hit's line with each match painted bold red, escaped piece by piece: `matcher` is the search's
 * own (content/query.ts), so what is painted is what matched.
 */
export function highlightMatches(text: string, matcher: { find(text: string, from: number): number; lastEnd: number }): string {
  let out = '';
  let at = 0;
  for (let from = 0; from <= text.length; ) {
    const start = matcher.find(text, from);
    if (start === -1) break;
    const end = matcher.lastEnd;
    if (end <= start) {
      from = start + 1; // an empty match paints nothing
      continue;
    }
    out += escapePiece(text, at, start) + paint(RG_STYLES.match, escapePiece(text, start, end));
    at = from = end;
  }
  return out + escapeText(text.slice(at));
}

/**
 * `line.slice(from, to)` escaped as it is within the whole line: escapeText looks ahead (a
 * backslash before `u{` is escaped), so the piece is escaped with the two characters after it,
 * which are then cut off again.
 */
function escapePiece(line: string, from: number, to: number): string {
  const tail = line.slice(to, to + 2);
  const shown = escapeText(line.slice(from, to) + tail);
  return shown.slice(0, shown.length - escapeText(tail).length);
}
