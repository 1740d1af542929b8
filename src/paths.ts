/**
 * Root-relative paths (`/` separators, what every result holds) and native ones. The one place that
 * joins a root and a relative path: the walker's reads, `absolute: true`, content search's opens,
 * ripgrep's undecodable-name checks, the agent's sizes and the CLI's display all come through here.
 */

export type Separator = '/' | '\\';

/** `root` ending in exactly one separator: a child's native path is `prefix + rel`. */
export function withSeparator(root: string, sep: Separator): string {
  return root.endsWith(sep) ? root : root + sep;
}

/** `rel` with the platform's separator. */
export function toNativeSeparators(rel: string, sep: Separator): string {
  return sep === '/' ? rel : rel.replace(/\//g, sep);
}

/** The native path of a root-relative one, under a root prefix (`withSeparator`). */
export function nativePath(prefix: string, sep: Separator, rel: string): string {
  return prefix + toNativeSeparators(rel, sep);
}

/** `nativePath` compiled once for one root: the identity join on posix (the hot loops' case). */
export function buildNativePath(prefix: string, sep: Separator): (rel: string) => string {
  return sep === '/' ? (rel) => prefix + rel : (rel) => prefix + rel.replace(/\//g, sep);
}
