// A host's glob tool, in the shape gemini-cli and Qwen Code give theirs, switched from node-glob to
// find-file by its import line alone. docs/compat.md quotes this file whole (a test keeps them equal).
import { glob } from 'find-file/glob'; // was: import { glob } from 'glob';

export interface GlobParams {
  pattern: string;
  path?: string;
  case_sensitive?: boolean;
}

export async function globTool(params: GlobParams, root: string, signal: AbortSignal): Promise<string> {
  const paths = await glob(params.pattern, {
    cwd: params.path ?? root,
    nocase: !params.case_sensitive,
    dot: true,
    ignore: ['**/node_modules/**', '**/.git/**'],
    follow: false,
    signal,
  });
  const lines = [`Found ${paths.length} file(s) matching "${params.pattern}":`, ...paths.sort()];
  // The one addition: node-glob's array cannot say what it did not read; find-file's carries it.
  const { complete, incompleteReasons, skipped } = paths.result;
  if (!complete) {
    lines.push(
      `WARNING: the search was incomplete (${incompleteReasons.join(', ')}). These could not be read, and a match may be inside them:`,
      ...skipped.map((entry) => `  ${entry.path} (${entry.code})`),
      'Do not conclude that a file does not exist from this answer.',
    );
  }
  return lines.join('\n');
}
