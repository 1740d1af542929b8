// A host's glob tool, in the shape of gemini-cli's (packages/core/src/tools/glob.ts: its node-glob
// call, its recent-first sort, its answer), switched from node-glob to find-file by its import line
// alone. docs/compat.md quotes this file whole (a test keeps them equal).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { escape, glob } from 'find-file/glob'; // was: import { glob, escape } from 'glob';

export interface GlobParams {
  pattern: string;
  dir_path?: string;
  case_sensitive?: boolean;
}

/** As gemini-cli's `GlobPath`: the two members of node-glob's `Path` its tool reads. */
export interface GlobPath {
  fullpath(): string;
  mtimeMs?: number;
}

/** gemini-cli's `sortFileEntries`: files changed within `recentMs` first, newest first; the rest by path. */
export function sortFileEntries<T extends GlobPath>(entries: T[], now: number, recentMs: number): T[] {
  return [...entries].sort((a, b) => {
    const aRecent = now - (a.mtimeMs ?? 0) < recentMs;
    const bRecent = now - (b.mtimeMs ?? 0) < recentMs;
    if (aRecent && bRecent) return (b.mtimeMs ?? 0) - (a.mtimeMs ?? 0);
    if (aRecent !== bRecent) return aRecent ? -1 : 1;
    return a.fullpath().localeCompare(b.fullpath());
  });
}

export async function globTool(params: GlobParams, root: string, signal: AbortSignal, now = Date.now()): Promise<string> {
  const searchDir = params.dir_path ?? root;
  // A pattern that names an existing file (`app/[id]/page.tsx`) is meant literally.
  const pattern = existsSync(join(searchDir, params.pattern)) ? escape(params.pattern) : params.pattern;
  const entries = await glob(pattern, {
    cwd: searchDir,
    withFileTypes: true,
    nodir: true,
    stat: true,
    nocase: !params.case_sensitive,
    dot: true,
    ignore: ['**/node_modules/**', '**/.git/**'],
    follow: false,
    signal,
  });
  const sorted = sortFileEntries(entries, now, 24 * 60 * 60 * 1000);
  const lines =
    sorted.length === 0
      ? [`No files found matching pattern "${params.pattern}"`]
      : [`Found ${sorted.length} file(s) matching "${params.pattern}", sorted by modification time (newest first):`, ...sorted.map((entry) => entry.fullpath())];
  // The one addition: node-glob's array cannot say what it did not read; find-file's carries it.
  const { complete, incompleteReasons, skipped } = entries.result;
  if (!complete) {
    lines.push(
      `WARNING: the search was incomplete (${incompleteReasons.join(', ')}). These could not be read, and a match may be inside them:`,
      ...skipped.map((entry) => `  ${entry.path} (${entry.code})`),
      'Do not conclude that a file does not exist from this answer.',
    );
  }
  return lines.join('\n');
}
