/**
 * The generated table (src/glob/posix-class-table.ts) is this machine's glibc's answer. Apart from
 * test/glob/posix-classes.test.ts so that a mutation run of posix-classes.ts can name that file:
 * in Stryker's sandbox the generator's check reads the sandbox copy and fails whatever the mutant.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { GLIBC_VERSION } from '../../src/glob/posix-class-table.js';
import { localGlibcVersion } from '../helpers/glibc.js';

describe('the POSIX class table', () => {
  // On another glibc (ubuntu-latest's, say) the table is not this machine's to regenerate.
  const glibc = localGlibcVersion();
  const current = `the table is the current one: generate.mjs --check passes (glibc ${GLIBC_VERSION})`;
  it.skipIf(glibc !== GLIBC_VERSION)(glibc === GLIBC_VERSION ? current : `${current} (skipped: this machine's glibc is ${glibc ?? 'absent'})`, () => {
    const run = spawnSync(process.execPath, ['scripts/posix-classes/generate.mjs', '--check'], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });
});
