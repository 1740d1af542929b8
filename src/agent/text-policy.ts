/**
 * What was left out on purpose, in the words of an answer (text.ts): the policy line, and after a
 * complete answer that found nothing, what that absence does not cover: the files the ignore
 * files left out, and the binary files an engine left without counting them (ripgrep).
 */
import type { Policy } from './text.js';
import { count } from './text-words.js';

export const BINARY_UNCOUNTED_NOTE = 'Binary files are not searched, and ripgrep does not say which it left out: text inside a binary file is not found by this search.';

/** `Left out by policy: ...`, or undefined when nothing was. ripgrep's binary count is a lower bound: "at least". */
export function policyLine(policy: Policy): string | undefined {
  const parts: string[] = [];
  if (policy.excludedCount > 0) parts.push(`${count(policy.excludedCount, 'entry', 'entries')} matching the excludes ${policy.exclude.join(', ')}`);
  if (policy.symlinkSkipped > 0) parts.push(`${count(policy.symlinkSkipped, 'symbolic link')} not followed`);
  if ((policy.binarySkipped ?? 0) > 0) parts.push(`${policy.binaryCounted === false ? 'at least ' : ''}${count(policy.binarySkipped!, 'binary file')} skipped`);
  if ((policy.ignored?.count ?? 0) > 0) parts.push(`${count(policy.ignored!.count, 'path')} ignored by ignore files (.gitignore, .ignore)`);
  return parts.length === 0 ? undefined : `Left out by policy: ${parts.join('; ')}.`;
}

/**
 * After a complete answer that found nothing: each thing its absence does not cover, so it never
 * reads as "not there" for an ignored file or a binary one. Said only where something may have been
 * left out: a walk that counted none has nothing to add.
 */
export function afterEmptyAnswer(policy: Policy): string[] {
  const notes: string[] = [];
  const ignored = policy.ignored;
  if (ignored !== undefined && (ignored.count > 0 || !ignored.counted)) {
    const what = ignored.counted ? `Ignore files left out ${count(ignored.count, 'path')}` : 'Ignore files were applied (ripgrep does not count what they left out)';
    notes.push(`${what}: search again with respect_git_ignore: false to include ignored files.`);
  }
  if (policy.binaryCounted === false && policy.binarySkipped === 0) notes.push(BINARY_UNCOUNTED_NOTE);
  return notes;
}
