/**
 * The wording module on its own: every reason has words and a next step (the table is exhaustive),
 * an unknown reason still gets an honest incomplete answer, and the count says only what is known.
 */
import { describe, expect, it } from 'vitest';
import { CONTENT_INCOMPLETE_REASONS, INCOMPLETE_REASONS } from '../../src/index.js';
import { renderAnswer, summaryLine, truncatedLabel } from '../../src/agent/text.js';
import { similarNamesLine, triedLines } from '../../src/agent/text-guidance.js';
import { globFacts } from '../helpers/agent.js';
import { describeReason, isCountCapOnly, isCoverageGap, isKnownReason, nextStep, reasonLabel, reasonLabels, statedReasons, type Gaps } from '../../src/agent/text-reasons.js';

const gaps = (reasons: string[], over: Partial<Gaps> = {}): Gaps => ({ reasons, skipped: [], timeBudgetMs: 5000, maxDepth: 4, countCap: 1000, maxOutputBytes: 1048576, ...over });

describe('reasons', () => {
  const expected: Record<string, string> = {
    'permission-denied': '3 paths could not be read (permission denied): a, b, c',
    'io-error': '1 path could not be read (I/O error): d (EIO)',
    'time-budget': 'time budget of 5000 ms reached',
    'depth-limit': 'depth limit 4 reached',
    'result-limit': 'stopped counting at 1000 matches',
    aborted: 'the search was cancelled before it finished',
    'output-limit': 'output limit of 1048576 bytes of matching text reached',
  };
  const skipped = [
    { path: 'a', code: 'EACCES' },
    { path: 'b', code: 'EPERM' },
    { path: 'c', code: 'EACCES' },
    { path: 'd', code: 'EIO' },
    { path: 'gone', code: 'ENOENT' },
  ];

  it('has words for every reason the library defines, and for the content search\'s output limit', () => {
    const all = [...new Set([...INCOMPLETE_REASONS, ...CONTENT_INCOMPLETE_REASONS])];
    for (const reason of all) {
      expect(isKnownReason(reason), reason).toBe(true);
      expect(describeReason(reason, gaps([reason], { skipped }))).toBe(expected[reason]);
      expect(nextStep(reason, 'pattern')).not.toBe(nextStep('a-reason-from-the-future', 'pattern'));
    }
    expect(Object.keys(expected).sort()).toEqual(all.sort());
  });

  it('words an unknown reason honestly, as a gap', () => {
    expect(isKnownReason('quota')).toBe(false);
    expect(describeReason('quota', gaps(['quota']))).toBe('the search stopped short for a reason this tool cannot describe ("quota")');
    const facts = globFacts({ total: { count: 0, kind: 'at-least' }, complete: false, gaps: gaps(['quota']) });
    expect(renderAnswer(facts)).toBe(
      [
        'Search incomplete: no matches in the part that could be searched (files matching "x" under /w).',
        'Absence cannot be concluded: part of the tree was not searched.',
        'Not searched:',
        '- the search stopped short for a reason this tool cannot describe ("quota")',
        'Next: narrow the path and search again.',
      ].join('\n'),
    );
    expect(renderAnswer({ ...facts, lines: ['a'], total: { count: 1, kind: 'at-least' } }).split('\n').slice(0, 3)).toEqual([
      'a',
      '(incomplete)',
      'Warning: the search did not cover everything, so absence elsewhere cannot be concluded.',
    ]);
  });

  it('an incomplete result with no reason is still incomplete (never "search complete")', () => {
    const text = renderAnswer(globFacts({ total: { count: 0, kind: 'at-least' }, complete: false }));
    expect(text).toBe('Search incomplete: no matches in the part that could be searched (files matching "x" under /w).\nAbsence cannot be concluded: part of the tree was not searched.\nNot searched:\n- the search did not say why it is incomplete\nNext: narrow the path and search again.');
  });

  it('lists vanished paths nowhere: they are not gaps', () => {
    expect(describeReason('permission-denied', gaps([], { skipped: [{ path: 'gone', code: 'ENOENT' }] }))).toBe('some paths could not be read (permission denied)');
  });
});

describe('reasons: the next step, the labels, and the verdict they feed (Stryker survivors of agent/text-reasons.ts)', () => {
  it('gives each reason its own next step, in the noun of the tool', () => {
    const steps = Object.fromEntries([...INCOMPLETE_REASONS, ...CONTENT_INCOMPLETE_REASONS].map((r) => [r, nextStep(r, 'query')]));
    expect(steps).toEqual({
      'permission-denied': 'search a path that avoids the unreadable ones, or another folder where it may be',
      'io-error': 'search again; if the error persists, search a path that avoids the failing ones',
      'time-budget': 'narrow the path or make the query more specific, so the search fits the time budget',
      'depth-limit': 'search from a deeper path, so the depth limit reaches further',
      'result-limit': 'make the query or path more specific',
      aborted: 'search again if it is still needed',
      'output-limit': 'make the query or include glob more specific',
    });
    expect(nextStep('time-budget', 'pattern')).toBe('narrow the path or make the pattern more specific, so the search fits the time budget');
    expect(nextStep('result-limit', 'pattern')).toBe('make the pattern or path more specific');
    expect(nextStep('quota', 'pattern')).toBe('narrow the path and search again');
  });

  it('labels every reason for the one-line summary; an unknown one as it came, a missing one as not stated', () => {
    expect(reasonLabels(['permission-denied', 'io-error', 'time-budget', 'depth-limit', 'result-limit', 'aborted', 'output-limit', 'quota'])).toBe(
      'permission denied, I/O error, time budget, depth limit, count limit, cancelled, output limit, quota',
    );
    expect(reasonLabels([])).toBe('reason not stated');
    expect(reasonLabel('')).toBe('reason not stated');
    expect(statedReasons(['aborted'])).toEqual(['aborted']);
    // An inherited name is no reason of the table.
    expect(isKnownReason('toString')).toBe(false);
    expect(reasonLabel('constructor')).toBe('constructor');
  });

  it('words a depth or output limit it has no figure for, and a gap without reason', () => {
    expect(describeReason('depth-limit', gaps([], { maxDepth: undefined }))).toBe('depth limit reached');
    expect(describeReason('depth-limit', gaps([], { maxDepth: 0 }))).toBe('depth limit 0 reached');
    expect(describeReason('output-limit', gaps([], { maxOutputBytes: undefined }))).toBe('output limit reached');
    expect(describeReason('', gaps([]))).toBe('the search did not say why it is incomplete');
  });

  it('names the first five unreadable paths, escaped, counts the rest, and gives an I/O error its code', () => {
    const denied = ['a', 'b\nforged', 'c', 'd', 'e', 'f', 'g'].map((p) => ({ path: p, code: 'EACCES' }));
    expect(describeReason('permission-denied', gaps([], { skipped: denied }))).toBe('7 paths could not be read (permission denied): a, "b\\u{a}forged", c, d, e, and 2 more');
    const five = denied.slice(0, 5);
    expect(describeReason('permission-denied', gaps([], { skipped: five }))).toBe('5 paths could not be read (permission denied): a, "b\\u{a}forged", c, d, e');
    expect(describeReason('io-error', gaps([], { skipped: [{ path: 'x', code: 'EIO' }, { path: 'y', code: 'EACCES' }] }))).toBe('1 path could not be read (I/O error): x (EIO)');
    expect(describeReason('io-error', gaps([], { skipped: [{ path: 'y', code: 'EACCES' }] }))).toBe('some paths could not be read (I/O error)');
  });

  it('only a lone result-limit is the capped count; any other gap, or none stated, is a coverage gap', () => {
    expect([isCountCapOnly(false, ['result-limit']), isCoverageGap(false, ['result-limit'])]).toEqual([true, false]);
    expect([isCountCapOnly(false, ['result-limit', 'time-budget']), isCoverageGap(false, ['result-limit', 'time-budget'])]).toEqual([false, true]);
    expect([isCountCapOnly(false, ['time-budget']), isCoverageGap(false, ['time-budget'])]).toEqual([false, true]);
    expect([isCountCapOnly(false, []), isCoverageGap(false, [])]).toEqual([false, true]);
    expect([isCountCapOnly(true, ['result-limit']), isCoverageGap(true, [])]).toEqual([false, false]);
  });
});

describe('counts', () => {
  it('says only what was counted', () => {
    expect(truncatedLabel(100, { count: 640, kind: 'exact' })).toBe('(truncated: showing 100 of 640)');
    expect(truncatedLabel(100, { count: 250, kind: 'at-least' })).toBe('(truncated: showing 100 of at least 250)');
    expect(truncatedLabel(100, { count: 1000, kind: 'more-than' })).toBe('(truncated: showing 100 of more than 1000)');
  });

  it('summaries', () => {
    expect(summaryLine('file', 'matching "*.ts"', 1, { count: 1, kind: 'exact' }, true, [])).toBe('1 file matching "*.ts"');
    expect(summaryLine('match', 'for "q"', 0, { count: 0, kind: 'exact' }, true, [])).toBe('No matches for "q" (search complete)');
    expect(summaryLine('match', 'for "q"', 0, { count: 0, kind: 'at-least' }, false, ['time-budget'])).toBe('Incomplete search (time budget): 0 matches for "q" found in the part searched');
    expect(summaryLine('file', 'matching "*"', 3, { count: 1000, kind: 'more-than' }, false, ['result-limit'])).toBe('3 of more than 1000 files matching "*"');
  });

  it('an incomplete summary starts with the incompleteness, for glob and grep, empty or not', () => {
    const atLeast = (count: number) => ({ count, kind: 'at-least' as const });
    expect(summaryLine('file', 'matching "x"', 0, atLeast(0), false, ['permission-denied'])).toBe('Incomplete search (permission denied): 0 files matching "x" found in the part searched');
    expect(summaryLine('match', 'for "q"', 0, atLeast(0), false, ['io-error', 'time-budget'])).toBe('Incomplete search (I/O error, time budget): 0 matches for "q" found in the part searched');
    expect(summaryLine('file', 'matching "x"', 1, atLeast(1), false, ['depth-limit'])).toBe('Incomplete search (depth limit): 1 file matching "x" found in the part searched');
    expect(summaryLine('match', 'for "q"', 2, atLeast(7), false, ['output-limit'])).toBe('Incomplete search (output limit): 2 of at least 7 matches for "q" found in the part searched');
    expect(summaryLine('file', 'matching "x"', 0, atLeast(0), false, [])).toBe('Incomplete search (reason not stated): 0 files matching "x" found in the part searched');
    expect(summaryLine('file', 'matching "x"', 0, atLeast(0), false, ['quota'])).toBe('Incomplete search (quota): 0 files matching "x" found in the part searched');
    for (const reason of [...INCOMPLETE_REASONS, ...CONTENT_INCOMPLETE_REASONS]) {
      if (reason === 'result-limit') continue; // alone, counting stopped: not a gap (above)
      expect(summaryLine('file', 'matching "x"', 0, atLeast(0), false, [reason]).startsWith(`Incomplete search (${reasonLabel(reason)}): `), reason).toBe(true);
    }
  });

  it('result-limit with another gap is still an incomplete search, never the "capped count only" wording', () => {
    // Kills "capped count only" chosen whenever result-limit is among the reasons: the permission gap would vanish.
    const moreThan = { count: 1000, kind: 'more-than' as const };
    expect(summaryLine('file', 'matching "*"', 3, moreThan, false, ['result-limit', 'permission-denied'])).toBe(
      'Incomplete search (count limit, permission denied): 3 of more than 1000 files matching "*" found in the part searched',
    );
    expect(summaryLine('file', 'matching "*"', 3, moreThan, false, ['permission-denied', 'result-limit'])).toMatch(/^Incomplete search \(permission denied, count limit\)/);
  });

  it('summaries name matching symlinks, and say when links were not examined', () => {
    const exact = (count: number) => ({ count, kind: 'exact' as const });
    expect(summaryLine('file', 'matching "python3"', 0, exact(0), true, [], { count: 1, examined: true })).toBe('No regular files matching "python3" (search complete); 1 symlink matches (not followed)');
    expect(summaryLine('file', 'matching "p*"', 2, exact(2), true, [], { count: 3, examined: true })).toBe('2 files matching "p*"; also 3 symlinks match (not followed)');
    expect(summaryLine('file', 'matching "x"', 0, { count: 0, kind: 'at-least' }, false, ['aborted'], { count: 2, examined: true })).toBe(
      'Incomplete search (cancelled): 0 files matching "x" found in the part searched; 2 symlinks match (not followed)',
    );
    expect(summaryLine('file', 'matching "x"', 0, exact(0), true, [], { count: 0, examined: false })).toBe('No files matching "x" (search complete; symlinks not examined)');
    expect(summaryLine('file', 'matching "x"', 0, exact(0), true, [], { count: 0, examined: true })).toBe('No files matching "x" (search complete)');
  });
});

describe('symlinks and lines that could start with "No"', () => {
  const base = globFacts({ policy: { exclude: [], excludedCount: 0, symlinkSkipped: 0, links: { paths: [], count: 0, examined: false } } });

  it('says symlinks were not examined after an empty answer from an engine that cannot see them', () => {
    expect(renderAnswer(base)).toBe('No files matching "x" under /w (search complete).\nSymlinks were not examined (ripgrep lists regular files only): a symlink whose name matches, or a symlinked directory the pattern leads into, would not be named here.');
    const incomplete = renderAnswer({ ...base, complete: false, total: { count: 0, kind: 'at-least' }, gaps: gaps(['time-budget']) }).split('\n');
    expect(incomplete.slice(0, 3)).toEqual([
      'Search incomplete: no matches in the part that could be searched (files matching "x" under /w).',
      'Absence cannot be concluded: part of the tree was not searched.',
      'Symlinks were not examined (ripgrep lists regular files only): a symlink whose name matches, or a symlinked directory the pattern leads into, would not be named here.',
    ]);
    expect(renderAnswer({ ...base, lines: ['a'], total: { count: 1, kind: 'exact' } })).toBe('a');
  });

  it('words similar names and incomplete retries without a leading "No"', () => {
    expect(similarNamesLine({ literal: 'x', paths: [], seen: 3, poolCapped: false })).toBe('Similar file names seen in the search: none resembles "x".');
    expect(similarNamesLine({ literal: 'x', paths: [], seen: 50000, poolCapped: true })).toBe('Similar file names seen in the search: none resembles "x" (compared with the first 50000 file names seen).');
    expect(triedLines([{ what: '"q", ignoring case', total: { count: 0, kind: 'at-least' }, complete: false, reasons: ['time-budget'], unit: 'match' }])).toEqual([
      'Tried:',
      '- "q", ignoring case: incomplete search (time budget): at least 0 matches in the part that could be searched',
    ]);
    expect(triedLines([{ what: 'file names matching "**/*q*"', total: { count: 1, kind: 'at-least' }, complete: false, reasons: ['permission-denied'], examples: ['a/q.ts'], unit: 'file' }])[1]).toBe(
      '- file names matching "**/*q*": incomplete search (permission denied): at least 1 files in the part that could be searched, e.g. a/q.ts',
    );
  });
});
