/**
 * ripgrep 13 drops an ignore file whose rules compile past its regex size limit (10 MiB), warns
 * ("Compiled regex exceeds size limit"), exits 0 and lists what that file ignores. Such a run is no
 * clean answer (a stderr line nothing explains: failure `exit`); `auto` lets the walker answer a
 * listing, which is handed on only at the end (the regression adversary's finding: auto listed the
 * ignored x.log and said io-error, where the walker answers complete without it).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { findFiles } from '../../src/index.js';
import { needsRg, requireRipgrepInCi } from '../helpers/real-rg.js';
import { describeIf } from '../helpers/skip-why.js';

requireRipgrepInCi();

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'ff-rule-size-'));
  mkdirSync(join(root, '.git'));
  const rules = Array.from({ length: 20_000 }, (_, i) => `a/**/h${i}`);
  writeFileSync(join(root, '.gitignore'), [...rules, '*.log'].join('\n') + '\n');
  writeFileSync(join(root, 'x.log'), 'z\n');
  writeFileSync(join(root, 'y.txt'), 'z\n');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describeIf(needsRg)('a .gitignore ripgrep drops for its regex size limit', () => {
  it('ripgrep: never complete (it listed what the file ignores); auto: the walker\'s complete answer', async () => {
    const options = { root, pattern: '*', gitignore: true, ignoreGitDirs: true };
    const walker = await findFiles({ ...options, backend: 'walker' });
    expect(walker).toMatchObject({ matches: ['.gitignore', 'y.txt'], complete: true });
    const ripgrep = await findFiles({ ...options, backend: 'ripgrep' });
    expect(ripgrep).toMatchObject({ complete: false, recovery: { failureKind: 'exit' } });
    expect(ripgrep.incompleteReasons).toContain('io-error');
    const auto = await findFiles({ ...options, backend: 'auto' });
    expect(auto).toMatchObject({ backend: 'walker', fallbackReason: 'exit', matches: walker.matches, complete: true });
  }, 60_000);
});
