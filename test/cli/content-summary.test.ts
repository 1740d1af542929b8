/**
 * The words `find-file --contains` ends with (src/cli/content-summary.ts), line by line, as units:
 * which files a complete empty answer claims the text is absent from, what hits and policy add, the
 * links, ripgrep's blind spot, and each reason only content search words itself. The same words
 * through the real command: test/cli/contains.test.ts and test/cli/contains-links.test.ts. (Stryker
 * could not see those: issue 28, the CLI's verdict wording.)
 */
import { describe, expect, it } from 'vitest';
import { BINARY_UNCOUNTED, CONTENT_LINKS_UNEXAMINED, formatContentSummary } from '../../src/cli/content-summary.js';
import { stylesFor, type SummaryContext } from '../../src/cli/summary.js';
import type { ContentSummary } from '../../src/content/types.js';

function summaryOf(overrides: Partial<ContentSummary>): ContentSummary {
  const reasons = overrides.incompleteReasons ?? [];
  return {
    hitCount: 0,
    filesSearched: 3,
    binarySkipped: 0,
    binaryCounted: true,
    skipped: [],
    skippedCount: overrides.skipped?.length ?? 0,
    symlinkSkipped: 0,
    excludedCount: 0,
    ignoredCount: 0,
    linksOnTheWay: [],
    linkOnTheWayCount: 0,
    linksExamined: true,
    truncated: false,
    protocolErrors: 0,
    complete: reasons.length === 0,
    ...(reasons.length > 0 ? { incompleteReason: reasons[0] } : {}),
    incompleteReasons: reasons,
    stats: { elapsedMs: 1 },
    backend: 'walker',
    ...overrides,
  } as ContentSummary;
}

const ctx: SummaryContext = { root: '/w', maxResults: 10, hiddenLeftOut: false, displayPath: (rel) => rel, styles: stylesFor(false) };
const linesOf = (summary: Partial<ContentSummary>, extra: Partial<SummaryContext> = {}) => formatContentSummary(summaryOf(summary), { ...ctx, ...extra }).split('\n').filter((l) => l !== '');

describe('a complete answer: which files the text is absent from', () => {
  it('every file, when no pattern or one that selects every file chose them', () => {
    for (const patterns of [[], ['*'], ['**'], ['**/*']]) {
      expect(linesOf({}, { patterns })[0], patterns.join()).toBe('find-file: no hits under /w: complete, every file was searched, so the text does not occur there');
    }
  });

  it('the files the patterns chose, named, never "every file"', () => {
    expect(linesOf({}, { patterns: ['*.ts'] })[0]).toBe("find-file: no hits under /w: complete, every file matching '*.ts' was searched, and the text does not occur in them");
    expect(linesOf({}, { patterns: ['*.ts', '*'] })[0]).toBe("find-file: no hits under /w: complete, every file matching '*.ts' or '*' was searched, and the text does not occur in them");
  });

  it('every text file when binary files were left unsearched, and the policy line counts them', () => {
    const lines = linesOf({ binarySkipped: 2 });
    expect(lines[0]).toBe('find-file: no hits under /w: complete, every text file was searched, so the text does not occur there');
    expect(lines).toContain('  2 binary files not searched (by policy, not coverage gaps)');
    expect(linesOf({ binarySkipped: 1 })).toContain('  1 binary file not searched (by policy, not coverage gaps)');
  });

  it('after ripgrep, which leaves binary files without a word: every text file, and why the text may still be in one', () => {
    const rg = { binaryCounted: false, linksExamined: true } as const;
    const empty = linesOf(rg);
    expect(empty[0]).toBe('find-file: no hits under /w: complete, every text file was searched, so the text does not occur there');
    expect(empty).toContain(`  ${BINARY_UNCOUNTED}`);
    expect(BINARY_UNCOUNTED).toBe('binary files were not searched, and ripgrep does not count them: --backend walker counts them');
    // The files a pattern chose are text files too.
    expect(linesOf(rg, { patterns: ['*.ts'] })[0]).toBe("find-file: no hits under /w: complete, every text file matching '*.ts' was searched, and the text does not occur in them");
    // A binary file it stopped in after hits is counted, as at least that many.
    const some = linesOf({ ...rg, binarySkipped: 2 });
    expect(some).toContain('  at least 2 binary files not searched (by policy, not coverage gaps)');
    expect(some).not.toContain(`  ${BINARY_UNCOUNTED}`);
    // With hits: no claim of absence, so no note; the headline still says which files were read.
    const hits = linesOf({ ...rg, hitCount: 2 });
    expect(hits[0]).toBe('find-file: 2 hits under /w: complete, every text file was searched');
    expect(hits).not.toContain(`  ${BINARY_UNCOUNTED}`);
    // An incomplete answer claims nothing of the kind.
    expect(linesOf({ ...rg, incompleteReasons: ['time-budget'] })).not.toContain(`  ${BINARY_UNCOUNTED}`);
    // The pure-TS path counted them all: "every file" when it left none out.
    expect(linesOf({})).not.toContain(`  ${BINARY_UNCOUNTED}`);
  });

  it('with hits: the count, and no claim of absence', () => {
    expect(linesOf({ hitCount: 3 })[0]).toBe('find-file: 3 hits under /w: complete, every file was searched');
    expect(linesOf({ hitCount: 1 })[0]).toBe('find-file: 1 hit under /w: complete, every file was searched');
  });
});

describe('the whole summary', () => {
  it('a complete answer with hits and nothing left out is one line, and nothing else', () => {
    expect(formatContentSummary(summaryOf({ hitCount: 3 }), ctx)).toBe('find-file: 3 hits under /w: complete, every file was searched\n');
  });

  it('an incomplete one leads with INCOMPLETE, never claims absence, and says why (a time budget is not an io-error)', () => {
    const budget = { incompleteReasons: ['time-budget' as const] };
    expect(linesOf(budget, { timeBudgetMs: 500 })).toEqual([
      'find-file: INCOMPLETE search under /w: no hits in the part searched, NOT proof of absence',
      '  why: time-budget: the 500 ms budget (--time-budget-ms) ran out before the walk ended',
    ]);
    expect(linesOf({ ...budget, hitCount: 2 }, { timeBudgetMs: 500 })[0]).toBe('find-file: INCOMPLETE search under /w: 2 hits in the part searched, there may be more');
  });

  it('ignored files: absence only among the files not ignored, and how to include them when nothing was found', () => {
    const empty = linesOf({ ignoredCount: 2 }, { ignoreFiles: true });
    expect(empty).toEqual([
      'find-file: no hits under /w: complete, every file was searched, so the text does not occur there (among files not ignored)',
      '  ignored (ignore files, .git/): 2 paths; search again with -u (--no-ignore) to include them',
      '  2 entries ignored (ignore files, .git/) (by policy, not coverage gaps)',
    ]);
    // With a hit the answer is not an absence claim: no "search again" line, the aside still qualifies "every file".
    expect(linesOf({ hitCount: 1, ignoredCount: 2 }, { ignoreFiles: true })).toEqual([
      'find-file: 1 hit under /w: complete, every file was searched (among files not ignored)',
      '  2 entries ignored (ignore files, .git/) (by policy, not coverage gaps)',
    ]);
  });

  it('ripgrep, which does not count what its ignore files left out: says they were applied, with no made-up count', () => {
    expect(linesOf({ backend: 'ripgrep', linksExamined: false }, { ignoreFiles: true })).toEqual([
      'find-file: no hits under /w: complete, every file outside symlinked directories was searched, so the text does not occur there (among files not ignored)',
      `  ${CONTENT_LINKS_UNEXAMINED}`,
      '  ignore files were applied (ripgrep does not count what they left out); search again with -u (--no-ignore) to include them',
    ]);
  });
});

describe('links', () => {
  it('ripgrep could not see them: absence only outside symlinked directories, and how to see them', () => {
    const lines = linesOf({ linksExamined: false, backend: 'ripgrep' });
    expect(lines[0]).toBe('find-file: no hits under /w: complete, every file outside symlinked directories was searched, so the text does not occur there');
    expect(lines).toContain(`  ${CONTENT_LINKS_UNEXAMINED}`);
    // With hits there is no absence to qualify.
    const found = linesOf({ linksExamined: false, hitCount: 2, backend: 'ripgrep' });
    expect(found[0]).toBe('find-file: 2 hits under /w: complete, every file was searched');
    expect(found).not.toContain(`  ${CONTENT_LINKS_UNEXAMINED}`);
  });

  it('a symlinked directory on the way: named in the headline of an empty answer, after the hits otherwise', () => {
    const link = { linksOnTheWay: ['vendor'], linkOnTheWayCount: 1 };
    const empty = linesOf(link);
    expect(empty[0]).toBe('find-file: no hits under /w: complete, every file outside symlinked directories was searched, so the text does not occur there; 1 symlinked directory on the way was not followed: vendor');
    expect(empty[1]).toBe('  search its target to look inside');
    const found = linesOf({ ...link, hitCount: 1 });
    expect(found[0]).toBe('find-file: 1 hit under /w: complete, every file was searched');
    expect(found[1]).toBe('  also 1 symlinked directory on the way was not followed: vendor; search its target to look inside');
  });
});

describe('reasons content search words itself', () => {
  it('result-limit names the limit and says more hits exist', () => {
    expect(linesOf({ hitCount: 10, incompleteReasons: ['result-limit'] })).toContain('  why: result-limit: stopped at --max-results 10; more hits exist');
  });

  it('an io-error no skipped path explains: ripgrep\'s unreadable output, or its failure, by kind', () => {
    expect(linesOf({ incompleteReasons: ['io-error'], protocolErrors: 2 })).toContain('  why: io-error: ripgrep printed 2 lines that are not valid JSON events');
    expect(linesOf({ incompleteReasons: ['io-error'], protocolErrors: 1 })).toContain('  why: io-error: ripgrep printed 1 line that is not valid JSON events');
    expect(linesOf({ incompleteReasons: ['io-error'], recovery: { failureKind: 'spawn_error' } as unknown as ContentSummary['recovery'] })).toContain('  why: io-error: ripgrep did not finish cleanly (spawn_error)');
    expect(linesOf({ incompleteReasons: ['io-error'] })).toContain('  why: io-error: ripgrep did not finish cleanly (failure)');
  });

  it('an io-error with skipped paths is worded as the listing words it, from the paths', () => {
    const lines = linesOf({ incompleteReasons: ['io-error'], skipped: [{ path: 'disk/bad', code: 'EIO' }], protocolErrors: 2 });
    expect(lines.join('\n')).not.toContain('JSON events');
    expect(lines).toContain('  skipped: disk/bad (EIO)');
  });

  it('a display cut is said on a line of its own, and is not a gap', () => {
    const lines = linesOf({ hitCount: 1, truncated: true });
    expect(lines[0]).toBe('find-file: 1 hit under /w: complete, every file was searched');
    expect(lines).toContain('  truncated: some hit text was cut or left out for length (not a coverage gap; --json flags each cut line)');
    expect(linesOf({ hitCount: 1 }).join('\n')).not.toContain('truncated');
  });
});
