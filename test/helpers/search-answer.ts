/** What the ripgrep hardening tests share: the shape of a search's answer, and stderr read as a run reads it. */
import { StderrReader } from '../../src/rg/stderr.js';

/** What the ripgrep hardening tests keep of one search's answer (a form and engine's name, and its verdict). */
export interface SearchAnswer {
  name: string;
  backend: string;
  matches: string[];
  skipped: { path: string; code: string }[];
  complete: boolean;
  incompleteReasons: string[];
  fallbackReason?: string;
}

/** ripgrep's stderr `lines` read and checked against the disk under `root`, as a run on POSIX reads them. */
export function checkedStderr(root: string, ...lines: string[]) {
  const reader = new StderrReader('posix');
  for (const line of lines) reader.line(line);
  return reader.checkedReport(root, () => false);
}
