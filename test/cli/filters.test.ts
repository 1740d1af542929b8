/**
 * The command's filter syntax (src/cli/filters.ts) and the unknown-flag line, as units: durations
 * with humantime's units, dates (local without a zone, as fd), fd's size units, and the
 * "did you mean" for a mistyped flag.
 */
import { describe, expect, it } from 'vitest';
import { describeUnknownFlags } from '../../src/cli/args.js';
import { parseDate, parseDuration, parseSizes, parseTypes, parseWhen } from '../../src/cli/filters.js';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

describe('durations', () => {
  it.each([
    ['2h', 2 * HOUR], ['3d', 3 * DAY], ['10min', 10 * MIN], ['10m', 10 * MIN], ['90s', 90_000], ['1week', 7 * DAY],
    ['2weeks 3d', 17 * DAY], ['1h30m', 90 * MIN], ['1y', 365.25 * DAY], ['1M', 30.44 * DAY], ['500ms', 500],
  ])('%s is %d ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each(['', 'h', '2', '2 parsecs', '2h soon', '-2h', '1.5h'])('%j is no duration', (text) => {
    expect(parseDuration(text)).toBeUndefined();
  });
});

describe('dates', () => {
  it('a day or a time without a zone is local time, as fd; a zone or @SECONDS is exact', () => {
    expect(parseDate('2026-01-31')).toBe(new Date(2026, 0, 31).getTime());
    expect(parseDate('2026-01-31 12:30:05')).toBe(new Date(2026, 0, 31, 12, 30, 5).getTime());
    expect(parseDate('2026-01-31T12:30')).toBe(new Date(2026, 0, 31, 12, 30).getTime());
    expect(parseDate('2026-01-31T12:00:00Z')).toBe(Date.UTC(2026, 0, 31, 12));
    expect(parseDate('2026-01-31T12:00:00+02:00')).toBe(Date.UTC(2026, 0, 31, 10));
    expect(parseDate('@1769817600')).toBe(1769817600_000);
  });

  it.each(['2026-02-30', '2026-13-01', '31/01/2026', 'yesterday', '2026-01-31T25:00:00Z'])('%j is refused', (text) => {
    expect(parseDate(text)).toBeUndefined();
  });

  it('--changed-within reads a duration back from the clock it was given, else a date', () => {
    const now = Date.UTC(2026, 0, 31);
    expect(parseWhen('--changed-within', now)('2h')).toBe(now - 2 * HOUR);
    expect(parseWhen('--changed-within', now)(['1d', '3d'])).toBe(now - 3 * DAY);
    expect(parseWhen('--changed-within', now)('@0')).toBe(0);
    expect(() => parseWhen('--changed-before', now)('soon')).toThrow(/^--changed-before must be a duration .* got "soon"$/);
  });
});

describe('sizes and types', () => {
  it('fd units: k is 1000, ki 1024, an optional trailing b, case ignored; no sign is exact', () => {
    expect(parseSizes('+10k')).toEqual({ minSize: 10_000 });
    expect(parseSizes('-1M')).toEqual({ maxSize: 1_000_000 });
    expect(parseSizes('-1Mi')).toEqual({ maxSize: 1024 ** 2 });
    expect(parseSizes('+2kib')).toEqual({ minSize: 2048 });
    expect(parseSizes('+2KB')).toEqual({ minSize: 2000 });
    expect(parseSizes('500b')).toEqual({ minSize: 500, maxSize: 500 });
    expect(parseSizes(['+1k', '+2k', '-9k', '-5k'])).toEqual({ minSize: 2000, maxSize: 5000 });
  });

  it.each(['10', '+10', '1.5k', '+k', '10x', '++1k', '10bb'])('%j is refused', (text) => {
    expect(() => parseSizes(text)).toThrow(/^--size must be/);
  });

  it('types: letters and words, repeated ones once', () => {
    expect(parseTypes(['f', 'd', 'l', 'file', 'DIR', 'symlink'])).toEqual(['file', 'directory', 'symlink']);
    expect(() => parseTypes('x')).toThrow('--type must be f (file), d (directory), l (symlink), p (pipe), s (socket), b (block-device) or c (char-device), got "x"');
  });
});

describe('unknown flags', () => {
  const known = ['root', 'type', 't', 'sort', 'stats', 'changed-within', 'changed-before', 'hidden', 'ignore'];
  it('names each as typed, with the nearest flag when one is near, and points to --help', () => {
    expect(describeUnknownFlags('Unknown argument: changedWithn', known)).toBe('unknown option --changed-withn (did you mean --changed-within?); see find-file --help');
    expect(describeUnknownFlags('Unknown argument: stat', known)).toBe('unknown option --stat (did you mean --stats?); see find-file --help');
    expect(describeUnknownFlags('Unknown arguments: bogusflag, x', known)).toBe('unknown options --bogusflag, -x; see find-file --help');
    expect(describeUnknownFlags('Unknown argument: hiden', known)).toBe('unknown option --hiden (did you mean --hidden?); see find-file --help');
    expect(describeUnknownFlags('Unknown argument: noIgnor', known)).toBe('unknown option --no-ignor (did you mean --no-ignore?); see find-file --help');
  });

  it('names a --no- flag as typed, not as the key yargs reports (fd\'s --no-ignore-vcs was "unknown option --ignore-vcs")', () => {
    expect(describeUnknownFlags('Unknown argument: ignoreVcs', known, ['*', '--no-ignore-vcs'])).toBe('unknown option --no-ignore-vcs (did you mean --no-ignore?); see find-file --help');
    expect(describeUnknownFlags('Unknown argument: ignoreVcs', known, ['*', '--ignore-vcs'])).toBe('unknown option --ignore-vcs; see find-file --help');
    // After `--` a word is a pattern, never the flag typed.
    expect(describeUnknownFlags('Unknown argument: ignoreVcs', known, ['--ignore-vcs', '--', '--no-ignore-vcs'])).toBe('unknown option --ignore-vcs; see find-file --help');
    expect(describeUnknownFlags('Unknown argument: sortBy', known, ['--sort-by=path'])).toBe('unknown option --sort-by (did you mean --sort?); see find-file --help');
  });

  it('leaves every other message to the usual usage error', () => {
    expect(describeUnknownFlags('Not enough arguments following: root', known)).toBeUndefined();
  });
});
