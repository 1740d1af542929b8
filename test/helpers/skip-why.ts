/**
 * Tests that cannot run on this machine say why in their name (issue 28: a skip is never silent;
 * test/helpers/skip-reasons-reporter.ts fails the run for a skipped test whose name does not).
 *
 * Tests that need a POSIX system (a `#!/bin/sh` script, chmod modes, runuser/setpriv, mkfifo,
 * `ulimit` through bash, bash as an oracle) skip on Windows (the workflow's windows-latest). What
 * they stand for on Windows is the Windows set's job (test/windows/, `npm run test:windows`): a
 * folder denied by an ACL, reparse points, drive roots. Tests that need ripgrep skip only outside
 * CI: in CI a missing rg fails the run (test/helpers/real-rg.ts).
 */
import { describe, it, type TestFunction } from 'vitest';

export const onWindows = process.platform === 'win32';

/** `title`, with the reason it is skipped when the run is on Windows. */
export function posixOnly(title: string, why: string): string {
  return onWindows ? `${title} (skipped on Windows: ${why})` : title;
}

/** What a test needs: whether this machine has it, and what the skipped test's name says if not. */
export type Need = readonly [met: boolean, whyNot: string];

export const posix = (why: string): Need => [!onWindows, `on Windows: ${why}`];
export const linux = (why: string): Need => [process.platform === 'linux', `not Linux: ${why}`];

/** `title`, with the first unmet need's reason. */
export function titleWithNeeds(title: string, needs: readonly Need[]): string {
  const unmet = needs.find(([met]) => !met);
  return unmet === undefined ? title : `${title} (skipped: ${unmet[1]})`;
}

const allMet = (needs: readonly Need[]) => needs.every(([met]) => met);

/** `describe`, run only where every need is met; skipped, its name says which one was not. */
export function describeIf(...needs: Need[]) {
  return (title: string, body: () => void, options: { concurrent?: boolean } = {}): void => {
    describe.runIf(allMet(needs))(titleWithNeeds(title, needs), options, body);
  };
}

/** `it`, run only where every need is met; skipped, its name says which one was not. */
export function itIf(...needs: Need[]) {
  return (title: string, body: TestFunction, timeout?: number): void => {
    it.runIf(allMet(needs))(titleWithNeeds(title, needs), body, timeout);
  };
}
