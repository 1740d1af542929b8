/**
 * The agent's answer text (src/agent/text.ts) word for word, on the shapes the tool tests reach only
 * through whole searches (issue 28): links on the way beside matching links, a grep that could not
 * see links, the page cut and the limit capped, every policy count and the ignored note, the
 * one-line summary with links on the way, grep's context rows and notes, and every refusal.
 */
import { describe, expect, it } from 'vitest';
import {
  contextCappedNote,
  contextNotShownNote,
  cutLinesNote,
  hitRows,
  invalidInputText,
  invalidPatternText,
  invalidQueryText,
  linksText,
  onTheWayText,
  partialCountNote,
  perFileCapNote,
  refusalText,
  renderAnswer,
  searchFailedText,
  summaryLine,
  type AnswerFacts,
} from '../../src/agent/text.js';
import type { ContentHit } from '../../src/content/types.js';
import type { Gaps } from '../../src/agent/text-reasons.js';
import { globFacts } from '../helpers/agent.js';

const gaps = (reasons: string[]): Gaps => ({ reasons, skipped: [], timeBudgetMs: 5000, maxDepth: 4, countCap: 1000, maxOutputBytes: 1048576 });
const base: AnswerFacts = globFacts();
const NEXT = 'To look inside, search the target by a path inside the workspace, if it has one.';

describe('links on the way: absence is never claimed down them', () => {
  it('a complete empty answer with one: absence outside symlinked directories only', () => {
    expect(renderAnswer({ ...base, policy: { ...base.policy, links: { paths: [], count: 0, examined: true, onTheWay: { paths: ['ls'], count: 1 } } } })).toBe(
      `Search complete, but symlinks are never followed: no matches (files matching "x" under /w) outside symlinked directories.\n1 symlinked directory on the way was not followed: ls. ${NEXT}`,
    );
  });

  it('a matching link beside one does not lift the qualifier (a regular file may lie down the link on the way)', () => {
    expect(renderAnswer({ ...base, policy: { ...base.policy, links: { paths: ['l'], count: 1, examined: true, onTheWay: { paths: ['ls'], count: 1 } } } })).toBe(
      'Search complete, but symlinks are never followed: no regular file matches (files matching "x" under /w) outside symlinked directories; 1 symlink matches (not followed): l.\n' +
        `Also 1 symlinked directory on the way was not followed: ls. ${NEXT}`,
    );
  });

  it('with matches: each named after them, the first five and a count of the rest', () => {
    const onTheWay = { paths: ['a', 'b', 'c', 'd', 'e', 'f'], count: 7 };
    expect(renderAnswer({ ...base, lines: ['x/a'], total: { count: 1, kind: 'exact' }, policy: { ...base.policy, links: { paths: ['l'], count: 1, examined: true, onTheWay } } })).toBe(
      `x/a\nAlso 1 symlink matches (not followed): l.\nAlso 7 symlinked directories on the way were not followed: a, b, c, d, e, and 2 more. ${NEXT}`,
    );
    expect(onTheWayText({ paths: ['a'], count: 1 })).toBe(`1 symlinked directory on the way was not followed: a. ${NEXT}`);
    expect(linksText({ paths: ['a', 'b', 'c', 'd', 'e', 'f'], count: 9, examined: true })).toBe('9 symlinks match (not followed): a, b, c, d, e, and 4 more');
    expect(linksText({ paths: ['a', 'b'], count: 2, examined: true })).toBe('2 symlinks match (not followed): a, b');
  });

  it('with matches and no matching link: the one on the way is still said, after them', () => {
    expect(renderAnswer({ ...base, lines: ['x/a'], total: { count: 1, kind: 'exact' }, policy: { ...base.policy, links: { paths: [], count: 0, examined: true, onTheWay: { paths: ['ls'], count: 1 } } } })).toBe(
      `x/a\nAlso 1 symlinked directory on the way was not followed: ls. ${NEXT}`,
    );
  });

  it('a grep through ripgrep alone, which cannot see them: absence outside them, and why', () => {
    const grep: AnswerFacts = { ...base, tool: 'grep', emptyHeadline: 'No matches for "q" under /w (search complete).', scope: '"q" under /w', policy: { ...base.policy, links: { paths: [], count: 0, examined: false } } };
    expect(renderAnswer(grep)).toBe(
      'Search complete, but symlinks are never followed: no matches ("q" under /w) outside symlinked directories.\n' +
        'Symlinks and special files were not examined (ripgrep does not see them): a symlinked directory the search would have entered, or a matching link to a file, FIFO or device (never searched), would not be named here.',
    );
  });

  it('the one-line summary says the same', () => {
    const exact = { count: 0, kind: 'exact' as const };
    expect(summaryLine('file', 'matching "x"', 0, exact, true, [], { count: 2, examined: true, onTheWay: { paths: ['a'], count: 1 } })).toBe(
      'No files matching "x" outside symlinked directories (search complete); 2 symlinks match (not followed); 1 symlinked directory on the way not followed',
    );
    // Only a complete empty answer says it: one cut short says so first, and one with matches counts them.
    const onTheWay = { count: 0, examined: true, onTheWay: { paths: ['a'], count: 1 } };
    expect(summaryLine('file', 'matching "x"', 0, { count: 0, kind: 'at-least' }, false, ['time-budget'], onTheWay)).toBe('Incomplete search (time budget): 0 files matching "x" found in the part searched');
    expect(summaryLine('file', 'matching "x"', 2, { count: 2, kind: 'exact' }, true, [], onTheWay)).toBe('2 files matching "x"');
    expect(summaryLine('file', 'matching "x"', 0, exact, true, [], { count: 0, examined: true, onTheWay: { paths: ['a', 'b'], count: 2 } })).toBe(
      'No files matching "x" outside symlinked directories (search complete); 2 symlinked directories on the way not followed',
    );
  });
});

describe('the page, the limit and the policy', () => {
  it('a cut page says how to see the rest, raising the limit only while it can be raised, and a capped limit says so', () => {
    expect(renderAnswer({ ...base, lines: ['a', 'b'], total: { count: 9, kind: 'exact' }, limit: 2, limitRequested: 900 })).toBe(
      'a\nb\n(truncated: showing 2 of 9)\nNext: for the rest, make the pattern or path more specific, or raise limit (at most 500).\n(limit 900 is above the maximum: capped at 2)',
    );
    expect(renderAnswer({ ...base, lines: ['a', 'b'], total: { count: 9, kind: 'exact' }, limit: 500 })).toBe('a\nb\n(truncated: showing 2 of 9)\nNext: for the rest, make the pattern or path more specific.');
  });

  it('a search that stopped counting at the limit is cut even when the page shows every match it counted', () => {
    expect(renderAnswer({ ...base, lines: ['a', 'b'], total: { count: 2, kind: 'more-than' }, complete: false, gaps: gaps(['result-limit']), limit: 2 })).toBe(
      'a\nb\n(truncated: showing 2 of more than 2)\nNext: for the rest, make the pattern or path more specific, or raise limit (at most 500).',
    );
    expect(summaryLine('file', 'matching "x"', 2, { count: 2, kind: 'more-than' }, false, ['result-limit'])).toBe('2 of more than 2 files matching "x"');
  });

  it('reasons this tool has no words for: each listed, their one next step said once', () => {
    expect(renderAnswer({ ...base, complete: false, total: { count: 0, kind: 'at-least' }, gaps: gaps(['new-a', 'new-b']) })).toBe(
      'Search incomplete: no matches in the part that could be searched (files matching "x" under /w).\nAbsence cannot be concluded: part of the tree was not searched.\nNot searched:\n' +
        '- the search stopped short for a reason this tool cannot describe ("new-a")\n- the search stopped short for a reason this tool cannot describe ("new-b")\nNext: narrow the path and search again.',
    );
  });

  it('every policy count, and what the ignore files left out after an empty answer', () => {
    expect(renderAnswer({ ...base, policy: { exclude: ['dist', '*.log'], excludedCount: 3, symlinkSkipped: 1, binarySkipped: 2, ignored: { count: 4, counted: true } } })).toBe(
      'No files matching "x" under /w (search complete).\n' +
        'Left out by policy: 3 entries matching the excludes dist, *.log; 1 symbolic link not followed; 2 binary files skipped; 4 paths ignored by ignore files (.gitignore, .ignore).\n' +
        'Ignore files left out 4 paths: search again with respect_git_ignore: false to include ignored files.',
    );
    expect(renderAnswer({ ...base, policy: { exclude: ['a'], excludedCount: 1, symlinkSkipped: 0, ignored: { count: 0, counted: false } } })).toBe(
      'No files matching "x" under /w (search complete).\nLeft out by policy: 1 entry matching the excludes a.\n' +
        'Ignore files were applied (ripgrep does not count what they left out): search again with respect_git_ignore: false to include ignored files.',
    );
    // ripgrep leaves binary files without a word: after an empty answer the text may be in one, and its count is a lower bound.
    expect(renderAnswer({ ...base, policy: { exclude: [], excludedCount: 0, symlinkSkipped: 0, binarySkipped: 0, binaryCounted: false } })).toBe(
      'No files matching "x" under /w (search complete).\n' +
        'Binary files are not searched, and ripgrep does not say which it left out: text inside a binary file is not found by this search.',
    );
    expect(renderAnswer({ ...base, policy: { exclude: [], excludedCount: 0, symlinkSkipped: 0, binarySkipped: 2, binaryCounted: false } })).toBe(
      'No files matching "x" under /w (search complete).\nLeft out by policy: at least 2 binary files skipped.',
    );
    // Hits, or a gap, claim no absence: nothing to add.
    expect(renderAnswer({ ...base, lines: ['a'], total: { count: 1, kind: 'exact' }, policy: { exclude: [], excludedCount: 0, symlinkSkipped: 0, binarySkipped: 0, binaryCounted: false } })).toBe('a');
    // A walk that counted nothing ignored has nothing to add.
    expect(renderAnswer({ ...base, policy: { exclude: [], excludedCount: 0, symlinkSkipped: 0, ignored: { count: 0, counted: true } } })).toBe('No files matching "x" under /w (search complete).');
  });

  it('an incomplete page: the label, the warning, every reason, one next step each, then the notes and the guidance', () => {
    expect(renderAnswer({ ...base, lines: [['x-1- a', 'x:2:1: b']], total: { count: 1, kind: 'exact' }, complete: false, gaps: gaps(['time-budget', 'io-error']), notes: ['n1'], guidance: ['g1'] })).toBe(
      'x-1- a\nx:2:1: b\n(incomplete)\nWarning: the search did not cover everything, so absence elsewhere cannot be concluded.\nNot searched:\n- time budget of 5000 ms reached\n- some paths could not be read (I/O error)\n' +
        'Next: narrow the path or make the pattern more specific, so the search fits the time budget; search again; if the error persists, search a path that avoids the failing ones.\nn1\ng1',
    );
  });
});

describe('grep rows and notes', () => {
  it('context rows as rg -C prints them, a cut line marked, a break before a new group', () => {
    const hit = { path: 'p', line: 5, column: 2, text: 'ta', textTruncated: true, before: [{ line: 4, text: 'b', textTruncated: true }], after: [{ line: 6, text: 'a' }] } as unknown as ContentHit;
    expect(hitRows(hit, { path: 'p', lastLine: 1 })).toEqual(['--', 'p-4- b…', 'p:5:2: ta…', 'p-6- a']);
    expect(hitRows(hit, { path: 'p', lastLine: 3 })).toEqual(['p-4- b…', 'p:5:2: ta…', 'p-6- a']);
    expect(hitRows(hit, undefined)).toEqual(['p-4- b…', 'p:5:2: ta…', 'p-6- a']);
  });

  it('the notes', () => {
    expect(perFileCapNote(1)).toBe('(max_matches_per_file 1: only the first matching line of each file is listed; the total counts them all)');
    expect(perFileCapNote(3)).toBe('(max_matches_per_file 3: only the first 3 matching lines of each file are listed; the total counts them all)');
    expect(partialCountNote('a b', 5, 1000)).toBe(
      '(a b:5+: the search stopped inside this file, so it holds at least 5 matching lines. For the exact number, search it alone (path "a b"); one search counts up to 1000 matching lines.)',
    );
    expect(contextNotShownNote('count')).toBe('(context, before and after apply to output_mode "content" only: no context lines are listed with "count")');
    expect(contextCappedNote(50, 10)).toBe('(context 50 is above the maximum: capped at 10 lines)');
    expect(cutLinesNote(300)).toBe('(lines ending in "…" were cut at 300 characters)');
  });
});

describe('refusals and errors', () => {
  const ONE = 'Only the workspace root /w can be searched: give a path relative to it (for example "src"), or omit path to search all of it.';
  it.each([
    ['nul', 'a', 'a', `Refused: path "a" holds a NUL byte. ${ONE}`],
    ['absolute-outside', '/x', '/x', `Refused: path "/x" is outside the workspace root /w. ${ONE}`],
    ['climbs-out', '..', '..', `Refused: path ".." climbs out of the workspace root /w with "..". ${ONE}`],
    ['drive', 'C:', 'C:', `Refused: path "C:" names a drive, outside the workspace root /w. ${ONE}`],
    ['link', 'l/x', 'l', 'Refused: path "l/x" goes through the symbolic link "l", which may lead outside the workspace root /w; links are never followed. Search its target by a path inside the workspace, if it has one.'],
    ['not-found', 'n', 'n', 'Path "n" does not exist under the workspace root /w.'],
    ['special-file', 'd/f', 'd/f', 'Path "d/f" is a special file (a FIFO, socket or device), not a directory or a regular file: it is never opened, so it has no text to search. To list it, search with pattern "./f" and path "d" and type "any".'],
    ['special-file', 'f', 'f', 'Path "f" is a special file (a FIFO, socket or device), not a directory or a regular file: it is never opened, so it has no text to search. To list it, search with pattern "./f" and type "any".'],
    ['not-directory', 'C:\\d\\f.txt', 'C:\\d\\f.txt', 'Path "C:\\\\d\\\\f.txt" is a file, not a directory. To find it, search with pattern "./f.txt" and path "C:\\\\d".'],
    // A POSIX name holding `\`: the pattern escapes it (`b\c` as a glob would find `bc`).
    ['not-directory', 'a/b\\c', 'a/b\\c', 'Path "a/b\\\\c" is a file, not a directory. To find it, search with pattern "./b\\\\\\\\c" and path "a".'],
    ['not-directory', 'f', 'f', 'Path "f" is a file, not a directory. To find it, search with pattern "./f".'],
    // A directory named like a drive, below the root, is no filesystem root: no separator kept.
    ['not-directory', 'd/c:/f', 'd/c:/f', 'Path "d/c:/f" is a file, not a directory. To find it, search with pattern "./f" and path "d/c:".'],
    // A Windows UNC path: its backslashes separate too.
    ['not-directory', '\\\\srv\\share\\d\\f.txt', '\\\\srv\\share\\d\\f.txt', 'Path "\\\\\\\\srv\\\\share\\\\d\\\\f.txt" is a file, not a directory. To find it, search with pattern "./f.txt" and path "\\\\\\\\srv\\\\share\\\\d".'],
  ] as const)('%s %j', (kind, input, at, text) => {
    // A path with a drive or a UNC prefix is a win32 host's: its backslashes separate there only.
    expect(refusalText(kind, input, at, '/w', ['/w'], /^([A-Za-z]:)?\\/.test(at) ? 'win32' : 'posix')).toBe(text);
  });

  it('a file at the top of another root (a filesystem root): the path keeps its separator, never "" (the primary root) nor "C:" (a drive\'s current directory)', () => {
    expect(refusalText('not-directory', '/f.txt', '/f.txt', '/w', ['/w', '/'])).toBe(
      'Path "/f.txt" is a file, not a directory. To find it, search with pattern "./f.txt" and path "/".',
    );
    expect(refusalText('special-file', 'C:\\f', 'C:\\f', 'C:\\w', ['C:\\w', 'C:\\'], 'win32')).toBe(
      'Path "C:\\\\f" is a special file (a FIFO, socket or device), not a directory or a regular file: it is never opened, so it has no text to search. To list it, search with pattern "./f" and path "C:\\\\" and type "any".',
    );
  });

  it('with several roots, the advice names them all and the first as the default', () => {
    expect(refusalText('absolute-outside', '/x', '/x', '/w', ['/w', '/v'])).toBe(
      'Refused: path "/x" is outside every workspace root. Only the workspace roots /w, /v can be searched: give a path relative to /w (for example "src"), an absolute path inside one of them, or omit path to search /w.',
    );
  });

  it('errors, with text from outside escaped', () => {
    expect(invalidInputText('glob', ['a', 'b'])).toBe('Invalid glob input: a; b.');
    expect(invalidPatternText('m\n', '/w')).toBe('Invalid pattern: m\\u{a}. Patterns are relative to the search root /w.');
    expect(invalidQueryText('q\n')).toBe('Invalid query: q\\u{a}.');
    expect(searchFailedText('s\n')).toBe('The search could not run: s\\u{a}.');
  });
});
