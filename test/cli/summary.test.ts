/**
 * The file listing's summary (src/cli/summary.ts), word for word, on the verdicts test/cli/units.test.ts
 * does not spell out: the metadata filters, `--sort mtime`'s result limit, a limit given no figure,
 * the ignored paths beside other ways of leaving entries out, symlinked directories on the way
 * under a filter, and the engine's note. These were checked only through the spawned command,
 * which Stryker cannot see (issue 28).
 */
import { describe, expect, it } from 'vitest';
import { describeEngine, explainReason, filterWords, formatProgress, formatSummary, layoutSummary, stylesFor, type SummaryContext } from '../../src/cli/summary.js';
import { summaryOf } from '../helpers/summary.js';

const ctx: SummaryContext = { root: '/home/u', hiddenLeftOut: false, displayPath: (rel) => rel, styles: stylesFor(false) };
const TIME = { time: true, size: false };
const SIZE = { time: false, size: true };

describe('the metadata filters: absence is claimed for what passes them, and what they left out is counted', () => {
  it('names the filters given, one, the other or both, and none when none', () => {
    expect(filterWords(TIME)).toBe('the time filter');
    expect(filterWords(SIZE)).toBe('the size filter');
    expect(filterWords({ time: true, size: true })).toBe('the time and size filters');
    expect(filterWords({ time: false, size: false })).toBeUndefined();
    expect(filterWords(undefined)).toBeUndefined();
  });

  it('a complete empty answer under a filter', () => {
    expect(formatSummary(summaryOf({ filteredCount: 3 }), { ...ctx, filters: TIME })).toBe(
      'find-file: no matches under /home/u: complete, every directory was read, so no matching file passing the time filter exists there\n' +
        '  3 matches of the pattern left out by the time filter (by policy, not coverage gaps)\n',
    );
    expect(formatSummary(summaryOf({ filteredCount: 1 }), { ...ctx, filters: { time: true, size: true } })).toBe(
      'find-file: no matches under /home/u: complete, every directory was read, so no matching file passing the time and size filters exists there\n' +
        '  1 match of the pattern left out by the time and size filters (by policy, not coverage gaps)\n',
    );
    // Counted with no filter named (a caller of formatSummary that gave none): still said.
    expect(formatSummary(summaryOf({ filteredCount: 2 }), ctx)).toContain('\n  2 matches of the pattern left out by the filters (by policy, not coverage gaps)\n');
  });

  it('a link whose name matches under a filter "has a matching name": the size filter keeps regular files only, a link is never checked against the time filter', () => {
    expect(formatSummary(summaryOf({ filteredCount: 2, linkMatches: ['l'], linkMatchedCount: 1 }), { ...ctx, filters: SIZE })).toBe(
      'find-file: no regular file passing the size filter matches under /home/u (complete, every directory was read); 1 symlink has a matching name (not followed; the size filter keeps regular files only): l\n' +
        '  2 matches of the pattern left out by the size filter (by policy, not coverage gaps)\n',
    );
    expect(formatSummary(summaryOf({ linkMatches: ['l', 'm'], linkMatchedCount: 2 }), { ...ctx, filters: TIME })).toBe(
      'find-file: no regular file passing the time filter matches under /home/u (complete, every directory was read); 2 symlinks have a matching name (not followed, so not checked against the time filter): l, m\n',
    );
  });
});

describe('the reasons, with and without their figures', () => {
  it('--sort mtime: the result limit kept the newest, nothing stopped', () => {
    expect(formatSummary(summaryOf({ matchedCount: 2, incompleteReasons: ['result-limit'] }), { ...ctx, newestFirst: true, maxResults: 2 })).toBe(
      'find-file: INCOMPLETE search under /home/u: 2 matches in the part searched, there may be more\n' +
        '  why: result-limit: --max-results 2 kept the newest of more matches\n',
    );
  });

  it('an io-error no skipped path explains (ripgrep failed, or was stopped for a flood of lines) says so, never "0 paths could not be read"', () => {
    const denied = [{ path: 'p/fdinfo', code: 'EACCES' }];
    const text = formatSummary(summaryOf({ incompleteReasons: ['io-error', 'permission-denied'], skipped: denied, skippedCount: 1, recovery: { failureKind: 'exit' } as never }), ctx);
    expect(text).toContain('  why: io-error: ripgrep did not finish cleanly (exit)\n');
    expect(text).toContain('       permission-denied: 1 path could not be read (access denied)\n');
    expect(text).not.toContain('0 paths');
    expect(explainReason('io-error', summaryOf({ skipped: [{ path: 'x', code: 'EIO' }] }), ctx)).toBe('io-error: 1 path could not be read (read errors)');
  });

  it('a limit the context gives no figure for is "?", never a made-up number', () => {
    expect(formatSummary(summaryOf({ incompleteReasons: ['time-budget', 'depth-limit', 'result-limit'] }), ctx)).toBe(
      'find-file: INCOMPLETE search under /home/u: no matches in the part searched, NOT proof of absence\n' +
        '  why: time-budget: the ? ms budget (--time-budget-ms) ran out before the walk ended\n' +
        '       depth-limit: --max-depth ? kept the search out of deeper directories that may hold matches\n' +
        '       result-limit: stopped at --max-results ?; more matches exist\n',
    );
    expect(formatSummary(summaryOf({ matchedCount: 1, incompleteReasons: ['result-limit'] }), { ...ctx, newestFirst: true })).toContain('--max-results ? kept the newest');
  });

  it('each unreadable path counts under its own reason; a smaller showSkipped names fewer and counts the rest', () => {
    const skipped = [
      { path: 'a', code: 'EACCES' },
      { path: 'b', code: 'EIO' },
    ];
    expect(formatSummary(summaryOf({ matchedCount: 1, skipped, incompleteReasons: ['permission-denied', 'io-error'] }), { ...ctx, showSkipped: 1 })).toBe(
      'find-file: INCOMPLETE search under /home/u: 1 match in the part searched, there may be more\n' +
        '  why: permission-denied: 1 path could not be read (access denied)\n' +
        '       io-error: 1 path could not be read (read errors)\n' +
        '  skipped: a (EACCES)\n' +
        '  ... and 1 more skipped path (--json lists them all)\n',
    );
  });
});

describe('ignored paths beside the other ways entries were left out', () => {
  it('an empty answer names the ignored paths in its headline, and every other way in the aside (hidden entries were not searched either)', () => {
    expect(formatSummary(summaryOf({ ignoredCount: 4, excludedCount: 2 }), { ...ctx, ignoreFiles: true, hiddenLeftOut: true })).toBe(
      'find-file: no matches under /home/u: complete, but none outside ignored paths (among entries not excluded or hidden): 4 ignored, -u to include them\n' +
        '  2 entries excluded, 4 entries ignored (ignore files, .git/) (by policy, not coverage gaps)\n',
    );
    expect(formatSummary(summaryOf({ ignoredCount: 1 }), { ...ctx, ignoreFiles: true, hiddenLeftOut: true }).split('\n')[0]).toBe(
      'find-file: no matches under /home/u: complete, but none outside ignored paths (among entries not hidden): 1 ignored, -u to include them',
    );
  });

  it('ripgrep, which counts neither ignored paths nor links: absence only outside both', () => {
    expect(formatSummary(summaryOf({ backend: 'ripgrep', linksExamined: false }), { ...ctx, ignoreFiles: true })).toBe(
      'find-file: no matches under /home/u: complete, but none outside ignored paths and symlinked directories: ripgrep does not count what it ignored, -u to include them\n' +
        '  symlinks were not examined (ripgrep lists regular files only): a matching symlink or a symlinked directory on the way would not be named; --backend walker names them\n',
    );
  });

  it('ignore files on that left nothing out change nothing: the walker counted none', () => {
    expect(formatSummary(summaryOf({}), { ...ctx, ignoreFiles: true })).toBe(
      'find-file: no matches under /home/u: complete, every directory was read, so no matching file exists there\n',
    );
  });

  it('with a match, the ignored and excluded entries are policy counts only', () => {
    expect(formatSummary(summaryOf({ ignoredCount: 4, excludedCount: 1, matchedCount: 1 }), { ...ctx, ignoreFiles: true, hiddenLeftOut: true })).toBe(
      'find-file: 1 match under /home/u: complete, every directory was read\n' +
        '  1 entry excluded, 4 entries ignored (ignore files, .git/) (by policy, not coverage gaps)\n',
    );
  });

  it('a symlinked directory on the way under a filter, with ignored and excluded entries: every qualifier, then how to search the ignored ones', () => {
    expect(formatSummary(summaryOf({ linksOnTheWay: ['ls'], linkOnTheWayCount: 1, ignoredCount: 2, excludedCount: 1 }), { ...ctx, ignoreFiles: true, filters: TIME })).toBe(
      'find-file: no matches under /home/u: complete, every directory was read, but symlinks are never followed: no matching file passing the time filter outside symlinked directories (among entries not excluded or ignored); 1 symlinked directory on the way was not followed: ls\n' +
        '  search its target to look inside\n' +
        '  ignored (ignore files, .git/): 2 paths; search again with -u (--no-ignore) to include them\n' +
        '  1 entry excluded, 2 entries ignored (ignore files, .git/) (by policy, not coverage gaps)\n',
    );
  });

  it('a match beside a link on the way and ignored paths: no "search again" line, the answer is not empty', () => {
    expect(formatSummary(summaryOf({ matchedCount: 1, linksOnTheWay: ['ls'], linkOnTheWayCount: 1, ignoredCount: 2 }), { ...ctx, ignoreFiles: true })).toBe(
      'find-file: 1 match under /home/u: complete, every directory was read\n' +
        '  also 1 symlinked directory on the way was not followed: ls; search its target to look inside\n' +
        '  2 entries ignored (ignore files, .git/) (by policy, not coverage gaps)\n',
    );
    // Nor when the search was cut short: the reasons say what to do.
    expect(formatSummary(summaryOf({ incompleteReasons: ['aborted'], linksOnTheWay: ['ls'], linkOnTheWayCount: 1, ignoredCount: 2 }), { ...ctx, ignoreFiles: true })).not.toContain('search again with -u');
  });

  it('a matching link beside a link on the way and ignored paths: the ignored named in the headline\'s aside, once', () => {
    expect(formatSummary(summaryOf({ linkMatches: ['l'], linkMatchedCount: 1, linksOnTheWay: ['ls'], linkOnTheWayCount: 1, ignoredCount: 2 }), { ...ctx, ignoreFiles: true })).toBe(
      'find-file: no regular file matches under /home/u outside symlinked directories (among entries not ignored) (complete, every directory was read); 1 symlink matches (not followed): l\n' +
        '  also 1 symlinked directory on the way was not followed: ls; search its target to look inside\n' +
        '  2 entries ignored (ignore files, .git/) (by policy, not coverage gaps)\n',
    );
  });

  it('the noun of --type, and three ways joined', () => {
    expect(formatSummary(summaryOf({ excludedCount: 2 }), { ...ctx, hiddenLeftOut: true, noun: 'directory' }).split('\n')[0]).toBe(
      'find-file: no matches under /home/u: complete, every directory was read, so no matching directory exists there (among entries not excluded or hidden)',
    );
    const onTheWay = summaryOf({ linksOnTheWay: ['ls'], linkOnTheWayCount: 1, ignoredCount: 2, excludedCount: 1 });
    expect(formatSummary(onTheWay, { ...ctx, ignoreFiles: true, hiddenLeftOut: true }).split('\n')[0]).toContain('(among entries not excluded, hidden or ignored); ');
  });
});

describe('a matching link beside a symlinked directory on the way', () => {
  it('does not lift the qualifier: no regular file outside symlinked directories, the link named, the one on the way after', () => {
    expect(formatSummary(summaryOf({ linkMatches: ['bin/python3'], linkMatchedCount: 1, linksOnTheWay: ['lib'], linkOnTheWayCount: 1 }), ctx)).toBe(
      'find-file: no regular file matches under /home/u outside symlinked directories (complete, every directory was read); 1 symlink matches (not followed): bin/python3\n' +
        '  also 1 symlinked directory on the way was not followed: lib; search its target to look inside\n',
    );
  });
});

describe('counts in the singular and the plural, and the rest of the wording', () => {
  it('several unreadable paths under each reason', () => {
    const skipped = [
      { path: 'a', code: 'EACCES' },
      { path: 'b', code: 'EPERM' },
      { path: 'c', code: 'EIO' },
      { path: 'd', code: 'ELOOP' },
    ];
    expect(formatSummary(summaryOf({ matchedCount: 3, skipped, incompleteReasons: ['permission-denied', 'io-error'] }), ctx)).toBe(
      'find-file: INCOMPLETE search under /home/u: 3 matches in the part searched, there may be more\n' +
        '  why: permission-denied: 2 paths could not be read (access denied)\n' +
        '       io-error: 2 paths could not be read (read errors)\n' +
        '  skipped: a (EACCES)\n  skipped: b (EPERM)\n  skipped: c (EIO)\n  skipped: d (ELOOP)\n',
    );
  });

  it("the content search's output limit has its own words", () => {
    expect(explainReason('output-limit', summaryOf({}), ctx)).toBe('output-limit: the text of the hits reached its size cap; the rest was not searched');
  });

  it('one link under the time filter, two under the size filter', () => {
    expect(formatSummary(summaryOf({ linkMatches: ['l', 'm'], linkMatchedCount: 2 }), { ...ctx, filters: SIZE })).toBe(
      'find-file: no regular file passing the size filter matches under /home/u (complete, every directory was read); 2 symlinks have a matching name (not followed; the size filter keeps regular files only): l, m\n',
    );
    expect(formatSummary(summaryOf({ linkMatches: ['l'], linkMatchedCount: 1 }), { ...ctx, filters: TIME })).toBe(
      'find-file: no regular file passing the time filter matches under /home/u (complete, every directory was read); 1 symlink has a matching name (not followed, so not checked against the time filter): l\n',
    );
  });

  it('links past the first five, all of them stored: --json lists them all', () => {
    expect(formatSummary(summaryOf({ matchedCount: 2, linkMatches: ['a', 'b', 'c', 'd', 'e', 'f', 'g'], linkMatchedCount: 7 }), ctx)).toBe(
      'find-file: 2 matches under /home/u: complete, every directory was read\n  also 7 symlinks match (not followed): a, b, c, d, e, and 2 more (--json lists them all)\n',
    );
  });

  it('one ignored path beside a link on the way: the line that says how to include it', () => {
    expect(formatSummary(summaryOf({ linksOnTheWay: ['ls'], linkOnTheWayCount: 1, ignoredCount: 1 }), { ...ctx, ignoreFiles: true })).toBe(
      'find-file: no matches under /home/u: complete, every directory was read, but symlinks are never followed: no matching file outside symlinked directories (among entries not ignored); 1 symlinked directory on the way was not followed: ls\n' +
        '  search its target to look inside\n' +
        '  ignored (ignore files, .git/): 1 path; search again with -u (--no-ignore) to include them\n' +
        '  1 entry ignored (ignore files, .git/) (by policy, not coverage gaps)\n',
    );
  });

  it('an incomplete answer with ignored paths: the reasons, and the ignored as policy, no "how to include them" line', () => {
    expect(formatSummary(summaryOf({ incompleteReasons: ['time-budget'], ignoredCount: 2 }), { ...ctx, ignoreFiles: true, timeBudgetMs: 100 })).toBe(
      'find-file: INCOMPLETE search under /home/u: no matches in the part searched, NOT proof of absence\n' +
        '  why: time-budget: the 100 ms budget (--time-budget-ms) ran out before the walk ended\n' +
        '  2 entries ignored (ignore files, .git/) (by policy, not coverage gaps)\n',
    );
  });

  it('a matching link with ignored paths: the absence of a regular file is claimed among entries not ignored only', () => {
    expect(formatSummary(summaryOf({ linkMatches: ['l'], linkMatchedCount: 1, ignoredCount: 2 }), { ...ctx, ignoreFiles: true })).toBe(
      'find-file: no regular file matches under /home/u (among entries not ignored) (complete, every directory was read); 1 symlink matches (not followed): l\n' +
        '  2 entries ignored (ignore files, .git/) (by policy, not coverage gaps)\n',
    );
  });

  it('the progress line with one directory read', () => {
    expect(formatProgress({ dirsRead: 1, matches: undefined, elapsedMs: 50 }, stylesFor(false))).toBe('searching: 1 dir read, 0.1s');
  });
});

describe('the engine, said only when it is news', () => {
  it('a fallback, a failure and a retry, in that order, dimmed', () => {
    const summary = summaryOf({ fallbackReason: 'eagain', recovery: { selectionMode: 'system', retryTriggered: true, retrySucceeded: false, failureKind: 'eagain' } });
    expect(formatSummary(summary, { ...ctx, styles: stylesFor(true) })).toBe(
      'find-file: no matches under /home/u: \x1b[32mcomplete\x1b[39m, every directory was read, so no matching file exists there\n' +
        '  \x1b[2mbackend walker: auto ran the walker (eagain), ripgrep failed (eagain), ripgrep was retried with one thread\x1b[22m\n',
    );
  });

  it('a retry that succeeded says so; a clean ripgrep run says nothing', () => {
    expect(describeEngine({ backend: 'ripgrep', recovery: { selectionMode: 'system', retryTriggered: true, retrySucceeded: true } })).toBe(
      'backend ripgrep: ripgrep was retried with one thread and succeeded',
    );
    expect(describeEngine({ backend: 'ripgrep', recovery: { selectionMode: 'system', retryTriggered: false } })).toBeUndefined();
    expect(describeEngine({ backend: 'walker' })).toBeUndefined();
  });
});

describe('the shared layout', () => {
  it('a summary that gives no detail lines and no policy counts of its own is its headline alone', () => {
    expect(layoutSummary(summaryOf({}), ctx, { headline: 'find-file: h', explain: (reason) => reason })).toBe('find-file: h\n');
  });
});
