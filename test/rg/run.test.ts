/**
 * One ripgrep run below the public API: the byte cap on what is buffered, Windows stderr read with
 * the win32 flavour (the Windows machine is not here; its lines are), and the listing backend with
 * a small cap.
 */
import { describe, expect, it } from 'vitest';
import { Deadline } from '../../src/limits.js';
import type { FindOptions } from '../../src/options.js';
import { buildFindPlan } from '../../src/plan/search-plan.js';
import { listFilesWithRipgrep } from '../../src/rg/files.js';
import { FakeRipgrep, runFakeListing, useFakeInstall, nul, type Step } from '../helpers/rg-fake.js';

let rgPath: string;
let root: string;
useFakeInstall((made) => {
  ({ rgPath, root } = made);
});

const run = (script: Step[], platform: 'posix' | 'win32' = 'posix', maxRecordBytes = 1 << 20) => runFakeListing(script, { rgPath, root }, platform, maxRecordBytes);

describe('a Windows run', () => {
  it('reads English and Chinese access-denied lines as EPERM skips, keeping every printed path', async () => {
    const stderr =
      'rg: ./Program Files\\WindowsApps: Access is denied. (os error 5)\r\n' +
      './Users\\me\\AppData\\Local\\Microsoft\\WindowsApps\\locked: 拒绝访问。 (os error 5)\r\n';
    const { outcome } = run([{ stdout: nul('Program Files/tool/pdftotext.exe') }, { stderr }, { exit: 2 }], 'win32');
    const { consumer, stderr: report, verdict, recovery } = await outcome;
    expect(consumer.records).toEqual(['Program Files/tool/pdftotext.exe']);
    expect(report.skipped).toEqual([
      { path: 'Program Files/WindowsApps', code: 'EPERM' },
      { path: 'Users/me/AppData/Local/Microsoft/WindowsApps/locked', code: 'EPERM' },
    ]);
    expect(verdict).toEqual({ retryable: false });
    expect(recovery).toEqual({ selectionMode: 'system', retryTriggered: false });
  });

  it('passes --path-separator / so listed paths are already in the walker form', async () => {
    const { fake, outcome } = run([{ exit: 1 }], 'win32');
    await outcome;
    expect(fake.calls[0]!.argv).toEqual(['--files', '--hidden', '--no-ignore', '--no-config', '--null', '--path-separator', '/', '--threads', '4']);
  });
});

describe('the byte cap', () => {
  it('kills the child when one stdout record outgrows the cap: max_buffer, earlier records kept', async () => {
    const { fake, outcome } = run([{ stdout: nul('a') + 'x'.repeat(40) }, { stdout: 'y'.repeat(40) }, { hang: true }], 'posix', 64);
    const { consumer, verdict, recovery } = await outcome;
    expect(fake.calls[0]!.killed).toBe(true);
    expect(consumer.records).toEqual(['a']);
    expect(verdict).toEqual({ failureKind: 'max_buffer', stopReason: 'io-error', retryable: false });
    expect(recovery.failureKind).toBe('max_buffer');
  });

  it('kills the child when a stderr line outgrows the cap', async () => {
    const { fake, outcome } = run([{ stderr: 'z'.repeat(100) }, { hang: true }], 'posix', 64);
    const { verdict } = await outcome;
    expect(fake.calls[0]!.killed).toBe(true);
    expect(verdict.failureKind).toBe('max_buffer');
  });

  it('holds no more than the cap however much is printed in total, in small records', async () => {
    const many = Array.from({ length: 2000 }, (_, i) => `dir/file-${i}.txt`);
    const { outcome } = run([{ stdout: nul(...many) }, { exit: 0 }], 'posix', 64);
    const { consumer, verdict } = await outcome;
    expect(consumer.records).toHaveLength(2000);
    expect(verdict).toEqual({ retryable: false });
  });

  it('reaches the result through the listing backend as io-error with failure kind max_buffer', async () => {
    const options: FindOptions = { root, pattern: '*' };
    const plan = buildFindPlan(options);
    const fake = new FakeRipgrep([{ stdout: nul('ok.txt') + 'q'.repeat(100) }, { hang: true }]);
    const result = await listFilesWithRipgrep(
      plan,
      {
        rg: { path: rgPath, selectionMode: 'explicit' },
        runner: fake.runner,
        deadline: new Deadline(plan.limits.clock, plan.limits.timeBudgetMs),
        threads: 2,
        maxRecordBytes: 32,
      },
      (rel) => rel,
    );
    expect(fake.calls[0]!.killed).toBe(true);
    expect(result).toMatchObject({
      matches: ['ok.txt'],
      complete: false,
      incompleteReasons: ['io-error'],
      recovery: { selectionMode: 'explicit', retryTriggered: false, failureKind: 'max_buffer' },
    });
  });
});
