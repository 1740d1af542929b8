/**
 * Workspace confinement: turns the model's `path` into a search root inside the workspace, or a
 * refusal. The rules:
 *
 * - No path (or `.`) is the workspace root itself (the context's `root`, the primary one).
 * - `\` is read as a separator on every platform: a model that writes `..\..\etc` means to climb.
 *   On POSIX, where `\` may be a character of a name, a path not found so is looked up as written.
 * - A relative path is resolved segment by segment; one `..` too many is refused.
 * - An absolute path (`/x`, `C:\x`, `\\server\share`) is accepted only when it lies inside a
 *   workspace root (the primary one first, then the context's `roots` in order); a drive-relative
 *   `C:x`, or a drive letter on a POSIX workspace, is refused. A relative path is the primary's.
 * - Every component below the workspace root is `lstat`ed: a symbolic link (or junction) is refused,
 *   since the search root is opened even when it is a link and could lead anywhere. A component that
 *   cannot be `lstat`ed for another reason than absence is left to the search, which reports it.
 */
import * as path from 'node:path';
import { kindOf, type FsLike, type StatsLike } from '../fs.js';
import type { Deadline } from '../limits.js';
import { nativePath } from '../paths.js';
import { exactGlob } from '../patterns.js';
import { isSpecialKind } from '../plan/select.js';
import { errorCodeOf } from '../result.js';
import { within } from './bound.js';
import type { Settings, Workspace } from './context.js';

/** A search root inside the workspace. */
export interface Scope {
  ok: true;
  /** Native absolute path. */
  root: string;
  /** The workspace root it lies in. */
  workspace: Workspace;
  /** Relative to `workspace.root`, with `/`; `''` for the workspace root itself. */
  rel: string;
  /** The `path` named a file in `root` (grep only): this is its name, and only it is searched. */
  file?: string;
}

export type RefusalKind =
  | 'nul'
  | 'absolute-outside'
  | 'climbs-out'
  | 'drive'
  | 'link'
  | 'not-found'
  | 'not-directory'
  /** A FIFO, a socket or a device: never opened (a FIFO's open blocks), listed only by a glob with type "any". */
  | 'special-file';

/** Why a `path` cannot be searched; `text.ts` words it. */
export interface Refusal {
  ok: false;
  kind: RefusalKind;
  /** The model's `path`, as given. */
  input: string;
  /** As answers show paths (displayPath): the link met, the file met, or the deepest directory that exists. */
  at: string;
  /** The native path of `at`. */
  atNative: string;
  /** The workspace root the path was resolved against (the primary one for a path outside them all). */
  workspace: Workspace;
}

export async function resolveScope(settings: Settings, deadline: Deadline, input: string | undefined, acceptFile = false): Promise<Scope | Refusal> {
  const primary = settings.workspaces[0]!;
  if (input === undefined || input === '' || input === '.') return { ok: true, root: primary.root, workspace: primary, rel: '' };
  const read = await resolveAs(settings, deadline, input, input.replace(/\\/g, '/'), acceptFile);
  // On POSIX `\` is also a character of names: a path the glob tool returned (`src/win\path.txt`,
  // `\lead/x`, not an absolute path there) is found as written when the separator reading finds
  // nothing. An adversarial run: grep called it "does not exist", beside an overview listing `win\path.txt`.
  const retry = read.ok ? false : read.kind === 'not-found' || (read.kind === 'absolute-outside' && input.startsWith('\\'));
  if (!retry || settings.platform === 'win32' || !input.includes('\\')) return read;
  // Whatever it finds there is the answer (a file, a link refused as a link), unless it too finds nothing.
  const asWritten = await resolveAs(settings, deadline, input, input, acceptFile);
  return asWritten.ok || asWritten.kind !== 'not-found' ? asWritten : read;
}

/** `resolveScope` on `slashed`, the model's `input` with the separators read as `/`. */
async function resolveAs(settings: Settings, deadline: Deadline, input: string, slashed: string, acceptFile: boolean): Promise<Scope | Refusal> {
  const { platform } = settings;
  let workspace = settings.workspaces[0]!;
  const refuse = (kind: RefusalKind, at = ''): Refusal => ({ ok: false, kind, input, at: displayPath(settings, workspace, at), atNative: nativeIn(settings, workspace, at), workspace });
  if (input.includes('\0')) return refuse('nul');
  let relative: string;
  if (/^[A-Za-z]:/.test(slashed)) {
    // `C:x` means "the current directory of drive C": not a place the model can know.
    if (platform !== 'win32' || !/^[A-Za-z]:\//.test(slashed)) return refuse('drive');
    const inside = containingWorkspace(settings, slashed);
    if (inside === undefined) return refuse('absolute-outside');
    [workspace, relative] = inside;
  } else if (slashed.startsWith('/')) {
    const inside = containingWorkspace(settings, platform === 'win32' ? input : slashed);
    if (inside === undefined) return refuse('absolute-outside');
    [workspace, relative] = inside;
  } else {
    relative = slashed;
  }
  const segments: string[] = [];
  for (const segment of relative.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (segments.length === 0) return refuse('climbs-out');
      segments.pop();
    } else {
      segments.push(segment);
    }
  }
  // The path read by name above (`lnk/../x` as `x`), and known to stay in the workspace (no read
  // before a climbing-out refusal): a `..` after a link is refused as that link.
  // Each lstat within the call's budget and signal (bound.ts): one that does not answer is an unreadable
  // segment, which the search then meets (and says it stopped), never a wait as long as the read hangs.
  const lstatIn = (target: string) => within(lstat(settings.fs, target), deadline, settings, { code: 'ETIMEDOUT' });
  const link = platform === 'win32' ? undefined : await linkClimbedOutOf(settings, lstatIn, slashed.startsWith('/') ? slashed : `${workspace.root}/${slashed}`);
  if (link !== undefined) {
    workspace = link[0];
    return refuse('link', link[1]);
  }
  const scopeOf = (rel: string, file?: string): Scope => ({ ok: true, root: nativeIn(settings, workspace, rel), workspace, rel, ...(file === undefined ? {} : { file }) });
  for (let i = 0; i < segments.length; i++) {
    const rel = segments.slice(0, i + 1).join('/');
    const { stats, code } = await lstatIn(nativeIn(settings, workspace, rel));
    if (code === 'ENOENT' || code === 'ENOTDIR') return refuse('not-found', segments.slice(0, i).join('/'));
    // Unreadable for another reason: the search itself will meet it and report it as skipped.
    if (stats === undefined) break;
    if (stats.isSymbolicLink()) return refuse('link', rel);
    const last = i === segments.length - 1;
    // grep may search one file: its directory is the root, its name (escaped) the only pattern.
    if (last && acceptFile && stats.isFile() && exactGlob(segments[i]!, platform, true) !== undefined) return scopeOf(segments.slice(0, i).join('/'), segments[i]!);
    if (last && isSpecialKind(kindOf(stats))) return refuse('special-file', rel);
    if (!stats.isDirectory()) return refuse(last ? 'not-directory' : 'not-found', last ? rel : segments.slice(0, i).join('/'));
  }
  return scopeOf(segments.join('/'));
}

/** The native path of a path relative to a workspace root (`''`: the root itself). */
function nativeIn(settings: Settings, workspace: Workspace, rel: string): string {
  return rel === '' ? workspace.root : nativePath(workspace.prefix, settings.sep, rel);
}

/**
 * A path relative to a workspace root as answers show it: relative to the primary root, with `/`;
 * absolute and native under another root, so the model can pass it back as a `path` unchanged.
 */
export function displayPath(settings: Settings, workspace: Workspace, rel: string): string {
  return workspace.primary ? rel : nativeIn(settings, workspace, rel);
}

/** The native path of a path as answers show it (displayPath). */
export function workspaceNative(settings: Settings, shown: string): string {
  const paths = settings.platform === 'win32' ? path.win32 : path.posix;
  // Only a path under another root is shown absolute: a primary-relative one never is.
  return paths.isAbsolute(shown) ? shown : nativeIn(settings, settings.workspaces[0]!, shown);
}

/**
 * In an absolute POSIX path (a relative one under its workspace's root), the first link inside a workspace that a `..` climbs out of (the
 * kernel reads `lnk/..` as the parent of the link's target: an adversarial run had
 * `/w/l2/../sub` answered "does not exist" though the kernel reaches real/sub through it).
 */
async function linkClimbedOutOf(settings: Settings, lstatIn: (target: string) => Promise<{ stats?: StatsLike }>, absolute: string): Promise<[Workspace, string] | undefined> {
  const segments = absolute.split('/');
  for (let i = 2; i < segments.length; i++) {
    if (segments[i] !== '..') continue;
    const inside = containingWorkspace(settings, segments.slice(0, i).join('/'));
    if (inside === undefined || inside[1] === '') continue;
    if ((await lstatIn(nativeIn(settings, inside[0], inside[1]))).stats?.isSymbolicLink() === true) return inside;
  }
  return undefined;
}

/** The first workspace root holding an absolute path, and the path relative to it. */
function containingWorkspace(settings: Settings, absolute: string): [Workspace, string] | undefined {
  const paths = settings.platform === 'win32' ? path.win32 : path.posix;
  for (const workspace of settings.workspaces) {
    const inside = containedPath(paths, workspace.root, absolute);
    if (inside !== undefined) return [workspace, inside];
  }
  return undefined;
}

/** The workspace-relative form of an absolute path, or undefined when it lies outside. */
function containedPath(paths: typeof path.posix, workspaceRoot: string, absolute: string): string | undefined {
  const rel = paths.relative(workspaceRoot, paths.resolve(absolute));
  if (rel === '') return '';
  if (paths.isAbsolute(rel) || rel === '..' || rel.startsWith('..' + paths.sep)) return undefined;
  return rel.split(paths.sep).join('/');
}

/** One `lstat`, as a value: the stats, or the error's code (never a rejection). */
export function lstat(fs: FsLike, target: string): Promise<{ stats?: StatsLike; code?: string }> {
  return new Promise((resolve) => {
    try {
      fs.lstat(target, (error, stats) => resolve(error ? { code: errorCodeOf(error) } : { stats }));
    } catch (error) {
      resolve({ code: errorCodeOf(error) });
    }
  });
}
