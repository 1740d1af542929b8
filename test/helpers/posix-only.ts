/**
 * Tests that need a POSIX system (a `#!/bin/sh` script, chmod modes, runuser/setpriv, mkfifo,
 * `ulimit` through bash, bash as an oracle) skip on Windows (the workflow's windows-latest), and
 * their title says why there. What they stand for on Windows is the Windows set's job
 * (test/windows/, `npm run test:windows`): a folder denied by an ACL, reparse points, drive roots.
 */
export const onWindows = process.platform === 'win32';

/** `title`, with the reason it is skipped when the run is on Windows. */
export function posixOnly(title: string, why: string): string {
  return onWindows ? `${title} (skipped on Windows: ${why})` : title;
}
