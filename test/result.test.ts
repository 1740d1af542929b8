/**
 * The result contract's small functions as units (issue 28): which codes leave a gap, the code read off
 * a thrown value, and `ReasonLog`'s order (the stop first, every reason once). Every engine builds its
 * verdict from these; the walk suites reach them only through whole searches, where a mutant that
 * lists a reason twice or reorders them can hide behind a walk that never meets the case.
 */
import { describe, expect, it } from 'vitest';
import { classifyErrorCode, errorCodeOf, reasonForCode, ReasonLog, skippedFor, verdictFields } from '../src/result.js';

describe('classifyErrorCode and reasonForCode: what a read error costs', () => {
  it.each([
    ['EACCES', 'permission-denied', 'permission-denied'],
    ['EPERM', 'permission-denied', 'permission-denied'],
    ['ENOENT', 'vanished', undefined],
    ['ENOTDIR', 'vanished', undefined],
    ['EMFILE', 'retryable', 'io-error'],
    ['ENFILE', 'retryable', 'io-error'],
    ['EIO', 'io-error', 'io-error'],
    ['', 'io-error', 'io-error'],
    ['UNKNOWN', 'io-error', 'io-error'],
  ] as const)('%s is %s, a gap of %s', (code, kind, reason) => {
    expect(classifyErrorCode(code)).toBe(kind);
    expect(reasonForCode(code)).toBe(reason);
  });

  it('skippedFor names only the paths behind that reason (a vanished path is behind none)', () => {
    const skipped = [
      { path: 'a', code: 'EACCES' },
      { path: 'b', code: 'EIO' },
      { path: 'c', code: 'ENOENT' },
      { path: 'd', code: 'EPERM' },
    ];
    expect(skippedFor('permission-denied', skipped).map((s) => s.path)).toStrictEqual(['a', 'd']);
    expect(skippedFor('io-error', skipped).map((s) => s.path)).toStrictEqual(['b']);
  });
});

describe('errorCodeOf: the code carried by a thrown value', () => {
  it.each([
    ['a string code', { code: 'EACCES' }, 'EACCES'],
    ['an empty code', { code: '' }, 'UNKNOWN'],
    ['a number code', { code: 13 }, 'UNKNOWN'],
    ['no code', new Error('x'), 'UNKNOWN'],
    ['null', null, 'UNKNOWN'],
    ['undefined', undefined, 'UNKNOWN'],
  ])('%s gives %s', (_what, thrown, code) => {
    expect(errorCodeOf(thrown)).toBe(code);
  });
});

describe('verdictFields: complete exactly when there is no reason', () => {
  it('no reason: complete, no first reason', () => {
    expect(verdictFields([])).toEqual({ complete: true, incompleteReasons: [] });
  });
  it('reasons: incomplete, the first one named', () => {
    expect(verdictFields(['aborted', 'io-error'])).toEqual({ complete: false, incompleteReason: 'aborted', incompleteReasons: ['aborted', 'io-error'] });
  });
});

describe('ReasonLog: the stop first, then the others in the order met, each once', () => {
  it('a reason noted twice is listed once', () => {
    const log = new ReasonLog();
    log.note('io-error');
    log.note('permission-denied');
    log.note('io-error');
    expect(log.list()).toStrictEqual(['io-error', 'permission-denied']);
  });

  it('a reason noted after it stopped the walk is not listed again', () => {
    const log = new ReasonLog();
    expect(log.stop('time-budget')).toBe(true);
    log.note('time-budget');
    log.note('io-error');
    expect(log.list()).toStrictEqual(['time-budget', 'io-error']);
  });

  it('only the first stop counts: a second is refused and not listed', () => {
    const log = new ReasonLog();
    expect(log.stopped).toBe(false);
    expect(log.stop('result-limit')).toBe(true);
    expect(log.stopped).toBe(true);
    expect(log.stop('aborted')).toBe(false);
    expect(log.list()).toStrictEqual(['result-limit']);
    expect(log.has('aborted')).toBe(false);
  });

  it('a stop already noted as a gap moves to the front, listed once (whether it was first or not)', () => {
    const first = new ReasonLog();
    first.note('io-error');
    first.note('permission-denied');
    first.stop('io-error');
    expect(first.list()).toStrictEqual(['io-error', 'permission-denied']);
    const second = new ReasonLog();
    second.note('io-error');
    second.note('time-budget');
    second.stop('time-budget');
    expect(second.list()).toStrictEqual(['time-budget', 'io-error']);
  });

  it('has() knows the stop reason and the others, and nothing else', () => {
    const log = new ReasonLog();
    log.note('depth-limit');
    log.stop('aborted');
    expect(log.has('aborted')).toBe(true);
    expect(log.has('depth-limit')).toBe(true);
    expect(log.has('io-error')).toBe(false);
  });

  it('noteSkipped: a vanished path leaves no reason; a denied or failed one leaves its own', () => {
    const log = new ReasonLog();
    log.noteSkipped('ENOENT');
    log.noteSkipped('ENOTDIR');
    expect(log.list()).toStrictEqual([]);
    log.noteSkipped('EPERM');
    log.noteSkipped('EMFILE');
    log.noteSkipped('EACCES');
    expect(log.list()).toStrictEqual(['permission-denied', 'io-error']);
  });

  it('noteSkipped after a stop: a vanished path still leaves no reason', () => {
    const log = new ReasonLog();
    log.stop('result-limit');
    log.noteSkipped('ENOENT');
    expect(log.list()).toStrictEqual(['result-limit']);
  });

  it('list() is a copy: changing it does not change the log', () => {
    const log = new ReasonLog();
    log.note('io-error');
    log.list().push('aborted');
    expect(log.list()).toStrictEqual(['io-error']);
  });
});
