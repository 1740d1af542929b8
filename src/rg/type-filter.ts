/**
 * The file-type filter content search gives ripgrep, so that it opens only the files a pattern can
 * select. Without one it reads every file under the root: over /proc it blocks for ever in
 * `open("kmsg")`, over a tracefs mount it reads `trace_pipe`, and on /usr/share a search for
 * `os-release` took four times the walker's time. The rules this module keeps:
 *
 * - ripgrep may open MORE files than find-file's matcher selects, never fewer: every event is still
 *   filtered by the walker's matcher (src/walk/rules.ts), so the filter decides speed and scope only.
 * - A type glob (`--type-add=<name>:<glob>`, `--type=<name>`) is matched against the file NAME only
 *   (rg 13 measured: a directory name holding a newline does not matter, `*` matches a newline or
 *   a byte that is not UTF-8 inside a name), unlike `--glob=in*`, which rg 13 does not match
 *   against `d<LF>x/in.ts` (docs/ripgrep.md). Types never apply to directories: every directory the
 *   walker would read is still entered, and its read errors still reported.
 * - So a pattern gives its last segment, when ripgrep reads that segment as the walker does:
 *   printable ASCII (`?` is one byte to ripgrep, one character to us; case folding differs beyond
 *   ASCII), no `?`, `[`, `]`, `{`, `}`, `(`, `)`, `|`, `!`, `\` (classes, alternatives, extglobs
 *   and escapes are read differently or not at all), no `**`, and no `,` or `:`, which
 *   `--type-add` reads as its own syntax (`name:glob,glob`, `name:include:type`). Braces are
 *   already expanded into alternatives (src/patterns.ts), each its own flag. ripgrep's type globs
 *   match case exactly: with `caseSensitive: false` only a segment with no letter qualifies.
 * - One pattern alternative with no such segment (or a directory-only one, or `*`) means no filter
 *   at all: the union of the others would leave its files out.
 */

/** The type find-file defines. `--no-config` keeps any user type out, and ripgrep has no type of this name. */
const TYPE_NAME = 'findfile';

/**
 * At most this many characters of type globs in one argv: Windows caps a command line at 32,767
 * characters, and the excludes and the query share it. A pattern list past it gets no filter.
 */
export const MAX_TYPE_GLOB_CHARS = 8_192;

const PRINTABLE_ASCII = /^[\x20-\x7e]+$/;
const UNSAFE = /[?[\]{}()|!\\,:]/;

/** `--type-add=findfile:<glob>` for each glob, then `--type=findfile`; none when a pattern has no safe last segment. */
export function buildTypeArgs(patterns: readonly string[], caseSensitive: boolean): string[] {
  const globs = new Set<string>();
  let chars = 0;
  for (const pattern of patterns) {
    const glob = typeGlobOf(pattern, caseSensitive);
    if (glob === undefined) return [];
    if (!globs.has(glob)) chars += glob.length;
    globs.add(glob);
  }
  if (globs.size === 0 || chars > MAX_TYPE_GLOB_CHARS) return [];
  return [...[...globs].map((glob) => `--type-add=${TYPE_NAME}:${glob}`), `--type=${TYPE_NAME}`];
}

/** The last segment of a normalised pattern alternative as a type glob, or undefined when ripgrep could read it otherwise. */
export function typeGlobOf(pattern: string, caseSensitive: boolean): string | undefined {
  // A directory-only alternative selects by the directory: no file name to filter on.
  if (pattern.endsWith('/')) return undefined;
  const last = pattern.slice(pattern.lastIndexOf('/') + 1);
  if (!PRINTABLE_ASCII.test(last) || UNSAFE.test(last) || last.includes('**')) return undefined;
  // Every name: a filter that leaves nothing out is only a longer argv.
  if (/^\*+$/.test(last)) return undefined;
  if (!caseSensitive && /[A-Za-z]/.test(last)) return undefined;
  return last;
}
