/**
 * The command line as the command reads it (src/cli/args.ts), without spawning anything: the
 * request each command line becomes, the root rule and the count rule. test/cli/cli.test.ts runs
 * the real command end to end.
 */
import { describe, expect, it } from 'vitest';
import { splitRoot, toCliRequest, type CliArgs } from '../../src/cli/args.js';
import { buildFlags, refuseValuedSwitches, splitGluedValues } from '../../src/cli/flags.js';
import { buildParser } from '../../src/cli/parser.js';

class UsageError extends Error {}

function parse(argv: string[]): CliArgs {
  const parser = buildParser({ version: '0.0.0', columns: 80, onUsageError: (message) => { throw new UsageError(message); } });
  return parser.parseSync(argv);
}

/** Directories the root rule may see: none but `src`. */
const onlySrc = (candidate: string) => candidate === 'src';

describe('the request a command line becomes', () => {
  it('leaves every flag not given out, so the library defaults apply, but for ignore files: on, with .git/ left out, as fd and rg (issue 30)', () => {
    expect(toCliRequest(parse(['*.md']), onlySrc)).toStrictEqual({ kind: 'files', options: { root: '.', pattern: '*.md', gitignore: true, ignoreGitDirs: true }, output: 'human', strict: false, quiet: false });
    for (const off of ['-u', '--no-ignore', '--no-gitignore', '--unrestricted']) {
      expect(toCliRequest(parse(['*.md', off]), onlySrc)).toStrictEqual({ kind: 'files', options: { root: '.', pattern: '*.md', gitignore: false, ignoreGitDirs: false }, output: 'human', strict: false, quiet: false });
    }
  });

  it('maps every file-search flag to its option', () => {
    const argv = ['*.md', '*.ts', '--exclude', 'a', '--exclude', 'b', '--no-hidden', '-i', '--max-results', '3', '--max-depth', '2', '--time-budget-ms', '100', '--absolute', '--backend', 'ripgrep', '--json', '--strict'];
    expect(toCliRequest(parse(argv), onlySrc)).toStrictEqual({
      kind: 'files',
      options: { root: '.', pattern: ['*.md', '*.ts'], exclude: ['a', 'b'], hidden: false, gitignore: true, ignoreGitDirs: true, caseSensitive: false, maxResults: 3, maxDepth: 2, timeBudgetMs: 100, absolute: true, backend: 'ripgrep' },
      output: 'json',
      strict: true,
      quiet: false,
    });
  });

  it('--contains builds content options with the query; --absolute stays with the printer (hits are root-relative)', () => {
    const request = toCliRequest(parse(['*.ts', 'src', '--contains', 'TODO', '-s', '--absolute', '--ndjson']), onlySrc);
    expect(request).toStrictEqual({ kind: 'content', options: { root: 'src', pattern: '*.ts', gitignore: true, ignoreGitDirs: true, caseSensitive: true, query: 'TODO', maxOutputBytes: Number.MAX_SAFE_INTEGER }, output: 'ndjson', strict: false, quiet: false, absolute: true, filesWithMatches: false, count: false });
  });

  it('--contains alone searches every file (no pattern option); --regex sets the mode; -l the printer', () => {
    const request = toCliRequest(parse(['--contains', 'a+b', '--regex', '-l']), onlySrc);
    expect(request).toStrictEqual({ kind: 'content', options: { root: '.', gitignore: true, ignoreGitDirs: true, query: 'a+b', mode: 'regex', maxHitsPerFile: 1, maxOutputBytes: Number.MAX_SAFE_INTEGER }, output: 'human', strict: false, quiet: false, absolute: false, filesWithMatches: true, count: false });
  });

  it('takes the last value of a flag given twice, and -0 for the output', () => {
    const request = toCliRequest(parse(['*.md', '--root', 'a', '--root', 'b', '--max-depth', '1', '--max-depth', '4', '-0']), onlySrc);
    expect(request).toMatchObject({ options: { root: 'b', maxDepth: 4 }, output: 'print0' });
  });
});

describe('the root rule', () => {
  it('--root wins; else the last of two or more positionals when it is a directory; else the current directory', () => {
    expect(splitRoot(['*.ts', 'src'], 'lib', onlySrc)).toEqual({ patterns: ['*.ts', 'src'], root: 'lib' });
    expect(splitRoot(['*.ts', 'src'], undefined, onlySrc)).toEqual({ patterns: ['*.ts'], root: 'src' });
    expect(splitRoot(['src'], undefined, onlySrc)).toEqual({ patterns: ['src'], root: '.' });
    expect(splitRoot(['*.ts', '*.md'], undefined, onlySrc)).toEqual({ patterns: ['*.ts', '*.md'], root: '.' });
  });

  it('a last positional without glob syntax that names nothing is meant as the root: fatal (as fd), never a pattern', () => {
    const none = () => false;
    expect(() => splitRoot(['*.log', 'build'], undefined, onlySrc, none)).toThrow(/^root build does not exist \(ENOENT\): the last argument holds no glob syntax and names nothing here/);
    // A file that is there is a pattern, and finds it (rg TEXT file; two names: find-file a.md b.md).
    expect(splitRoot(['*.md', 'notes.md'], undefined, onlySrc, () => true)).toEqual({ patterns: ['*.md', 'notes.md'], root: '.' });
    for (const glob of ['*.md', 'a?', '[ab]', '{a,b}', '@(a|b)']) expect(splitRoot(['x', glob], undefined, onlySrc, none)).toEqual({ patterns: ['x', glob], root: '.' });
  });

  it('with --contains (no pattern needed) one positional is already a root candidate, as rg TEXT DIR', () => {
    expect(splitRoot(['src'], undefined, onlySrc, undefined, 0)).toEqual({ patterns: [], root: 'src' });
    expect(splitRoot(['*.ts'], undefined, onlySrc, undefined, 0)).toEqual({ patterns: ['*.ts'], root: '.' });
    expect(() => splitRoot(['nope'], undefined, onlySrc, () => false, 0)).toThrow(/^root nope does not exist/);
    expect(splitRoot([], undefined, onlySrc, undefined, 0)).toEqual({ patterns: [], root: '.' });
  });
});

describe('habits of fd and rg that read otherwise here (an adversarial run: each answered "no match, complete" or a missing root)', () => {
  const dirs = (...names: string[]) => (candidate: string) => names.includes(candidate);

  it('several folders as search paths (fd PAT src docs, rg TEXT src docs) are refused: only the last would be searched', () => {
    const refused = /"src", "docs" are all folders: find-file searches one root, the last argument/;
    expect(() => splitRoot(['*.md', 'src', 'docs'], undefined, dirs('src', 'docs'))).toThrow(refused);
    expect(() => splitRoot(['src', 'docs'], undefined, dirs('src', 'docs'), undefined, 0)).toThrow(refused);
    expect(() => toCliRequest(parse(['--contains', 'TODO', 'src', 'docs']), dirs('src', 'docs'))).toThrow(expect.objectContaining({ code: 'FF_INVALID_OPTION', option: 'root' }));
    // The first pattern of a listing is a pattern whatever it names; a glob is never a folder here; --root says it all.
    expect(splitRoot(['src', 'docs'], undefined, dirs('src', 'docs'))).toEqual({ patterns: ['src'], root: 'docs' });
    expect(splitRoot(['*.md', 's*', 'docs'], undefined, dirs('s*', 'docs'))).toEqual({ patterns: ['*.md', 's*'], root: 'docs' });
    expect(splitRoot(['*.md', 'src', 'docs'], 'lib', dirs('src', 'docs'))).toEqual({ patterns: ['*.md', 'src', 'docs'], root: 'lib' });
    expect(splitRoot(['a.md', 'b.md', 'docs'], undefined, dirs('docs'))).toEqual({ patterns: ['a.md', 'b.md'], root: 'docs' });
  });

  it('-F text with -e: the text is a pattern, never read as the root', () => {
    expect(toCliRequest(parse(['-F', 'Make', '-e', 'md']), dirs())).toMatchObject({ kind: 'files', options: { root: '.', pattern: '*', nameRegex: ['(?-i)Make', '(?is).\\.(?:md)$'] } });
    expect(toCliRequest(parse(['-F', 'make', '-e', 'md', 'src']), dirs('src'))).toMatchObject({ options: { root: 'src', nameRegex: ['(?i)make', '(?is).\\.(?:md)$'] } });
  });

  it('-F or --name-regex text holding a "/" is refused, as fd refuses it: a base name never holds one', () => {
    expect(() => toCliRequest(parse(['-F', 'app/sub']), dirs())).toThrow(expect.objectContaining({ code: 'FF_INVALID_OPTION', message: expect.stringMatching(/^-F "app\/sub" holds a path separator.*find-file '\*\*\/app\/sub\/\*\*'/) }));
    expect(() => toCliRequest(parse(['--name-regex', 'src/a\\.md']), dirs())).toThrow(expect.objectContaining({ code: 'FF_INVALID_OPTION', option: 'nameRegex' }));
    // A glob may hold one: it is a path.
    expect(toCliRequest(parse(['app/sub/*']), dirs())).toMatchObject({ options: { pattern: 'app/sub/*' } });
  });
});

describe('a short flag glued to its value (rg and fd habits, issue 27)', () => {
  it('-A0 -B0 -C0 -tf -td -tl read as -A 0, -t f...; -0 alone stays --print0', () => {
    // fd's -1; any other negative number is no flag (yargs-parser took it for a positional: a pattern, a root).
    expect(splitGluedValues(['-1', '*.md'])).toEqual(['--max-results', '1', '*.md']);
    expect(parse(splitGluedValues(['-1', '*.md']))).toMatchObject({ maxResults: 1, _: ['*.md'] });
    for (const word of ['-5', '-0001', '-12']) expect(() => splitGluedValues(['*.md', word])).toThrow(new RegExp(`unknown option ${word}`));
    expect(splitGluedValues(['--contains', '-5', '--', '-7'])).toEqual(['--contains', '-5', '--', '-7']);
    expect(splitGluedValues(['x', '-tf', '-td', '-tl', '-A0', '-B12', '-C0', '-0'])).toEqual(['x', '-t', 'f', '-t', 'd', '-t', 'l', '-A', '0', '-B', '12', '-C', '0', '-0']);
    // yargs (the path for every usage error) reads them as the separate words.
    expect(parse(splitGluedValues(['*', '-tf', '-td', '-tl', '-0']))).toMatchObject({ type: ['file', 'directory', 'symlink'], print0: true });
    expect(parse(splitGluedValues(['--contains', 'x', '-A0', '-B0', '-C3']))).toMatchObject({ afterContext: 0, beforeContext: 0, context: 3 });
    // Without the split, -A0 is -A and -0, and yargs refuses it: the bug this pins.
    expect(() => parse(['--contains', 'x', '-A0'])).toThrow(UsageError);
  });

  it('leaves a flag\'s value, everything after --, -t=f and unknown letters as they are', () => {
    for (const argv of [['--contains', '-tf'], ['--exclude', '-A0', 'x'], ['-t', '-td'], ['x', '--', '-tf', '-A0'], ['x', '-t=f'], ['x', '-xf'], ['x', '-ls'], ['x', '--type']]) {
      expect(splitGluedValues(argv), argv.join(' ')).toEqual(argv);
    }
    // A value starting with a sign or a dot is split too (-e.ts reached yargs-parser whole and failed).
    for (const [glued, value] of [['-S+10k', '+10k'], ['-S-1M', '-1M'], ['-e.ts', '.ts'], ['-E.git', '.git']] as const) {
      expect(splitGluedValues(['x', glued])).toEqual(['x', glued.slice(0, 2), value]);
    }
    expect(parse(splitGluedValues(['-e.ts']))).toMatchObject({ extension: ['ts'] });
    // A glued value that is wrong stays wrong, with the flag's own message.
    expect(() => parse(splitGluedValues(['*', '-tq']))).toThrow(/--type must be f \(file\), d \(directory\), .* got "q"/);
  });
});

describe('a switch given a value (an adversarial run: --strict=1 read as false, exit 0 on an incomplete search)', () => {
  const flags = Object.entries(buildFlags(0));
  const switches = flags.filter(([, spec]) => spec.type === 'boolean');
  const valuedFlags = flags.filter(([, spec]) => spec.requiresArg === true);

  it('every switch, long and short, refuses any value but true and false, naming itself', () => {
    expect(switches.length).toBeGreaterThanOrEqual(15);
    for (const [name, spec] of switches) {
      for (const value of ['1', '0', 'yes', 'no', '', 'TRUE', 'on']) {
        expect(() => refuseValuedSwitches(['x', `--${name}=${value}`]), `--${name}=${value}`).toThrow(new RegExp(`^--${name} is a switch and takes no value`));
      }
      for (const value of ['true', 'false']) expect(() => refuseValuedSwitches(['x', `--${name}=${value}`])).not.toThrow();
      expect(() => refuseValuedSwitches(['x', `--${name}`])).not.toThrow();
      if (spec.alias === undefined || !/^[A-Za-z]$/.test(spec.alias)) continue;
      for (const glued of ['=1', '.log', '1', '-x']) {
        expect(() => refuseValuedSwitches(['x', `-${spec.alias}${glued}`]), `-${spec.alias}${glued}`).toThrow(new RegExp(`^-${spec.alias} is a switch and takes no value`));
        // At the end of a cluster of switches too.
        expect(() => refuseValuedSwitches(['x', `-H${spec.alias}${glued}`]), `-H${spec.alias}${glued}`).toThrow(/is a switch and takes no value/);
      }
    }
    // The error is the library's usage kind: status 2.
    expect(() => refuseValuedSwitches(['--strict=1'])).toThrow(expect.objectContaining({ code: 'FF_INVALID_OPTION' }));
  });

  it('fd\'s -H0 and -aH0: the switches, then -0 (--print0), never the value 0 of the last switch', () => {
    expect(splitGluedValues(['*', '-H0', '-aH0', '--', '-H0'])).toEqual(['*', '-H', '-0', '-aH', '-0', '--', '-H0']);
    expect(parse(splitGluedValues(['*', '-aH0']))).toMatchObject({ absolute: true, hidden: true, print0: true });
    expect(() => refuseValuedSwitches(splitGluedValues(['*', '-H0']))).not.toThrow();
    // A letter that takes a value is glued to its value as before: -d0 is --max-depth 0.
    expect(splitGluedValues(['*', '-d0'])).toEqual(['*', '-d', '0']);
  });

  it('leaves clusters of switches, every flag\'s value and everything after -- as text', () => {
    expect(() => refuseValuedSwitches(['x', '-Ha', '-0', '-aH'])).not.toThrow();
    for (const [name, spec] of valuedFlags) {
      for (const flag of [`--${name}`, ...(spec.alias === undefined ? [] : [`-${spec.alias}`])]) {
        expect(() => refuseValuedSwitches(['x', flag, '--strict=1']), `${flag} --strict=1`).not.toThrow();
      }
    }
    expect(() => refuseValuedSwitches(['x', '--', '--strict=1', '-a.log'])).not.toThrow();
    expect(() => refuseValuedSwitches(['x', '--contains=--json=1'])).not.toThrow();
  });
});

describe('-x glued to another short flag (an adversarial run: status 1, "root echo does not exist")', () => {
  it('is refused as a usage error before the root rule reads the command as a root, whatever exists', () => {
    for (const argv of [['--contains', 'TODO', '-lx', 'echo'], ['*', '-ax', 'echo'], ['*', '-Hx', 'printf'], ['*', '-aX', 'echo']]) {
      expect(() => toCliRequest(parse(argv), () => false), argv.join(' ')).toThrow(expect.objectContaining({ code: 'FF_INVALID_OPTION', message: expect.stringMatching(/^give -x\/-X as a word of its own/) }));
    }
  });
});

describe('usage errors', () => {
  it.each([
    [['*.md', '--max-results', '1.5'], '--max-results must be a non-negative integer, got "1.5"'],
    [['*.md', '--max-depth', '0x10'], '--max-depth must be a non-negative integer, got "0x10"'],
    [['*.md', '--time-budget-ms', ''], '--time-budget-ms must be a non-negative integer, got ""'],
    [[], 'no pattern given: name at least one glob, e.g. find-file "*.md"'],
    [['*.md', '--json', '--ndjson'], 'Arguments json and ndjson are mutually exclusive'],
  ])('%j: %s', (argv, message) => {
    expect(() => parse(argv)).toThrow(new UsageError(message));
  });
});
