/**
 * What ripgrep is given: the fixed flags, exclude globs only where ripgrep reads them as the walker does,
 * user text always inside one element, and a minimal environment.
 */
import { describe, expect, it } from 'vitest';
import { buildChildEnv, buildContentArgv, buildFilesArgv, buildGlobArgs, ignoreFilesOf, threadsOf, withThreads } from '../../src/rg/argv.js';

const FIXED = ['--files', '--hidden', '--no-ignore', '--no-config', '--null', '--path-separator', '/', '--threads', '4'];
const base = { threads: 4, maxDepth: Infinity, excludes: [] as string[], hidden: true, caseSensitive: true, gitignore: false, ignoreFiles: [] as string[], gitDirsIgnored: false };

describe('buildFilesArgv', () => {
  it('is the fixed flags, and no include glob (ripgrep 13 cannot match ** across a newline: the walker filter decides)', () => {
    expect(buildFilesArgv(base)).toEqual(FIXED);
  });

  it('never follows links, never silences messages, never lets a config in', () => {
    const argv = buildFilesArgv({ ...base, excludes: ['x'], hidden: false, maxDepth: 3 });
    for (const banned of ['-L', '--follow', '--no-messages', '-uuu', '--ignore-file']) expect(argv).not.toContain(banned);
    expect(argv).toContain('--no-config');
  });

  it('gitignore: ripgrep\'s own ignore files, never the global gitignore (an answer must not depend on the machine)', () => {
    const argv = buildFilesArgv({ ...base, gitignore: true });
    expect(argv).toEqual(FIXED.map((flag) => (flag === '--no-ignore' ? '--no-ignore-global' : flag)));
    expect(buildContentArgv({ ...base, gitignore: true, patterns: ['**'], query: 'x', literal: true, caseMode: 'sensitive', multiline: false, perFile: Infinity, before: 0, after: 0 })).toContain('--no-ignore-global');
  });

  it('ignoreFiles: one --ignore-file=<path> element each, also with --no-ignore (which does not turn them off)', () => {
    const argv = buildFilesArgv({ ...base, ignoreFiles: ['/w/.qwenignore', '/w/-odd'] });
    expect(argv).toEqual([...FIXED, '--ignore-file=/w/.qwenignore', '--ignore-file=/w/-odd']);
  });

  it('ignoreGitDirs: one --glob=!.git/ (a directory at any depth, the exact name, as the walker), in both searches', () => {
    expect(buildFilesArgv({ ...base, gitDirsIgnored: true })).toEqual([...FIXED, '--glob=!.git/']);
    expect(buildFilesArgv({ ...base, gitDirsIgnored: true, caseSensitive: false })).toEqual([...FIXED, '--glob=!.git/']);
    expect(buildContentArgv({ ...base, gitDirsIgnored: true, patterns: ['**'], query: 'x', literal: true, caseMode: 'sensitive', multiline: false, perFile: Infinity, before: 0, after: 0 })).toContain('--glob=!.git/');
  });

  it('maxHitsPerFile as --max-count, so ripgrep reads no further in a file; none without a cap', () => {
    const content = { ...base, patterns: ['**'], query: 'x', literal: true, caseMode: 'sensitive' as const, multiline: false, before: 0, after: 0 };
    const capped = buildContentArgv({ ...content, perFile: 3 });
    expect(capped.slice(capped.indexOf('--max-count'), capped.indexOf('--max-count') + 2)).toEqual(['--max-count', '3']);
    expect(capped.indexOf('--max-count')).toBeLessThan(capped.indexOf('--'));
    expect(buildContentArgv({ ...content, perFile: Infinity })).not.toContain('--max-count');
  });

  it('passes maxDepth as --max-depth', () => {
    expect(buildFilesArgv({ ...base, maxDepth: 2 })).toEqual([...FIXED, '--max-depth', '2']);
    expect(buildFilesArgv({ ...base, maxDepth: 0 })).toContain('0');
  });

  it('keeps user text inside one element, even when it looks like a flag', () => {
    const argv = buildFilesArgv({ ...base, excludes: ['--files-without-match', '-uL*'] });
    expect(argv.slice(FIXED.length)).toEqual(['--glob=!--files-without-match', '--glob=!-uL*']);
  });
});

describe('buildGlobArgs', () => {
  it('passes excludes, hides dot entries for hidden: false, and uses --iglob when case does not matter', () => {
    expect(buildGlobArgs({ ...base, excludes: ['node_modules/', 'dist/**'], hidden: false })).toEqual(['--glob=!node_modules/', '--glob=!dist/**', '--glob=!.*']);
    expect(buildGlobArgs({ ...base, caseSensitive: false, excludes: ['Out/'] })).toEqual(['--iglob=!Out/']);
  });

  it('drops an exclude ripgrep could read as leaving out more than the walker does', () => {
    for (const unsafe of ['*.[ch]', '?.ts', '+(a|b).ts', 'x{1,2}', '#notes', 'trailing ', 'a**b/x', 'a\\*', 'a//b', '!x']) {
      expect(buildGlobArgs({ ...base, excludes: [unsafe, 'dist/'] }), unsafe).toEqual(['--glob=!dist/']);
    }
  });

  it('drops a case-insensitive exclude whose letters ripgrep folds by Unicode (k and KELVIN SIGN, s and LONG S)', () => {
    expect(buildGlobArgs({ ...base, caseSensitive: false, excludes: ['*.ts', 'build', 'é', 'dist', 'Out'] })).toEqual(['--iglob=!build', '--iglob=!Out']);
    expect(buildGlobArgs({ ...base, excludes: ['*.ts', 'é'] })).toEqual(['--glob=!*.ts', '--glob=!é']);
  });
});

describe('threads', () => {
  it('swaps only the --threads value', () => {
    const argv = buildFilesArgv({ ...base, excludes: ['x'] });
    expect(threadsOf(argv)).toBe(4);
    const retry = withThreads(argv, 1);
    expect(retry).toEqual([...FIXED.slice(0, -1), '1', '--glob=!x']);
    expect(argv).toEqual([...FIXED, '--glob=!x']); // untouched: the next search starts from the normal count
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

describe('ignoreFilesOf', () => {
  it('reads back the --ignore-file paths (the stderr reader believes warnings about them), never a query after --', () => {
    const content = { ...base, ignoreFiles: ['/a/my rules', '/b/.qwenignore'], patterns: ['**'], query: '--ignore-file=/etc/x', literal: true, caseMode: 'sensitive', multiline: false, perFile: Infinity, before: 0, after: 0 } as const;
    expect(ignoreFilesOf(buildContentArgv(content))).toEqual(['/a/my rules', '/b/.qwenignore']);
    expect(ignoreFilesOf(buildFilesArgv({ ...base, ignoreFiles: ['/c/-x'] }))).toEqual(['/c/-x']);
    expect(ignoreFilesOf(buildFilesArgv(base))).toEqual([]);
  });
});

describe('the file-type filter of content search (src/rg/type-filter.ts)', () => {
  const content = { ...base, query: 'needle', literal: true, caseMode: 'sensitive' as const, multiline: false, perFile: Infinity, before: 0, after: 0 };
  const typeArgsOf = (patterns: string[], caseSensitive = true) => buildContentArgv({ ...content, patterns, caseSensitive }).filter((arg) => arg.startsWith('--type'));

  it("gives each pattern's last segment as one --type-add element, then --type, before the query", () => {
    const argv = buildContentArgv({ ...content, patterns: ['*.ts', 'src/**/*.js', '/meminfo', '-odd name.c'] });
    expect(typeArgsOf(['*.ts', 'src/**/*.js', '/meminfo', '-odd name.c'])).toEqual([
      '--type-add=findfile:*.ts',
      '--type-add=findfile:*.js',
      '--type-add=findfile:meminfo',
      '--type-add=findfile:-odd name.c',
      '--type=findfile',
    ]);
    expect(argv.indexOf('--type=findfile')).toBeLessThan(argv.indexOf('--'));
    expect(argv.slice(-3)).toEqual(['--', 'needle', '.']);
  });

  it('the same segment once', () => {
    expect(typeArgsOf(['a/*.ts', 'b/*.ts'])).toEqual(['--type-add=findfile:*.ts', '--type=findfile']);
  });

  // Each is a glob ripgrep reads otherwise (or `--type-add` syntax), or one that selects every name: no filter at all.
  const REFUSED = ['**', 'src/**', '*', 'a/**', '?.ts', '[ab].ts', '{a}.ts', 'x}.ts', '@(a|b).ts', '!(a).ts', 'a\\*.ts', 'a:b.ts', 'a,b.ts', 'é.ts', 'a**b.ts', 'dir/', 'tab\t.ts', 'a|b', 'x!'];
  for (const refused of REFUSED) {
    it(`no filter when one pattern is ${JSON.stringify(refused)}, whatever the others`, () => {
      expect(typeArgsOf([refused])).toEqual([]);
      expect(typeArgsOf(['*.ts', refused, 'meminfo'])).toEqual([]);
    });
  }

  it('case-insensitive globs: only a segment with no letter (ripgrep type globs match case exactly)', () => {
    expect(typeArgsOf(['*.ts'], false)).toEqual([]);
    expect(typeArgsOf(['2024-*_01.*'], false)).toEqual(['--type-add=findfile:2024-*_01.*', '--type=findfile']);
  });

  it('no filter past MAX_TYPE_GLOB_CHARS of globs (a command line has a cap)', () => {
    const many = Array.from({ length: 2_000 }, (_, i) => `name-${i}.ts`);
    expect(typeArgsOf(many)).toEqual([]);
    expect(typeArgsOf(many.slice(0, 100))).toHaveLength(101);
  });

  it('the file listing gets no type filter (it lists by the walker matcher alone)', () => {
    expect(buildFilesArgv(base).some((arg) => arg.startsWith('--type'))).toBe(false);
  });
});
