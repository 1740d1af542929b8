/**
 * What ripgrep is given: the fixed flags, globs only where ripgrep reads them as minimatch does,
 * user text always inside one element, and a minimal environment.
 */
import { describe, expect, it } from 'vitest';
import { buildChildEnv, buildFilesArgv, buildGlobArgs, sayAllInRipgrep, threadsOf, withThreads } from '../src/rg/argv.js';

const FIXED = ['--files', '--hidden', '--no-ignore', '--no-config', '--null', '--path-separator', '/', '--threads', '4'];
const base = { threads: 4, maxDepth: Infinity, patterns: ['*.ts'], excludes: [], hidden: true, platform: 'posix' as const };

describe('buildFilesArgv', () => {
  it('is the fixed flags, then the globs', () => {
    expect(buildFilesArgv(base)).toEqual([...FIXED, '--glob=*.ts']);
  });

  it('never follows links, never silences messages, never lets a config in', () => {
    const argv = buildFilesArgv({ ...base, excludes: ['x'], hidden: false, maxDepth: 3 });
    for (const banned of ['-L', '--follow', '--no-messages', '-uuu', '--ignore-file']) expect(argv).not.toContain(banned);
    expect(argv).toContain('--no-config');
  });

  it('passes maxDepth as --max-depth', () => {
    expect(buildFilesArgv({ ...base, maxDepth: 2 })).toEqual([...FIXED, '--max-depth', '2', '--glob=*.ts']);
    expect(buildFilesArgv({ ...base, maxDepth: 0 })).toContain('0');
  });

  it('keeps user text inside one element, even when it looks like a flag', () => {
    const argv = buildFilesArgv({ ...base, patterns: ['--files-without-match', '-uL*'] });
    expect(argv.slice(FIXED.length)).toEqual(['--glob=--files-without-match', '--glob=-uL*']);
  });
});

describe('buildGlobArgs', () => {
  it('expands braces into separate globs and uses --iglob on win32', () => {
    expect(buildGlobArgs({ ...base, patterns: ['src/**/*.{ts,tsx}'] })).toEqual(['--glob=src/**/*.ts', '--glob=src/**/*.tsx']);
    expect(buildGlobArgs({ ...base, platform: 'win32', patterns: ['*.TS'], excludes: ['Dist/'] })).toEqual(['--iglob=*.TS', '--iglob=!Dist/']);
  });

  it('puts excludes after includes (the later glob wins, as exclude wins in the walker) and hides dot entries for hidden: false', () => {
    expect(buildGlobArgs({ ...base, excludes: ['node_modules/', 'dist/**'], hidden: false })).toEqual([
      '--glob=*.ts',
      '--glob=!node_modules/',
      '--glob=!dist/**',
      '--glob=!.*',
    ]);
  });

  it('passes no include glob at all when one alternative cannot be said safely: ripgrep then lists everything', () => {
    for (const unsafe of ['*.[ch]', '?.ts', '+(a|b).ts', '{a}', '#notes', 'trailing ', 'a**b/x', 'a\\*', 'a//b']) {
      expect(sayAllInRipgrep([unsafe]), unsafe).toBeUndefined();
      expect(buildGlobArgs({ ...base, patterns: ['*.md', unsafe] }), unsafe).toEqual([]);
    }
  });

  it('drops only the unsafe exclude (ripgrep leaving less out is harmless: the walker filter decides)', () => {
    expect(buildGlobArgs({ ...base, patterns: ['*'], excludes: ['[ab]', 'dist/'] })).toEqual(['--glob=*', '--glob=!dist/']);
  });

  it('gives up on huge brace expansions', () => {
    expect(sayAllInRipgrep(['{a,b,c,d,e,f,g,h}{1,2,3,4,5,6,7,8,9}'])).toBeUndefined();
    expect(sayAllInRipgrep(['{a,b}{1,2}'])).toEqual(['a1', 'a2', 'b1', 'b2']);
  });
});

describe('threads', () => {
  it('swaps only the --threads value', () => {
    const argv = buildFilesArgv(base);
    expect(threadsOf(argv)).toBe(4);
    const retry = withThreads(argv, 1);
    expect(retry).toEqual([...FIXED.slice(0, -1), '1', '--glob=*.ts']);
    expect(argv).toEqual([...FIXED, '--glob=*.ts']); // untouched: the next search starts from the normal count
  });
});

describe('buildChildEnv', () => {
  it('keeps PATH and what Windows needs to start a program; drops RIPGREP_CONFIG_PATH and everything else', () => {
    const env = { PATH: '/usr/bin', RIPGREP_CONFIG_PATH: '/home/u/.ripgreprc', AWS_SECRET_ACCESS_KEY: 'x', HOME: '/home/u', TMPDIR: '/tmp' };
    expect(buildChildEnv(env, 'posix')).toEqual({ PATH: '/usr/bin', TMPDIR: '/tmp' });
  });

  it('matches names case-insensitively on win32', () => {
    const env = { Path: 'C:\\bin', SystemRoot: 'C:\\Windows', ripgrep_config_path: 'x', USERPROFILE: 'C:\\Users\\u' };
    expect(buildChildEnv(env, 'win32')).toEqual({ Path: 'C:\\bin', SystemRoot: 'C:\\Windows' });
  });
});
