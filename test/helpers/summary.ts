/**
 * A file-listing summary for the summary's wording tests (test/cli/units.test.ts, test/cli/summary.test.ts):
 * complete and empty unless `overrides` say otherwise; `complete` follows the reasons given.
 */
import type { FindSummary } from '../../src/result.js';

export function summaryOf(overrides: Partial<FindSummary>): FindSummary {
  const reasons = overrides.incompleteReasons ?? [];
  return {
    matchedCount: 0,
    skipped: [],
    skippedCount: overrides.skipped?.length ?? 0,
    symlinkSkipped: 0,
    linkMatches: [],
    linkMatchedCount: 0,
    linksOnTheWay: [],
    linkOnTheWayCount: 0,
    linksExamined: true,
    excludedCount: 0,
    ignoredCount: 0,
    filteredCount: 0,
    complete: reasons.length === 0,
    ...(reasons.length > 0 ? { incompleteReason: reasons[0] } : {}),
    incompleteReasons: reasons,
    stats: { dirsRead: 1, entriesSeen: 0, elapsedMs: 1, dirsPeeked: 0 },
    backend: 'walker',
    ...overrides,
  };
}
