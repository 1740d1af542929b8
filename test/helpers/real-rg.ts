/**
 * The real ripgrep for integration tests, found the way find-file finds it. In CI (`CI` set) a
 * missing ripgrep must fail the run, not skip the tests that need it: `requireRipgrepInCi` adds a
 * failing test for that case, and the suites themselves are skipped only outside CI.
 */
import { tmpdir } from 'node:os';
import { it } from 'vitest';
import { resolveRipgrep } from '../../src/rg/resolve.js';

export const realRg = await resolveRipgrep({
  rgPath: undefined,
  env: process.env,
  platform: process.platform === 'win32' ? 'win32' : 'posix',
  root: tmpdir(),
  cwd: process.cwd(),
});

export const hasRg = realRg.path !== undefined;

/** Call at the top of a file whose suites need ripgrep. */
export function requireRipgrepInCi(): void {
  if (hasRg || !process.env.CI) return;
  it('ripgrep is installed (CI runs the ripgrep tests, it never skips them)', () => {
    throw new Error(`CI is set and ripgrep was not found: ${'why' in realRg ? realRg.why : ''}. .ci/run installs it with apt-get.`);
  });
}

/**
 * A test's need of the real ripgrep (test/helpers/skip-why.ts): outside CI, a machine without it
 * skips, its name saying so; in CI the test runs and fails, never skips.
 */
export const needsRg: readonly [boolean, string] = [hasRg || Boolean(process.env.CI), 'ripgrep is not installed'];
