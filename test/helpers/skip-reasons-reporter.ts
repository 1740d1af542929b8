/**
 * A vitest reporter that fails the run when a skipped test does not say why (issue 28): a skip is
 * never silent. A test (or its suite) skipped on this machine must carry "(skipped" and the reason
 * in its name, as test/helpers/skip-why.ts words it; `it.skip`, `it.todo` and a bare `skipIf` fail
 * the run here, so nothing is counted as passing that did not run without the reader being told.
 */
import type { Reporter, TestModule, Vitest } from 'vitest/node';

export default class SkipReasonsReporter implements Reporter {
  /** A run narrowed by name (`-t`) skips every other test: those are not silent skips. */
  private filtered = false;

  onInit(vitest: Vitest): void {
    this.filtered = vitest.config.testNamePattern !== undefined;
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    if (this.filtered) return;
    const silent: string[] = [];
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'skipped' && !test.fullName.includes('(skipped')) silent.push(`${module.moduleId}: ${test.fullName}`);
      }
    }
    if (silent.length === 0) return;
    process.stderr.write(`\n${silent.length} skipped test(s) do not say why in their name (test/helpers/skip-why.ts):\n${silent.map((t) => `  ${t}`).join('\n')}\n`);
    process.exitCode = 1;
  }
}
