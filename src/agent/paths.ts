/**
 * Workspace confinement: turns the model's `path` into a search root inside the workspace, or a
 * refusal. The rules:
 *
 * - No path (or `.`) is the workspace root itself.
 * - `\` is read as a separator on every platform: a model that writes `..\..\etc` means to climb.
 * - A relative path is resolved segment by segment; one `..` too many is refused.
 * - An absolute path (`/x`, `C:\x`, `\\server\share`) is accepted only when it lies inside the
 *   workspace; a drive-relative `C:x`, or a drive letter on a POSIX workspace, is refused.
 * - Every component below the workspace root is `lstat`ed: a symbolic link (or junction) is refused,
 *   since the search root is opened even when it is a link and could lead anywhere. A component that
 *   cannot be `lstat`ed for another reason than absence is left to the search, which reports it.
 */
import * as path from 'node:path';
import type { FsLike, StatsLike } from '../fs.js';
import { nativePath } from '../paths.js';
import { errorCodeOf } from '../result.js';
import type { Settings } from './context.js';

/** A search root inside the workspace. */
export interface Scope {
  ok: true;
  /** Native absolute path. */
  root: string;
  /** Workspace-relative with `/`; `''` for the workspace root. */
  rel: string;
  /** The `path` named a file in `root` (grep only): this is its name, and only it is searched. */
  file?: string;
}

/** Names a glob would read as more than themselves: such a file cannot be grep's target by name. */
const GLOB_SYNTAX = /[*?[\]{}()\\!@+|]/;

export type RefusalKind =
  | 'nul'
  | 'absolute-outside'
  | 'climbs-out'
  | 'drive'
  | 'link'
  | 'not-found'
  | 'not-directory';

/** Why a `path` cannot be searched; `text.ts` words it. */
export interface Refusal {
  ok: false;
  kind: RefusalKind;
  /** The model's `path`, as given. */
  input: string;
  /** Workspace-relative: the link met, the file met, or the deepest directory that exists. */
  at: string;
}

export async function resolveScope(settings: Settings, input: string | undefined, acceptFile = false): Promise<Scope | Refusal> {
  const { workspaceRoot, platform } = settings;
  const paths = platform === 'win32' ? path.win32 : path.posix;
  if (input === undefined || input === '' || input === '.') return { ok: true, root: workspaceRoot, rel: '' };
  const refuse = (kind: RefusalKind, at = ''): Refusal => ({ ok: false, kind, input, at });
  if (input.includes('\0')) return refuse('nul');
  const slashed = input.replace(/\\/g, '/');
  let relative: string;
  if (/^[A-Za-z]:/.test(slashed)) {
    // `C:x` means "the current directory of drive C": not a place the model can know.
    if (platform !== 'win32' || !/^[A-Za-z]:\//.test(slashed)) return refuse('drive');
    const inside = containedPath(paths, workspaceRoot, slashed);
    if (inside === undefined) return refuse('absolute-outside');
    relative = inside;
  } else if (slashed.startsWith('/')) {
    const inside = containedPath(paths, workspaceRoot, platform === 'win32' ? input : slashed);
    if (inside === undefined) return refuse('absolute-outside');
    relative = inside;
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
  if (segments.length === 0) return { ok: true, root: workspaceRoot, rel: '' };
  for (let i = 0; i < segments.length; i++) {
    const rel = segments.slice(0, i + 1).join('/');
    const { stats, code } = await lstat(settings.fs, workspaceNative(settings, rel));
    if (code === 'ENOENT' || code === 'ENOTDIR') return refuse('not-found', segments.slice(0, i).join('/'));
    // Unreadable for another reason: the search itself will meet it and report it as skipped.
    if (stats === undefined) break;
    if (stats.isSymbolicLink()) return refuse('link', rel);
    const last = i === segments.length - 1;
    // grep may search one file: its directory is the root, its name the only pattern (when a glob reads it as itself).
    if (last && acceptFile && stats.isFile() && !GLOB_SYNTAX.test(segments[i]!)) {
      const parent = segments.slice(0, i).join('/');
      return { ok: true, root: workspaceNative(settings, parent), rel: parent, file: segments[i]! };
    }
    if (!stats.isDirectory()) return refuse(last ? 'not-directory' : 'not-found', last ? rel : segments.slice(0, i).join('/'));
  }
  const rel = segments.join('/');
  return { ok: true, root: workspaceNative(settings, rel), rel };
}

/** The native path of a workspace-relative one (`''`: the workspace root itself). */
export function workspaceNative(settings: Settings, rel: string): string {
  return rel === '' ? settings.workspaceRoot : nativePath(settings.workspacePrefix, settings.sep, rel);
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
