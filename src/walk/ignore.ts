/**
 * Ignore files, with ripgrep 13's default semantics (`rg --files --hidden --no-ignore-global`), for
 * `gitignore: true`. Each file's rules are read as ripgrep reads them (src/walk/gitignore-rules.ts,
 * case-sensitive); which files apply, and in what order, is ripgrep's `ignore` crate's rule:
 *
 * - sources, strongest first: `.rgignore`, `.ignore`, `.gitignore`, `.git/info/exclude`, then the
 *   files named in `ignoreFiles` (ripgrep's `--ignore-file`: rules relative to the search root);
 *   the user's global gitignore is never read, so an answer does not depend on the machine;
 * - within a source the deepest directory that has a rule for the path decides (a negation there
 *   re-includes what a parent's file ignores); a stronger source's decision wins over any weaker one;
 * - `.gitignore` and `.git/info/exclude` apply only inside a git repository (a `.git` in the
 *   directory or above), and not above the repository's root; `.ignore` and `.rgignore` apply
 *   anywhere, including in the parents of the search root;
 * - an ignored directory is never read, so nothing below it can be re-included;
 * - the parents are the real root's (symlinks resolved, as ripgrep canonicalizes the root), not
 *   the parents of a link the root is, or passes through.
 *
 * An ignore file that exists and cannot be read is not applied, and is a gap (src/walk/ignore-io.ts):
 * one `!` rule in it could re-include what a parent's file ignores.
 */
import * as path from 'node:path';
import { ignoreFileError } from '../errors.js';
import type { IgnoreGeometry } from '../plan/search-plan.js';
import { decodeIgnoreFile, hasTooLargeRule, testIgnoreRules, type IgnoreRule } from './gitignore-rules.js';
import { parseIgnoreFile, SLICED_TEXT, type ParsedAhead } from './rule-reader.js';

/** The `skipped` code of an ignore file with a rule too long to compile, not applied (src/walk/gitignore-rules.ts). */
export const IGNORE_RULE_TOO_LARGE = 'FF_IGNORE_RULE_TOO_LARGE';

/** Told the path of each ignore file with a rule too long to compile (native for a parent of the root or an `ignoreFiles`, else root-relative). */
export type TooLargeFunction = (path: string) => void;

/** The ignore files a directory can hold, strongest first; a repository's top adds `GIT_EXCLUDE`. */
export const IGNORE_FILE_NAMES = ['.rgignore', '.ignore', '.gitignore'] as const;
export const GIT_EXCLUDE = '.git/info/exclude';
export const GIT_DIR = '.git';

type Source = 0 | 1 | 2 | 3 | 4; // .rgignore, .ignore, .gitignore, .git/info/exclude, ignoreFiles
const SOURCES: readonly Source[] = [0, 1, 2, 3, 4];
const isGitSource = (source: Source) => source === 2 || source === 3;

/** One directory's ignore rules, linked to its parent's. Immutable: a child directory extends its parent's. */
export interface IgnoreLevel {
  readonly parent: IgnoreLevel | undefined;
  /** This directory, relative to the search root, ending in `/` (`''` for the root and its parents). */
  readonly dir: string;
  /** A parent of the root: the root relative to it, ending in `/`, put before a root-relative path (`''` at or below the root). */
  readonly lead: string;
  /** The compiled rules by source; undefined where the directory has no such file. */
  readonly rules: readonly (readonly IgnoreRule[] | undefined)[];
  /** The directory holds `.git`: the top of a repository. */
  readonly hasGit: boolean;
  /** This directory or one above it holds `.git`: git's sources apply. */
  readonly inRepository: boolean;
  /**
   * What judging one path costs, roughly: its rules' and its parents' costs per character of the
   * path, and per character of their `lead` (a parent of the root puts it before each path). The
   * walk's clock checks count it, as they count the pattern's (src/walk/engine.ts).
   */
  readonly costPerChar: number;
  readonly costFixed: number;
}

/** The texts of one directory's ignore files (undefined: absent or unreadable), and whether it holds `.git`. */
export interface IgnoreTexts {
  rgignore?: string | undefined;
  ignore?: string | undefined;
  gitignore?: string | undefined;
  exclude?: string | undefined;
  /** The `ignoreFiles`, one after the other (the search root's level only). */
  extra?: string | undefined;
  hasGit: boolean;
  /** The directory's ignore files that exist and could not be read (`EACCES`), by name, with the error's code. */
  unreadable?: { name: string; code: string }[];
  /** Long texts among them already parsed (a `parse` read, answered by the async walk in slices). */
  ahead?: ParsedAhead;
}

function compile(text: string | undefined, shouldStop: (() => boolean) | undefined, ahead: ParsedAhead | undefined): IgnoreRule[] | undefined {
  if (text === undefined) return undefined;
  const rules = parseIgnoreFile(text, shouldStop, ahead);
  return rules.length === 0 ? undefined : rules;
}

/**
 * The level of directory `dir` (relative to the root; `lead` for a parent of the root), below
 * `parent`. `where`: how `onTooLarge` names its files (the directory's path as reported).
 */
export function buildIgnoreLevel(parent: IgnoreLevel | undefined, dir: string, texts: IgnoreTexts, lead = '', shouldStop?: () => boolean, onTooLarge?: TooLargeFunction, where = dir): IgnoreLevel | undefined {
  const hasGit = texts.hasGit;
  const inRepository = hasGit || (parent?.inRepository ?? false);
  // Outside a repository git's files never apply (`decide`), here or below (a `.git` below starts a
  // repository whose top they are above): not compiled, and a rule too large in them is no gap.
  // Perf: /usr holds 31 `.gitignore` files of vendored sources and no `.git`; compiling their 787
  // lines was ~13 ms of every listing of it.
  const sources = [texts.rgignore, texts.ignore, inRepository ? texts.gitignore : undefined, texts.exclude, texts.extra];
  const names = [...IGNORE_FILE_NAMES, GIT_EXCLUDE];
  // The `ignoreFiles` (`extra`) are named one by one as read (`readTopLevels`).
  for (let i = 0; i < names.length && onTooLarge !== undefined; i++) {
    const text = sources[i];
    if (text !== undefined && hasTooLargeRule(text)) onTooLarge(where + names[i]!);
  }
  const rules = sources.map((text) => compile(text, shouldStop, texts.ahead));
  // A level with no rules and no .git adds nothing: the parent's stands (saves a link per directory),
  // and with none above there is no level at all. Perf: an empty one at the top (the root's parents
  // hold no ignore file, as for /usr) made every entry of every listing ask it, through its five
  // sources: ~50 ms of a listing of /usr's 140,000 entries.
  if (!hasGit && rules.every((r) => r === undefined)) return parent;
  const own = rules.reduce((sum, list) => sum + (list?.reduce((n, rule) => n + rule.cost, 0) ?? 0), 0);
  const costPerChar = (parent?.costPerChar ?? 0) + own;
  const costFixed = (parent?.costFixed ?? 0) + own * lead.length;
  return { parent, dir, lead, rules, hasGit, inRepository, costPerChar, costFixed };
}

/**
 * Is the entry at `rel` (relative to the search root; a directory without its trailing `/`) ignored by the rules of `level` and above?
 */
export function isIgnored(level: IgnoreLevel | undefined, rel: string, isDirectory: boolean): boolean {
  if (level === undefined) return false;
  for (const source of SOURCES) {
    const decision = decide(level, source, rel, isDirectory);
    if (decision !== undefined) return decision;
  }
  return false;
}

/** The deepest decision of one source, or undefined when none of its files has a rule for the path. */
function decide(level: IgnoreLevel, source: Source, rel: string, isDirectory: boolean): boolean | undefined {
  const git = isGitSource(source);
  if (git && !level.inRepository) return undefined;
  for (let at: IgnoreLevel | undefined = level; at !== undefined; at = at.parent) {
    const rules = at.rules[source];
    if (rules !== undefined && rel.startsWith(at.dir)) {
      const decision = testIgnoreRules(rules, at.lead + rel.slice(at.dir.length), isDirectory);
      if (decision !== undefined) return decision === 'ignore';
    }
    // Git's files above the repository's top do not apply to it.
    if (git && at.hasGit) return undefined;
  }
  return undefined;
}

/**
 * One read the ignore rules need: a file's contents (undefined when absent or unreadable), whether
 * a path exists, or a path with its symlinks resolved (the path itself when that cannot be done);
 * or long texts to parse ahead (`parseAhead`: the async walk parses them in slices, the sync one not).
 */
export type IgnoreRead = { kind: 'text'; path: string } | { kind: 'exists'; path: string } | { kind: 'realpath'; path: string } | { kind: 'parse'; texts: string[]; ahead: ParsedAhead };

/** A file that exists and could not be read, with the error's code (src/walk/ignore-io.ts). */
export interface Unreadable {
  unreadable: string;
}

/** What a read answers: a file's contents, whether a path exists, a real path, or that the file could not be read. */
export type ReadAnswer = Uint8Array | string | boolean | undefined | Unreadable;

/** A failed read of a file's contents: gone (`ENOENT`, `ENOTDIR`) or a folder is no file (undefined); anything else is `Unreadable`. */
export function unreadable(error: unknown): Unreadable | undefined {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR' ? undefined : { unreadable: code ?? 'EIO' };
}

/** Reads as a generator: the sync and async drivers answer the same requests (src/walk/ignore-io.ts). */
export type IgnoreReads<T> = Generator<IgnoreRead, T, ReadAnswer>;

/**
 * A file's text as ripgrep reads it (src/walk/gitignore-rules.ts), or undefined when absent or
 * unreadable; an unreadable one is also told to `onUnreadable` (ripgrep only warns of it).
 */
function* readText(path: string, onUnreadable?: (code: string) => void): IgnoreReads<string | undefined> {
  const contents = (yield { kind: 'text', path }) as Uint8Array | string | undefined | Unreadable;
  if (contents === undefined) return undefined;
  if (typeof contents === 'object' && 'unreadable' in contents) {
    onUnreadable?.(contents.unreadable);
    return undefined;
  }
  return decodeIgnoreFile(contents);
}

/**
 * The texts of one directory's ignore files. `present`: the directory's entry names that are ignore
 * files (or `.git`), as listed: nothing absent is asked for. `cwd`: the search root, ripgrep's cwd
 * (a worktree's relative paths are read from it: `readGitExclude`).
 */
export function* readDirectoryTexts(dirPath: string, sep: string, present: ReadonlySet<string>, cwd: string, inRepository = false): IgnoreReads<IgnoreTexts> {
  const unreadable: { name: string; code: string }[] = [];
  const text = function* (name: string): IgnoreReads<string | undefined> {
    if (!present.has(name)) return undefined;
    return yield* readText(dirPath + name, (code) => unreadable.push({ name, code }));
  };
  const rgignore = yield* text('.rgignore');
  const ignoreText = yield* text('.ignore');
  // Listed is not enough: a `.git` link must lead somewhere (see ignore-io.ts `readSync`).
  const hasGit = present.has(GIT_DIR) && (yield { kind: 'exists', path: dirPath + GIT_DIR }) === true;
  // Outside a repository a `.gitignore` defines nothing (buildIgnoreLevel), so it is not read: what it
  // says, its size and a failure to read it change no answer. Perf: the walk waits for a directory's
  // reads before it judges its entries, and /usr holds 31 such files of vendored sources.
  const gitignore = inRepository || hasGit ? yield* text('.gitignore') : undefined;
  const exclude = hasGit ? yield* readGitExclude(dirPath, sep, cwd, (code) => unreadable.push({ name: GIT_EXCLUDE, code })) : undefined;
  const texts: IgnoreTexts = { rgignore, ignore: ignoreText, gitignore, exclude, hasGit, ...(unreadable.length === 0 ? {} : { unreadable }) };
  yield* parseAhead(texts, [rgignore, ignoreText, gitignore, exclude]);
  return texts;
}

/** Asks the driver to parse the long ones of `sources` ahead, into `texts.ahead` (a `parse` read). */
function* parseAhead(texts: IgnoreTexts, sources: (string | undefined)[]): IgnoreReads<void> {
  const long = sources.filter((text): text is string => text !== undefined && text.length > SLICED_TEXT);
  if (long.length === 0) return;
  texts.ahead = new Map();
  yield { kind: 'parse', texts: long, ahead: texts.ahead };
}

/**
 * A repository's `info/exclude`: in `.git/`, or, when `.git` is a file (a worktree: `gitdir:
 * <path>`), in the common git directory its `commondir` names, as ripgrep reads it (ripgrep reads
 * none for a `.git` file without `commondir`, a submodule's). rg 13 opens a relative gitdir, and a
 * relative `commondir` that does not start with `.`, as they stand: from its cwd, the search root,
 * not from the worktree (git's reading); a `commondir` starting with `.` from the gitdir.
 */
export function* readGitExclude(dirPath: string, sep: string, cwd: string, onUnreadable: (code: string) => void): IgnoreReads<string | undefined> {
  const native = (rel: string) => rel.split('/').join(sep);
  const inDir = yield* readText(dirPath + native(GIT_EXCLUDE), onUnreadable);
  if (inDir !== undefined) return inDir;
  // As rg 13 reads both files: the first line only, `gitdir: ` exactly, the rest as it stands (a
  // space more or a trailing one makes a path that does not exist: nothing is read).
  const gitFile = firstLine(yield* readText(dirPath + GIT_DIR));
  if (gitFile === undefined || !gitFile.startsWith('gitdir: ')) return undefined;
  const paths = sep === '\\' ? path.win32 : path.posix;
  const gitdirPath = paths.resolve(cwd, gitFile.slice('gitdir: '.length));
  const commondir = firstLine(yield* readText(paths.join(gitdirPath, 'commondir')));
  // A blank first line is the path '': ripgrep then reads `info/exclude` in its cwd.
  if (commondir === undefined) return undefined;
  return yield* readText(paths.join(paths.resolve(commondir.startsWith('.') ? gitdirPath : cwd, commondir), 'info', 'exclude'));
}

/**
 * A file's first line without its line break (`\n` or `\r\n`), as rg 13 reads it (Rust's `lines()`):
 * a `\r` inside the line, or last in a file with no `\n`, is part of the line (of the path); an
 * empty file has no line at all (undefined), a file starting with `\n` a blank one.
 */
function firstLine(text: string | undefined): string | undefined {
  if (text === undefined || text === '') return undefined;
  const end = text.indexOf('\n');
  return end < 0 ? text : text.slice(0, end).replace(/\r$/, '');
}

/**
 * The levels above the search root's own: its real parents' ignore files, outermost first (with
 * `gitignore: true`; `.gitignore` applies only within the repository), then the `ignoreFiles`,
 * whose rules are relative to the root. A named file that cannot be read rejects the search.
 */
export function* readTopLevels(geometry: IgnoreGeometry, sep: string, shouldStop?: () => boolean, onTooLarge?: TooLargeFunction): IgnoreReads<IgnoreLevel | undefined> {
  let level: IgnoreLevel | undefined;
  if (geometry.defaults) {
    const real = (yield { kind: 'realpath', path: geometry.root }) as string;
    for (const { dir, lead } of listParents(real, sep)) {
      const present = new Set<string>();
      for (const name of [...IGNORE_FILE_NAMES, GIT_DIR]) if ((yield { kind: 'exists', path: dir + name }) === true) present.add(name);
      const texts = yield* readDirectoryTexts(dir, sep, present, geometry.root, level?.inRepository);
      level = buildIgnoreLevel(level, '', texts, lead, shouldStop, onTooLarge, dir);
    }
  }
  if (geometry.extraFiles.length === 0) return level;
  const texts: string[] = [];
  for (const file of geometry.extraFiles) {
    const text = yield* readText(file);
    if (text === undefined) throw ignoreFileError(file);
    if (onTooLarge !== undefined && hasTooLargeRule(text)) onTooLarge(file);
    texts.push(text);
  }
  const extra: IgnoreTexts = { extra: texts.join('\n'), hasGit: false };
  yield* parseAhead(extra, [extra.extra]);
  return buildIgnoreLevel(level, '', extra, '', shouldStop);
}

/** The parents of `root` (native), outermost first, each ending in `sep`, with the root relative to it (`/`, ending in `/`). */
function listParents(root: string, sep: string): { dir: string; lead: string }[] {
  const paths = sep === '\\' ? path.win32 : path.posix;
  const parents: { dir: string; lead: string }[] = [];
  let lead = '';
  for (let dir = root; ; ) {
    const up = paths.dirname(dir);
    if (up === dir) break;
    lead = `${paths.basename(dir)}/${lead}`;
    parents.unshift({ dir: up.endsWith(sep) ? up : up + sep, lead });
    dir = up;
  }
  return parents;
}

/** The entry names that hold or mark ignore rules (`.git`: a repository's top, with its `info/exclude`). */
const IGNORE_ENTRY_NAMES: ReadonlySet<string> = new Set([...IGNORE_FILE_NAMES, GIT_DIR]);
const DOT = 0x2e;

/**
 * Which of a listing's names hold or mark ignore rules that can apply in it; undefined when none
 * does. Outside a repository a `.gitignore` is none, unless the listing holds a `.git` too
 * (`readDirectoryTexts` reads it by the same rule). Perf: such a directory then asks for no reads
 * at all; /usr holds 31 of them, and the walks that went through the reads that read nothing took
 * ~20 ms longer (docs/performance.md, Round 29).
 */
export function ignoreNamesIn(entries: readonly { name: string }[], inRepository: boolean): Set<string> | undefined {
  let present: Set<string> | undefined;
  // Perf: every such name starts with a dot, and most names do not: no hash of them is computed
  // (readdir's names are new strings, each hashed once asked: 13 ms a walk of /usr's 140,000 entries).
  for (const { name } of entries) {
    if (name.charCodeAt(0) === DOT && IGNORE_ENTRY_NAMES.has(name)) (present ??= new Set()).add(name);
  }
  if (present === undefined || inRepository || present.has(GIT_DIR)) return present;
  present.delete('.gitignore');
  return present.size === 0 ? undefined : present;
}
