/**
 * vitest's file order: the slowest files first, then vitest's own order (its cache of the last run's
 * durations when there is one; on a clean checkout, as in CI, the largest files first). Two workers
 * take the files in this order, so a long file started late runs alone at the end while the other
 * worker idles: in a CI clone run the index oracle (test/watch/oracle.test.ts, ~40 s, a small file)
 * started after 300 others. Slowest by wall time including their setup (`beforeAll`), in idle full
 * runs of 2026-12-05 and 2026-12-07 (`npm run test:cpu`); a file that becomes slow belongs here.
 * Since the index oracle's runs and the CLI's waiting groups go side by side (2026-12-07), alone:
 * conformance 22 s, the oracle 19 s (26 before), cli.test 15 s (23), bounded-dfa 11.5 s (14.4).
 * test/ignore/special-ignore-files.test.ts waits out a stall check's second of silence per FIFO shape,
 * one shape after another (2026-12-07: 19 s of wall, 7 s of CPU): it goes early, beside CPU-bound files.
 */
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const SLOWEST = [
  'test/conformance/conformance.test.ts',
  'test/watch/oracle.test.ts',
  'test/ignore/special-ignore-files.test.ts',
  'test/cli/cli.test.ts',
  'test/ignore/rule-shapes.test.ts',
  'test/content/bounded-dfa.test.ts',
  'test/cli/value-flags.test.ts',
  'test/compat/dot-filter.test.ts',
  'test/cli/smart-case-fd.test.ts',
  'test/content/bounded-match.test.ts',
  'test/mcp/lifecycle.test.ts',
  'test/cli/fd-name-oracle.test.ts',
  'test/content/max-count-oracle.test.ts',
  'test/conformance/stress.test.ts',
  'test/cli/exec.test.ts',
  'test/content/regex-syntax.test.ts',
  'test/conformance/class-sweep.test.ts',
];

export default class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const ordered = await super.sort(files);
    const rank = (file: TestSpecification) => {
      const at = SLOWEST.indexOf(relative(file.project.config.root, file.moduleId).replaceAll('\\', '/'));
      return at < 0 ? SLOWEST.length : at;
    };
    // Array.prototype.sort is stable: the others keep vitest's order.
    return ordered.sort((a, b) => rank(a) - rank(b));
  }
}
