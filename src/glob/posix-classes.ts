/** TEMPORARY (replaced by the glibc-generated tables): POSIX classes by Unicode property. */
const CLASSES: Record<string, RegExp> = {
  alnum: /[\p{L}\p{Nd}]/u,
  alpha: /\p{L}/u,
  ascii: /[\x00-\x7F]/u,
  blank: /[ \t]/u,
  cntrl: /\p{Cc}/u,
  digit: /[0-9]/u,
  graph: /[\p{L}\p{M}\p{N}\p{P}\p{S}]/u,
  lower: /\p{Ll}/u,
  print: /[ \p{L}\p{M}\p{N}\p{P}\p{S}]/u,
  punct: /[\p{P}\p{S}]/u,
  space: /\s/u,
  upper: /\p{Lu}/u,
  word: /[\p{L}\p{Nd}_]/u,
  xdigit: /[0-9A-Fa-f]/u,
};
export const POSIX_CLASS_NAMES = Object.keys(CLASSES);
export function isPosixClassName(name: string): boolean {
  return Object.hasOwn(CLASSES, name);
}
export function isInPosixClass(name: string, cp: number): boolean {
  return CLASSES[name]!.test(String.fromCodePoint(cp));
}
