/**
 * The fast path of the command line (src/cli/fast-args.ts) against its oracle, yargs with the same
 * flag table (src/cli/parser.ts): on random command lines built from the command's own flags,
 * values and mistakes, whenever the fast path answers, yargs accepts the line and gives exactly
 * the same arguments; whenever yargs refuses it, the fast path leaves it to yargs.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CliArgs } from '../../src/cli/args.js';
import { parseFast } from '../../src/cli/fast-args.js';
import { splitGluedValues } from '../../src/cli/flags.js';
import { buildParser } from '../../src/cli/parser.js';

const NOW = Date.UTC(2026, 11, 3, 12, 0, 0);

/** yargs' answer: the arguments (without `$0`), or the usage error it raised. */
function viaYargs(argv: string[]): { args: CliArgs } | { error: string } {
  const parser = buildParser({ version: 't', columns: 100, now: NOW, onUsageError: (message) => { throw new Error(message); } });
  try {
    const { $0: _script, ...args } = parser.parseSync(argv) as CliArgs & { $0?: string };
    return { args: args as CliArgs };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

const TOKENS = [
  '*.ts', 'src', 'a b', '007', '-', '--', '!x', '-x', '--frob', '--no-frob',
  '--root', 'dir', '--exclude', 'node_modules', '--hidden', '--no-hidden', '--gitignore', '--no-ignore', '--ignore-file', '.qwenignore',
  '-t', 'd', '--type', 'f', 'x', '--changed-within', '2h', '--changed-before', '3d', 'soon', '-S', '+10k', '--size', '-1M', '+ten',
  '--backend', 'auto', '-i', '-s', '--ignore-case', '--case-sensitive', '--contains', 'TODO', '--regex', '-l', '-c', '--count',
  '-A', '-B', '-C', '2', '1.5', '--context', '--max-results', '5', '--max-depth', '0', '--time-budget-ms', '100', '-1',
  '--strict', '--json', '--ndjson', '--absolute', '-0', '--print0', '--sort', 'mtime', '--stats', '--root=x', '--max-results=3', '-ls', '-is',
  '-tf', '-td', '-A0', '-C2', '-B0', '-tq',
  '-X', '--exec', '--exec-batch', '-j', '--jobs', '4', '-j0',
  // fd's flags (issue 30): short aliases, name modes, -u.
  '-e', 'ts', '.md', '--extension', '-E', '-d', '-a', '-H', '-u', '-uu', '--unrestricted', '--no-gitignore', '-F', '--fixed-strings', '--name-regex', '^a', '-ets', '-d2',
];

describe('the fast path agrees with yargs', () => {
  it('on random command lines: its every answer is yargs\' answer', () => {
    let answered = 0;
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...TOKENS), { maxLength: 7 }), (typed) => {
        const argv = splitGluedValues(typed); // as main.ts hands it to both
        const fast = parseFast(argv, NOW);
        // A line the fast path leaves to yargs needs no oracle: yargs answers it in the command too.
        if (fast === undefined) return;
        answered++;
        expect(fast).not.toBe('version');
        expect(viaYargs(argv)).toEqual({ args: fast });
      }),
      { numRuns: 3000, seed: 18 },
    );
    // Most valid lines take the fast path (else the start-up gain would be an accident).
    expect(answered).toBeGreaterThan(300);
    // A yargs parser per line the fast path answers: a minute on a loaded 2-core machine, not a speed assertion.
  }, 240_000);

  it('the command lines people type take the fast path, with yargs\' arguments', () => {
    for (const argv of [['*.md'], ['pdftotext*', '--root', '/home', '--max-depth', '6'], ['**/*.ts', 'src', '--exclude', '*.d.ts', '--json'], ['--contains', 'TODO', '-C', '2'], ['agent', '-t', 'd'], ['*.log', '--changed-within', '2d', '--sort', 'mtime'], ['*', '-0'], ['x', '--no-hidden', '--gitignore'], ['-e', 'ts', '-E', 'node_modules', '-d', '2', '-a', '-H'], ['-F', 'make', '-u'], ['--name-regex', '^Make', '-t', 'f'], ['x', '--no-gitignore']]) {
      const fast = parseFast(argv, NOW);
      expect(fast, argv.join(' ')).not.toBeUndefined();
      expect(viaYargs(argv)).toEqual({ args: fast });
    }
  });

  it('glued short values (-tf, -A0, -C2) take the fast path once split, with yargs\' arguments (main.ts splits for both)', () => {
    for (const typed of [['*', '-tf'], ['x', '-td', '-tl'], ['--contains', 'TODO', '-A0'], ['--contains', 'TODO', '-B0', '-C2'], ['*', '-tf', '-0']]) {
      const argv = splitGluedValues(typed);
      const fast = parseFast(argv, NOW);
      expect(fast, typed.join(' ')).not.toBeUndefined();
      expect(viaYargs(argv)).toEqual({ args: fast });
    }
    expect(parseFast(splitGluedValues(['--contains', 'x', '-A0']), NOW)).toMatchObject({ afterContext: 0 });
    expect(parseFast(splitGluedValues(['*', '-tf', '-td']), NOW)).toMatchObject({ type: ['file', 'directory'] });
  });

  it('--version answers at once; --help, unknown flags, bad values, conflicts and failed checks go to yargs', () => {
    expect(parseFast(['--version'], NOW)).toBe('version');
    expect(parseFast(['-V'], NOW)).toBe('version');
    for (const argv of [['--help'], ['-h'], ['x', '--frob'], ['x', '--max-results', '1.5'], ['x', '--json', '--ndjson'], [], ['x', '-l'], ['x', '--root'], ['x', '--changed-within', 'soon'], ['--contains', 'x', '-t', 'd']]) {
      expect(parseFast(argv, NOW), argv.join(' ')).toBeUndefined();
    }
  });
});
