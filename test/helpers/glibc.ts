import { spawnSync } from 'node:child_process';

/** This machine's glibc version (`2.36`), or undefined where there is none (macOS, Windows, musl). */
export function localGlibcVersion(): string | undefined {
  if (process.platform !== 'linux') return undefined;
  const run = spawnSync('getconf', ['GNU_LIBC_VERSION'], { encoding: 'utf8' });
  const match = run.status === 0 ? /^glibc (\S+)/.exec(run.stdout) : null;
  return match?.[1];
}
