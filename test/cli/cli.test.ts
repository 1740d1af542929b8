/**
 * The `find-file` command end to end: each test spawns the real bin/find-file.mjs with `node` (no
 * shell) on a real temp tree and checks what a user or a script sees: stdout, stderr, the exit
 * status. The library result it must agree with comes from dist/, the build the command runs.
 *
 * Slow searches (to interrupt one, or to see the progress line) and unreadable folders on any
 * platform use test/helpers/cli-test-fs.mjs, a preload that delays or fails chosen directory reads.
 * POSIX-only cases (real permissions, signals, a pseudo-terminal) say so in their names and run
 * on Linux and macOS CI.
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFiles, type FindOptions, type FindResult } from '../../dist/index.js';
import {
  VERSION,
  collect,
  comparable,
  escapeRegExp,
  inTerminalAsync,
  isPosix,
  absenceOutsideLinks,
  lines,
  native,
  prepareAsUser,
  releaseAsUser,
  runFindFile,
  spawnFindFile,
  waitFor,
  writeTree,
  type Run,
  type RunOptions,
} from '../helpers/cli.js';
import { needsRg, requireRipgrepInCi } from '../helpers/real-rg.js';
import { describeIf, itIf, posix } from '../helpers/skip-why.js';

/** Runs the command to the end, in the shared tree unless told otherwise. */
function ff(args: string[], options: Partial<RunOptions> = {}): Run {
  return runFindFile(args, { cwd: tree, ...options });
}

let base: string;
let tree: string;
const FILES = [
  'README.md',
  'name with spaces.md',
  'docs/guide.md',
  'docs/deep/a/b/notes.md',
  'src/index.ts',
  'src/util.ts',
  'src/util.test.ts',
  '.config/settings.md',
  'node_modules/pkg/README.md',
  'bin/tool',
];
const ALL_MD = ['.config/settings.md', 'README.md', 'docs/deep/a/b/notes.md', 'docs/guide.md', 'name with spaces.md', 'node_modules/pkg/README.md'];

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'find-file-cli-'));
  chmodSync(base, 0o755); // the permission cases run as another user
  tree = join(base, 'tree');
  writeTree(tree, FILES);
  if (isPosix) symlinkSync(join(tree, 'docs'), join(tree, 'link-to-docs'));
});

afterAll(() => {
  // The unprivileged copy of the command, built once for the file's two groups that run as nobody
  // (each built and removed its own: ~0.45 s of the worker's CPU a build).
  releaseAsUser();
  if (!base) return;
  rmSync(base, { recursive: true, force: true });
});

describe('human output', () => {
  it('prints one path per line on stdout and a summary on stderr, status 0', () => {
    const run = ff(['*.md']);
    expect(run.status).toBe(0);
    expect(lines(run.stdout).sort()).toEqual(ALL_MD);
    expect(run.stderr).toMatch(new RegExp(`^find-file: 6 matches under ${escapeRegExp(tree)}: complete, every directory was read\n`));
    expect(run.stderr).not.toContain('\x1b'); // not a terminal: no colour, no progress line
  });

  it('prints paths relative to the current directory, or absolute for an absolute root or with --absolute', () => {
    expect(lines(ff(['*.ts'], { cwd: join(tree, 'docs'), env: {} }).stdout)).toEqual([]);
    expect(lines(ff(['*.ts', '--root', '../src'], { cwd: join(tree, 'docs') }).stdout).sort()).toEqual(
      ['../src/index.ts', '../src/util.test.ts', '../src/util.ts'].map(native),
    );
    expect(lines(ff(['index.ts', '--root', join(tree, 'src')]).stdout)).toEqual([join(tree, 'src', 'index.ts')]);
    expect(lines(ff(['index.ts', '--absolute']).stdout)).toEqual([join(tree, 'src', 'index.ts')]);
  });

  it('takes the last of two or more positionals as the root when it is an existing directory', () => {
    const asRoot = ff(['*.ts', 'src']);
    expect(lines(asRoot.stdout).sort()).toEqual(['src/index.ts', 'src/util.test.ts', 'src/util.ts'].map(native));
    expect(asRoot.stderr).toContain(`under ${join(tree, 'src')}:`);
    // Glob syntax, or a file that is here: every positional is a pattern, the root is the current directory.
    expect(lines(ff(['guide.md', 'README.md']).stdout).sort()).toEqual(['README.md', 'docs/guide.md', 'node_modules/pkg/README.md'].map(native));
    // A plain name that is not here was meant as the root (fd's rule): --root says they are patterns.
    expect(ff(['guide.md', 'tool']).status).toBe(1);
    const asPatterns = ff(['guide.md', 'tool', '--root', '.']);
    expect(lines(asPatterns.stdout).sort()).toEqual(['bin/tool', 'docs/guide.md'].map(native));
    // With --root, every positional is a pattern, even one that names a directory.
    expect(lines(ff(['index.ts', 'src', '--root', 'src']).stdout)).toEqual([join('src', 'index.ts')]);
  });

  it('several folders as search paths (fd\'s and rg\'s habit), or -F text holding a "/", are usage errors: nothing is searched, nothing printed', () => {
    for (const argv of [['*.md', 'src', 'docs'], ['--contains', 'x', 'src', 'docs'], ['-F', 'guide', 'src', 'docs'], ['-F', 'docs/guide']]) {
      const run = ff(argv);
      expect([run.status, run.stdout], argv.join(' ')).toEqual([2, '']);
      expect(lines(run.stderr).at(-1), argv.join(' ')).toMatch(/^find-file: error: ("src", "docs" are all folders: .*Run it once per folder, with that folder last$|-F "docs\/guide" holds a path separator)/);
    }
  });

  it('-i / --ignore-case and -s / --case-sensitive set how the pattern matches case; both at once is a usage error', () => {
    const insensitive = process.platform === 'win32';
    expect(lines(ff(['readme*', '--exclude', 'node_modules']).stdout)).toEqual(insensitive ? ['README.md'] : []);
    for (const flag of ['-i', '--ignore-case']) expect(lines(ff(['readme*', flag, '--exclude', 'node_modules']).stdout), flag).toEqual(['README.md']);
    for (const flag of ['-s', '--case-sensitive']) expect(lines(ff(['readme*', flag, '--exclude', 'node_modules']).stdout), flag).toEqual([]);
    const both = ff(['readme*', '-i', '-s']);
    expect(both.status).toBe(2);
    expect(both.stderr).toContain('find-file: error: Arguments ignore-case and case-sensitive are mutually exclusive');
  });

  it('a pattern of 3,000 nested groups is a usage error naming the limit (it was a stack overflow, exit 1)', () => {
    const run = ff(['@('.repeat(3000) + 'a' + ')'.repeat(3000)]);
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(lines(run.stderr).at(-1)).toMatch(/^find-file: error: pattern ".*": groups nested more than 100 deep$/);
  });

  it('brace sets nested past 100 are a usage error naming the limit, at any depth within the length limit (from 1,600 it was a stack overflow, exit 1)', () => {
    for (const depth of [1, 100, 101, 102, 500, 1600, 2000, 2400, 2497]) {
      const run = ff(['{a,'.repeat(depth) + 'README.md' + '}'.repeat(depth), '--exclude', 'node_modules']);
      if (depth <= 100) {
        expect(run.status, `depth ${depth}`).toBe(0);
        expect(lines(run.stdout), `depth ${depth}`).toEqual(['README.md']);
        continue;
      }
      expect(run.status, `depth ${depth}`).toBe(2);
      expect(run.stdout, `depth ${depth}`).toBe('');
      expect(lines(run.stderr).at(-1), `depth ${depth}`).toMatch(/^find-file: error: pattern ".*\.\.\.": brace sets nested more than 100 deep$/);
    }
  });

  it('prints NUL-separated paths with -0 / --print0, and nothing else on stdout', () => {
    for (const flag of ['-0', '--print0']) {
      const run = ff(['*.md', flag]);
      expect(run.status).toBe(0);
      expect(run.stdout.endsWith('\0')).toBe(true);
      expect(run.stdout).not.toContain('\n');
      // As fd 8's -0: under the current directory each path starts with ./ (xargs -0 never reads one as an option).
      expect(run.stdout.slice(0, -1).split('\0').sort()).toEqual(ALL_MD.map((p) => `./${p}`).sort());
    }
  });

  it('says a complete search with no match proves absence', () => {
    const run = ff(['no-such-file.exe']);
    expect(run.status).toBe(0);
    expect(run.stdout).toBe('');
    // link-to-docs (POSIX) is a symlinked directory a name pattern would descend into: named, never "exists there" (issue 27).
    expect(run.stderr).toBe(
      isPosix
        ? `find-file: no matches under ${tree}: complete, every directory was read, but symlinks are never followed: no matching file outside symlinked directories; 1 symlinked directory on the way was not followed: link-to-docs -> ${join(tree, 'docs')}\n` +
            '  search its target to look inside\n' +
            '  1 symlink not followed (by policy, not coverage gaps)\n'
        : `find-file: no matches under ${tree}: complete, every directory was read, so no matching file exists there\n`,
    );
  });

  it('says an incomplete search with no match proves nothing, and why, still with status 0', () => {
    const run = ff(['notes.md', '--max-depth', '2']);
    expect(run.status).toBe(0);
    expect(run.stdout).toBe('');
    const [first, ...rest] = lines(run.stderr);
    expect(first).toBe(`find-file: INCOMPLETE search under ${tree}: no matches in the part searched, NOT proof of absence`);
    expect(rest.find((line) => line.startsWith('  why:'))).toBe('  why: depth-limit: --max-depth 2 kept the search out of deeper directories that may hold matches');
  });

  itIf(posix('symlinks need a privilege on Windows (test/windows covers junctions)'))('(POSIX) counts symlinks not followed and excluded entries as policy, not gaps', () => {
    const run = ff(['*.md', '--exclude', 'node_modules', '--exclude', '.config']);
    expect(lines(run.stdout).sort()).toEqual(['README.md', 'docs/deep/a/b/notes.md', 'docs/guide.md', 'name with spaces.md']);
    expect(run.stderr).toContain(': complete, every directory was read\n');
    expect(run.stderr).toContain('  1 symlink not followed, 2 entries excluded (by policy, not coverage gaps)\n');
  });

  it('leaves hidden entries out with --no-hidden and qualifies the absence it proves', () => {
    expect(lines(ff(['*.md', '--no-hidden']).stdout)).not.toContain('.config/settings.md');
    expect(lines(ff(['*.md', '--hidden']).stdout)).toContain('.config/settings.md');
    const run = ff(['settings.md', '--no-hidden']);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(absenceOutsideLinks('file', ' (among entries not hidden)'));
  });

  it('names only what was left out: hidden entries searched are never "not hidden" (issue 27)', () => {
    // .config/settings.md is hidden and searched (the default); --exclude left node_modules out.
    const run = ff(['nothing-by-this-name.md', '--exclude', 'node_modules']);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(absenceOutsideLinks('file', ' (among entries not excluded)'));
    expect(ff(['nothing-by-this-name.md', '--exclude', 'node_modules', '--no-hidden']).stderr).toContain(absenceOutsideLinks('file', ' (among entries not excluded or hidden)'));
    expect(ff(['nothing-by-this-name.md']).stderr).toContain(absenceOutsideLinks('file'));
  });

  it('takes patterns that look like options after --', () => {
    writeFileSync(join(tree, '-dash.txt'), '');
    try {
      const run = ff(['--', '-dash.txt']);
      expect(run.status).toBe(0);
      expect(lines(run.stdout)).toEqual(['-dash.txt']);
    } finally {
      rmSync(join(tree, '-dash.txt'));
    }
  });
});

describe('limits', () => {
  it('--max-results stops at N and says more exist; --strict turns that into status 3', () => {
    const run = ff(['*.md', '--max-results', '2']);
    expect(run.status).toBe(0);
    expect(lines(run.stdout)).toHaveLength(2);
    expect(run.stderr).toContain('find-file: INCOMPLETE search under');
    expect(run.stderr).toContain(': 2 matches in the part searched, there may be more');
    expect(run.stderr).toContain('why: result-limit: stopped at --max-results 2; more matches exist');
    expect(ff(['*.md', '--max-results', '2', '--strict']).status).toBe(3);
    // Exactly as many as exist: complete, and --strict has nothing to object to.
    const exact = ff(['*.md', '--max-results', '6', '--strict']);
    expect(exact.status).toBe(0);
    expect(exact.stderr).toContain(': complete,');
  });

  it('--max-depth 1 looks only at the root\'s own entries', () => {
    const run = ff(['*.md', '--max-depth', '1']);
    expect(lines(run.stdout).sort()).toEqual(['README.md', 'name with spaces.md']);
    expect(run.stderr).toContain('why: depth-limit: --max-depth 1');
    expect(ff(['*.md', '--max-depth', '1', '--strict']).status).toBe(3);
  });

  it('--time-budget-ms 0 ends the search at once, incomplete', () => {
    const run = ff(['*.md', '--time-budget-ms', '0']);
    expect(run.status).toBe(0);
    expect(run.stderr).toContain('why: time-budget: the 0 ms budget (--time-budget-ms) ran out before the walk ended');
    expect(ff(['*.md', '--time-budget-ms', '0', '--strict']).status).toBe(3);
    expect(ff(['*.md', '--time-budget-ms', '60000', '--strict']).status).toBe(0);
  });
});

describe('--json and --ndjson', () => {
  const cases: { args: string[]; options: Omit<FindOptions, 'root'> }[] = [
    { args: ['*.md'], options: { pattern: '*.md' } },
    { args: ['*.md', '*.ts', '--exclude', 'node_modules', '--no-hidden'], options: { pattern: ['*.md', '*.ts'], exclude: ['node_modules'], hidden: false } },
    { args: ['*.md', '--max-results', '3'], options: { pattern: '*.md', maxResults: 3 } },
    { args: ['**/*.md', '--max-depth', '2'], options: { pattern: '**/*.md', maxDepth: 2 } },
    { args: ['src/*.ts', '--absolute'], options: { pattern: 'src/*.ts', absolute: true } },
    { args: ['nothing-here'], options: { pattern: 'nothing-here' } },
  ];

  it('--json prints exactly one JSON object equal to the library\'s result for the same options', async () => {
    for (const { args, options } of cases) {
      const run = ff([...args, '--json', '--root', tree], { cwd: base });
      expect(run.status, args.join(' ')).toBe(0);
      expect(run.stderr).toBe('');
      expect(run.stdout.endsWith('}\n')).toBe(true);
      const printed = JSON.parse(run.stdout) as FindResult;
      const expected = await findFiles({ root: tree, ...options });
      expect(comparable(printed), args.join(' ')).toEqual(comparable(expected));
      expect(Object.keys(printed)).toEqual(expect.arrayContaining(['matches', 'matchedCount', 'skipped', 'skippedCount', 'symlinkSkipped', 'complete', 'incompleteReasons', 'stats', 'backend']));
    }
  });

  it('--ndjson prints a match line per path as found, then one summary line equal to the library\'s', async () => {
    for (const { args, options } of cases) {
      const run = ff([...args, '--ndjson', '--root', tree], { cwd: base });
      expect(run.status, args.join(' ')).toBe(0);
      expect(run.stderr).toBe('');
      const events = lines(run.stdout).map((line) => JSON.parse(line) as { type: string; path?: string });
      const summary = events.pop() as { type: string } & FindResult;
      expect(summary.type).toBe('summary');
      expect(events.every((event) => event.type === 'match' && Object.keys(event).length === 2)).toBe(true);
      const expected = await findFiles({ root: tree, ...options });
      expect(events.map((event) => event.path).sort()).toEqual(expected.matches);
      const { type: _type, ...rest } = summary;
      const { matches: _matches, ...expectedSummary } = expected;
      expect(comparable(rest), args.join(' ')).toEqual(comparable(expectedSummary));
    }
  });

  it('--json and --ndjson exclude each other and -0', () => {
    for (const args of [['--json', '--ndjson'], ['--json', '-0'], ['--ndjson', '--print0']]) {
      const run = ff(['*.md', ...args]);
      expect(run.status, args.join(' ')).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(/mutually exclusive/);
    }
  });
});

describe('backends', () => {
  // As the other ripgrep suites: needs rg (CI installs it, and a missing one fails CI, see real-rg.ts).
  requireRipgrepInCi();
  itIf(needsRg)('--backend ripgrep and auto print what the walker prints', async () => {
    const walker = lines(ff(['*.md', '*.ts']).stdout).sort();
    for (const backend of ['walker', 'ripgrep', 'auto']) {
      const run = ff(['*.md', '*.ts', '--backend', backend]);
      expect(run.status, backend).toBe(0);
      expect(lines(run.stdout).sort(), backend).toEqual(walker);
      expect(run.stderr, backend).toMatch(/^find-file: 9 matches under .*: complete, every directory was read\n/);
      const json = ff(['*.md', '*.ts', '--backend', backend, '--json', '--root', tree], { cwd: base });
      const printed = JSON.parse(json.stdout) as FindResult;
      expect(printed.backend, backend).toBe(backend === 'walker' ? 'walker' : 'ripgrep');
      const expected = await findFiles({ root: tree, pattern: ['*.md', '*.ts'], backend: backend as FindOptions['backend'] });
      expect(printed.matches, backend).toEqual(expected.matches);
      const ndjson = lines(ff(['*.md', '*.ts', '--backend', backend, '--ndjson']).stdout);
      expect(ndjson, backend).toHaveLength(walker.length + 1);
    }
  });
});

describeIf(posix('symlinks need a privilege on Windows (test/windows covers junctions)'))('(POSIX) symlinks whose name matches', () => {
  // /usr/bin in small: python3 is a link to python3.11, python3-config a dangling one.
  let bin: string;
  beforeAll(() => {
    bin = join(base, 'links', 'bin');
    writeTree(bin, ['python3.11', 'env']);
    symlinkSync('python3.11', join(bin, 'python3'));
    symlinkSync('missing', join(bin, 'python3-config'));
  });

  it('names them instead of claiming absence when no regular file matches', () => {
    const run = ff(['python3', '--root', bin]);
    expect(run).toMatchObject({ status: 0, stdout: '' });
    expect(run.stderr).toBe(
      `find-file: no regular file matches under ${bin} (complete, every directory was read); 1 symlink matches (not followed): ${join(bin, 'python3')}\n` +
        '  2 symlinks not followed (by policy, not coverage gaps)\n',
    );
    expect(run.stderr).not.toContain('no matching file exists');
  });

  it('adds one line for them when regular files match too, shown as the matches are', () => {
    const run = ff(['python3*'], { cwd: bin });
    expect(lines(run.stdout)).toEqual(['python3.11']);
    expect(lines(run.stderr).slice(0, 2)).toEqual([`find-file: 1 match under ${bin}: complete, every directory was read`, '  also 2 symlinks match (not followed): python3, python3-config']);
    const absolute = ff(['python3*', '--absolute'], { cwd: bin });
    expect(lines(absolute.stderr)[1]).toBe(`  also 2 symlinks match (not followed): ${join(bin, 'python3')}, ${join(bin, 'python3-config')}`);
  });

  it('--json and --ndjson carry linkMatches, linkMatchedCount and linksExamined', () => {
    const json = JSON.parse(ff(['python3*', '--json', '--root', bin]).stdout) as FindResult;
    expect(json).toMatchObject({ matches: ['python3.11'], matchedCount: 1, linkMatches: ['python3', 'python3-config'], linkMatchedCount: 2, linksExamined: true, symlinkSkipped: 2, complete: true });
    const absolute = JSON.parse(ff(['python3', '--json', '--absolute', '--root', bin]).stdout) as FindResult;
    expect(absolute).toMatchObject({ matches: [], linkMatches: [join(bin, 'python3')], linkMatchedCount: 1 });
    const summary = JSON.parse(lines(ff(['python3', '--ndjson', '--root', bin]).stdout).at(-1)!) as { type: string } & FindResult;
    expect(summary).toMatchObject({ type: 'summary', matchedCount: 0, linkMatches: ['python3'], linkMatchedCount: 1, linksExamined: true });
  });

  itIf(needsRg)('--backend ripgrep says links were not examined; auto lets the walker name them', () => {
    // -u: ripgrep's count-less ignore files are not this test's subject (ignore.test.ts words them).
    const rg = ff(['python3', '-u', '--backend', 'ripgrep', '--root', bin]);
    expect(rg.stderr).toBe(
      `find-file: no matches under ${bin}: complete, every directory was read, so no matching regular file exists there outside symlinked directories\n` +
        '  symlinks were not examined (ripgrep lists regular files only): a matching symlink or a symlinked directory on the way would not be named; --backend walker names them\n' +
        // A bare word that matched nothing: the -F hint (issue 30) counts the regular file whose name holds it.
        `  hint: a glob matches whole names; 1 name contains "python3": find-file -F python3 -u --backend ripgrep --root ${bin}\n`,
    );
    expect(JSON.parse(ff(['python3', '--backend', 'ripgrep', '--json', '--root', bin]).stdout)).toMatchObject({ linkMatches: [], linkMatchedCount: 0, linksExamined: false });
    const auto = ff(['python3', '--backend', 'auto', '--root', bin]);
    expect(lines(auto.stderr)).toEqual([
      `find-file: no regular file matches under ${bin} (complete, every directory was read); 1 symlink matches (not followed): ${join(bin, 'python3')}`,
      '  2 symlinks not followed (by policy, not coverage gaps)',
      '  backend walker: auto ran the walker (links-unexamined)',
    ]);
  });
});

describe('unreadable directories', () => {
  let perm: string;
  beforeAll(() => {
    prepareAsUser(); // as root, the copy the unprivileged case runs: seconds, kept out of its 30 s
    perm = join(base, 'perm');
    writeTree(perm, ['top.md', 'locked/secret.md', 'src/private/inner.md', 'src/open.md', 'broken/x.md']);
  });
  // Reads that fail as a folder the OS refuses to open does (and one with a disk error).
  const faults = { FIND_FILE_TEST_FAIL: JSON.stringify({ locked: 'EACCES', 'src/private': 'EPERM' }) };

  it('names what it could not read, with the code, and never calls the result complete', () => {
    const run = ff(['secret.md'], { cwd: perm, env: faults });
    expect(run.status).toBe(0);
    expect(run.stdout).toBe('');
    const out = lines(run.stderr);
    expect(out[0]).toBe(`find-file: INCOMPLETE search under ${perm}: no matches in the part searched, NOT proof of absence`);
    expect(out).toContain('  why: permission-denied: 2 paths could not be read (access denied)');
    expect(out).toContain('  skipped: locked (EACCES)');
    expect(out).toContain(`  skipped: ${native('src/private')} (EPERM)`);
  });

  it('keeps every match it found and lists every reason; --json lists the skipped paths; --strict exits 3', () => {
    const env = { FIND_FILE_TEST_FAIL: JSON.stringify({ locked: 'EACCES', 'src/private': 'EPERM', broken: 'EIO' }) };
    const run = ff(['*.md'], { cwd: perm, env });
    expect(run.status).toBe(0);
    expect(lines(run.stdout).sort()).toEqual(['src/open.md', 'top.md'].map(native).sort());
    expect(run.stderr).toContain('find-file: INCOMPLETE search under');
    expect(run.stderr).toContain(': 2 matches in the part searched, there may be more');
    expect(run.stderr).toMatch(/permission-denied: 2 paths could not be read \(access denied\)/);
    expect(run.stderr).toMatch(/io-error: 1 path could not be read \(read errors\)/);
    const json = ff(['*.md', '--json'], { cwd: perm, env });
    const result = JSON.parse(json.stdout) as FindResult;
    expect(result.matches).toEqual(['src/open.md', 'top.md']);
    expect(result).toMatchObject({ complete: false, skippedCount: 3 });
    expect([...result.incompleteReasons].sort()).toEqual(['io-error', 'permission-denied']);
    expect(result.skipped.map((s) => `${s.path} ${s.code}`).sort()).toEqual(['broken EIO', 'locked EACCES', 'src/private EPERM']);
    expect(ff(['*.md', '--strict'], { cwd: perm, env }).status).toBe(3);
    expect(ff(['*.md', '--strict', '--ndjson'], { cwd: perm, env }).status).toBe(3);
  });

  it('shows the first five skipped paths, then a count; absolute with --absolute', () => {
    const many = join(base, 'perm-many');
    writeTree(many, Array.from({ length: 7 }, (_, i) => `d${i}/x.md`));
    const env = { FIND_FILE_TEST_FAIL: JSON.stringify(Object.fromEntries(Array.from({ length: 7 }, (_, i) => [`d${i}`, 'EACCES']))) };
    const run = ff(['*.md'], { cwd: many, env });
    expect(run.stderr.match(/ {2}skipped: d\d \(EACCES\)/g)).toHaveLength(5);
    expect(run.stderr).toContain('  ... and 2 more skipped paths (--json lists them all)\n');
    const absolute = ff(['*.md', '--absolute'], { cwd: many, env });
    expect(absolute.stderr.match(/ {2}skipped: (.*) \(EACCES\)/)![1]).toMatch(new RegExp(`^${escapeRegExp(join(many, 'd'))}\\d$`));
  });

  itIf(posix('chmod and runuser/setpriv deny nothing on Windows (test/windows denies with an ACL)'))('(POSIX) says the same of folders the OS really refuses to open (run unprivileged)', () => {
    const real = join(base, 'perm-real');
    writeTree(real, ['top.md', 'locked/secret.md']);
    chmodSync(join(real, 'locked'), 0o000);
    try {
      // Root reads every directory, so the command runs as nobody (from a sandboxed copy when we are root).
      const run = ff(['*.md'], { cwd: real, asUser: true });
      expect(run.stderr).toMatch(/^find-file: /);
      expect(run.status).toBe(0);
      expect(lines(run.stdout)).toEqual(['top.md']);
      expect(lines(run.stderr)).toEqual([
        `find-file: INCOMPLETE search under ${real}: 1 match in the part searched, there may be more`,
        '  why: permission-denied: 1 path could not be read (access denied)',
        '  skipped: locked (EACCES)',
      ]);
      expect(ff(['*.md', '--strict'], { cwd: real, asUser: true }).status).toBe(3);
    } finally {
      chmodSync(join(real, 'locked'), 0o755);
    }
  });
});

describe('an ignore file the OS refuses to open', () => {
  // As root, the unprivileged copy of the command: built before the test (seconds; the one
  // 'unreadable directories' built, when it ran), removed with the file's tree.
  beforeAll(prepareAsUser, 120_000);
  // An adversarial run: `sub/.ignore` (mode 000) re-includes `keep.log`, which the root's `.ignore`
  // ignores; the answer was empty, complete, and --strict exited 0. Not read is a gap, whichever
  // engine answers (ripgrep reads it without a word: its listed ignore files are checked after).
  itIf(posix('chmod and runuser/setpriv deny nothing on Windows'))('(POSIX) is named in skipped and the answer is incomplete, with every backend and in content search (run unprivileged)', () => {
    const real = join(base, 'ignore-unreadable');
    writeTree(real, { '.ignore': '*.log\n', 'sub/.ignore': '!keep.log\n', 'sub/keep.log': 'x\n', 'sub/other.log': '', 'sub/a.txt': 'x\n' });
    chmodSync(join(real, 'sub', '.ignore'), 0o000);
    try {
      for (const backend of ['walker', 'ripgrep', 'auto']) {
        for (const args of [['*'], ['--contains', 'x']]) {
          const run = ff([...args, '--backend', backend, '--json'], { cwd: real, asUser: true });
          const result = JSON.parse(run.stdout) as { complete: boolean; skipped: { path: string; code: string }[] };
          expect({ backend, args, complete: result.complete, skipped: result.skipped }).toEqual({ backend, args, complete: false, skipped: [{ path: 'sub/.ignore', code: 'EACCES' }] });
        }
      }
      expect(ff(['*.log', '--strict'], { cwd: real, asUser: true }).status).toBe(3);
    } finally {
      chmodSync(join(real, 'sub', '.ignore'), 0o644);
    }
  });
});

describe('a pattern that starts with -', () => {
  it('gets fd\'s tip after the usage error (use --); a cluster of short flags gets none; after -- it is searched', () => {
    const dir = join(base, 'dash-pattern');
    writeTree(dir, ['-notes.txt', 'a.md']);
    for (const pattern of ['-notes.txt', '-[n]otes.txt', '-*.txt']) {
      const run = ff([pattern], { cwd: dir });
      expect(run.status).toBe(2);
      expect(lines(run.stderr).at(-1)).toMatch(/^find-file: error: /);
      // What the parser read it as, then the way out (`-notes.txt` had been told only "-s is a switch and takes no value").
      expect(lines(run.stderr).at(-1)!.endsWith(` (${pattern} was read as short flags; a pattern that starts with '-' goes after '--': find-file -- ${JSON.stringify(pattern)})`)).toBe(true);
    }
    const cluster = ff(['-tf'], { cwd: dir });
    expect(cluster.status).toBe(2);
    expect(cluster.stderr).not.toContain("goes after '--'");
    expect(lines(ff(['--', '-notes.txt'], { cwd: dir }).stdout)).toEqual(['-notes.txt']);
  });
});

describe('exit statuses', () => {
  it('2 for usage errors: one usage line, then the specific problem, never the whole help; nothing on stdout (an unknown flag: one line, test/cli/select.test.ts)', () => {
    const cases: [string[], RegExp][] = [
      [[], /no pattern given/],
      [['*.md', '--max-results', '1.5'], /--max-results must be a non-negative integer, got "1.5"/],
      [['*.md', '--max-depth', '-1'], /--max-depth must be a non-negative integer, got "-1"/],
      [['*.md', '--time-budget-ms', 'soon'], /--time-budget-ms must be a non-negative integer, got "soon"/],
      [['*.md', '--max-results'], /Not enough arguments following: max-results/],
      [['*.md', '--backend', 'fast'], /backend must be one of .*got "fast"/],
      [['../*.md'], /climbs out of the root/],
      [['*.md', '!*.ts'], /negation/],
      // A switch given a value: yargs read any but "true" as false, so --strict=1 exited 0 on an incomplete search.
      [['*.md', '--max-depth', '0', '--strict=1'], /--strict is a switch and takes no value, got "--strict=1"/],
      [['*.md', '--json=yes'], /--json is a switch and takes no value/],
      [['*.md', '-a.log'], /-a is a switch and takes no value, got "-a\.log"/],
    ];
    for (const [args, problem] of cases) {
      const run = ff(args);
      expect(run.status, args.join(' ')).toBe(2);
      expect(run.stdout, args.join(' ')).toBe('');
      const [usage, ...rest] = lines(run.stderr);
      expect(usage, args.join(' ')).toBe('Usage: find-file <pattern..> [DIR | --root DIR] [options]  (find-file --help lists every flag)');
      expect(rest, args.join(' ')).toHaveLength(1);
      expect(rest[0], args.join(' ')).toMatch(/^find-file: error: /);
      expect(rest[0], args.join(' ')).toMatch(problem);
    }
  });

  // Each refusal in the command's words: the flag as typed (never the library's option name), what
  // was wrong, and what to write instead (src/cli/messages.ts, src/cli/flags.ts); from an adversarial run.
  it.each<[string[], number, string | RegExp]>([
    [['*', '--ignore-file', ''], 2, 'find-file: error: --ignore-file is empty: give the path of a file of ignore rules, relative to the root or absolute'],
    [['*', '--name-regex', '['], 2, /^find-file: error: --name-regex is not a valid regex \(RE2 syntax/],
    [['*', '-E', '/src'], 2, `find-file: error: -E/--exclude "/src" is absolute, and an exclude is relative to the root: write -E ./src for the root's own src (what fd's -E /src means), or -E src for one at any depth`],
    [['*', '-E', '/src/gen'], 2, 'find-file: error: -E/--exclude "/src/gen" is absolute, and an exclude is relative to the root: write -E src/gen'],
    [['*', '-E', '!src'], 2, "find-file: error: -E/--exclude \"!src\" is a negation, which -E does not take: it lists what to leave out (-E src); to keep only what src matches, give it as the pattern or DIR"],
    [['-g', '!*.md'], 2, "find-file: error: pattern \"!*.md\" is a negation: to leave out what it matches, write -E '*.md' (rg's -g '!GLOB' is -E GLOB here)"],
    [['*', '-E', ''], 2, /^find-file: error: -E\/--exclude is empty: /],
    [['--contains', ''], 2, 'find-file: error: --contains is empty: it would match every line; give the text to search for'],
    [['sub/', '-t', 'd'], 2, "find-file: error: pattern sub/ ends with \"/\": -t d already asks for directories, so write sub (or 'sub/**' for the files below it)"],
    [['./sub/'], 2, "find-file: error: pattern ./sub/ ends with \"/\", which names a directory: write ./sub -t d for the directory itself, or './sub/**' for the files below it"],
    // An unset "$DIR": the command line is wrong (2), and the empty name is said, quoted (it was "root  does not exist", status 1).
    [['*', ''], 2, 'find-file: error: the DIR argument is empty (""): name a directory, or leave it out to search the current one (an unset variable reads as "")'],
    [['--contains', 'x', ''], 2, /^find-file: error: the DIR argument is empty \(""\)/],
    // Dates, not the library's epoch milliseconds: `modifiedAfter (1796583220429) is not before modifiedBefore (...)`.
    [['*', '--changed-within', '1d', '--changed-before', '2d'], 2, /^find-file: error: --changed-within \(after \d{4}-\d\d-\d\dT[\d:.]+Z\) and --changed-before \(before \d{4}-\d\d-\d\dT[\d:.]+Z\) leave no time between them: --changed-within must reach further back, e\.g\. --changed-within 3d --changed-before 1d$/],
    [['*', '-S', '+10k', '-S', '-1k'], 2, 'find-file: error: --size asks for at least 10000 and at most 1000 bytes: no file is both; the + bound must be the smaller, e.g. -S +1k -S -10k'],
    // grep's -F beside --contains: it had been told "-F needs the text a name contains".
    [['--contains', 'a.b', '-F'], 2, 'find-file: error: -F does not go with --contains: its TEXT is literal already (--regex makes it a regex); -F is for a file listing, where it reads the pattern as text a name contains'],
    // yargs reads --no-X as X off and reported X: `unknown option --ignore-vcs`, a flag no one typed.
    [['*', '--no-ignore-vcs'], 2, 'find-file: error: unknown option --no-ignore-vcs (did you mean --no-ignore?); see find-file --help'],
    // Read as `-d ash.txt`, as fd reads it: the tip says so, or "--max-depth" names a flag no one typed.
    [['-dash.txt'], 2, `find-file: error: --max-depth must be a non-negative integer, got "ash.txt" (-dash.txt was read as -d ash.txt, as fd reads it; a pattern that starts with '-' goes after '--': find-file -- "-dash.txt")`],
    [['src/../README.md'], 2, 'find-file: error: pattern "src/../README.md" holds "..", which a pattern may not, even inside the root: paths are matched as read down from the root, and never hold ".." (write "README.md")'],
  ])('%j: status %i, and the last line says what to type', (args, status, last) => {
    const run = ff(args);
    expect(run.status).toBe(status);
    expect(run.stdout).toBe('');
    if (typeof last === 'string') expect(lines(run.stderr).at(-1)).toBe(last);
    else expect(lines(run.stderr).at(-1)).toMatch(last);
  });

  itIf(posix('Windows drops a trailing space: no file is named " " there'))('a pattern of white space is the name it spells, searched as typed (it was "pattern is empty", status 2)', () => {
    const dir = join(base, 'blank-names');
    writeTree(dir, [' ', 'd/ ', 'd/x', '\t', '  x']);
    const run = ff([' '], { cwd: dir });
    expect(run.status).toBe(0);
    expect(lines(run.stdout).sort()).toEqual([' ', join('d', ' ')]);
    expect(lines(ff(['\t'], { cwd: dir }).stdout)).toEqual(['\t']);
    expect(ff(['  '], { cwd: dir }).stdout).toBe('');
    // The same for the files a content search reads (writeTree writes each file's own path in it).
    expect(lines(ff(['--contains', 'd', ' ', '--root', '.'], { cwd: dir }).stdout)).toEqual([`${join('d', ' ')}:1:1: d/ `]);
  });

  it('1 for a root that is missing or not a directory: one line naming the cause, no stack trace', () => {
    for (const [root, cause] of [['missing-dir', 'does not exist (ENOENT)'], ['README.md', 'is not a directory (ENOTDIR)']] as const) {
      for (const extra of [[], ['--json'], ['--ndjson']]) {
        const run = ff(['*.md', '--root', root, ...extra]);
        expect(run.status).toBe(1);
        expect(run.stdout).toBe('');
        expect(run.stderr).toBe(`find-file: error: root ${join(tree, root)} ${cause}\n`);
      }
    }
  });

  it('1 for a missing root whose name holds a newline and ESC: still one line, escaped (a name cannot forge or drive the terminal)', () => {
    const root = 'gone\n\x1b[31mfake';
    const run = ff(['*.md', '--root', root]);
    expect(run.status).toBe(1);
    expect(run.stderr).toBe(`find-file: error: root ${join(tree, 'gone')}\\u{a}\\u{1b}[31mfake does not exist (ENOENT)\n`);
  });

  it('--contains is a clean hook: refused with a plain message until the library exports searchContent', async () => {
    const library: Record<string, unknown> = await import('../../dist/index.js');
    const run = ff(['*.md', '--contains', 'guide']);
    if (typeof library.searchContent === 'function') {
      expect(run.status).toBe(0);
      expect(lines(run.stdout)).toContain(`${join('docs', 'guide.md')}:1:6: docs/guide.md`); // each file holds its own path; path:line:column: text
    } else {
      expect(run.status).toBe(2);
      expect(run.stdout).toBe('');
      expect(lines(run.stderr).at(-1)).toBe('find-file: error: --contains: content search is not available yet in this version of find-file');
    }
  });

  it('1 when ripgrep is forced and cannot be found; auto then runs the walker and says so', () => {
    const emptyBin = join(base, 'empty-bin');
    mkdirSync(emptyBin, { recursive: true });
    for (const extra of [[], ['--json'], ['--ndjson']]) {
      const run = ff(['*.md', '--backend', 'ripgrep', ...extra], { env: { PATH: emptyBin } });
      expect(run.status, extra.join(' ')).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(/^find-file: error: backend "ripgrep": [^\n]+\n$/);
    }
    const auto = ff(['*.md', '--backend', 'auto'], { env: { PATH: emptyBin } });
    expect(auto.status).toBe(0);
    expect(lines(auto.stdout).sort()).toEqual(ALL_MD);
    expect(auto.stderr).toContain('backend walker: auto ran the walker (rg-not-found: no rg on the PATH outside the searched root and the current directory; FIND_FILE_RG names one to use)');
  });

  itIf(posix('the fake rg is a #!/bin/sh script'))('an rg found only inside the searched root is not run, and the summary does not say ripgrep is missing', () => {
    // The PATH's only rg lies inside the root (as /usr/bin/rg does in a search of /usr).
    const root = join(base, 'rg-inside');
    const inside = join(root, 'bin');
    mkdirSync(inside, { recursive: true });
    writeFileSync(join(root, 'a.md'), 'x');
    const rg = join(inside, 'rg');
    writeFileSync(rg, '#!/bin/sh\necho ran > "$0.ran"\n');
    chmodSync(rg, 0o755);
    const auto = ff(['*.md', '--backend', 'auto', '--root', root], { env: { PATH: inside } });
    expect(auto.status).toBe(0);
    expect(lines(auto.stdout)).toEqual([join(root, 'a.md')]);
    expect(auto.stderr).toContain('auto ran the walker (rg-not-found: no rg on the PATH outside the searched root and the current directory; FIND_FILE_RG names one to use)');
    expect(existsSync(`${rg}.ran`)).toBe(false);
  });

  it('--version prints the package version; --help lists every option; both exit 0', () => {
    const version = ff(['--version']);
    expect(version).toMatchObject({ status: 0, stdout: `${VERSION}\n` });
    const help = ff(['--help']);
    expect(help.status).toBe(0);
    for (const option of ['--root', '--max-results', '--max-depth', '--time-budget-ms', '--exclude', '--hidden', '--backend', '--json', '--ndjson', '--absolute', '--print0', '-0', '--contains', '--strict', '--help', '--version']) {
      expect(help.stdout).toContain(option);
    }
    // Laid out by measured widths (the bundle loads string-width only when --help asks for one,
    // scripts/bundle.mjs): at most 100 columns, the flags' texts of a group in one column, each type at the right edge.
    const lines = help.stdout.split('\n');
    expect(Math.max(...lines.map((line) => line.length))).toBe(100);
    const textColumn = (line: string) => line.length - line.slice(line.indexOf(' ', 8)).trimStart().length;
    const groups = help.stdout.split('\n\n').map((group) => group.split('\n').filter((line) => /^ {2}(-\w, | {4})--[a-z]/.test(line)));
    expect(groups.flat().length).toBeGreaterThan(40);
    for (const group of groups) expect(new Set(group.map(textColumn)).size, group.join('\n')).toBeLessThanOrEqual(1);
    for (const line of lines.filter((line) => / \[(string|boolean|number|array)\]$/.test(line))) expect(line.length, line).toBe(100);
  });
});

// The last two groups wait on slowed reads (test/helpers/cli-test-fs.mjs) and a progress line that
// shows after a second: they run side by side (concurrent), each test with its own `expect` as
// vitest asks of concurrent tests. One after another they waited ~9 s of the file's ~25.
describe('pipes and signals', { concurrent: true }, () => {
  /** A tree whose root holds many matches (read at once) and a directory read only after a delay. */
  function buildSlowTree(name: string, topFiles: number): string {
    const root = join(base, name);
    writeTree(root, [
      ...Array.from({ length: topFiles }, (_, i) => `top-${String(i).padStart(5, '0')}-with-a-long-name.md`),
      'd1/d2/d3/d4/d5/d6/d7/d8/deep.md',
    ]);
    return root;
  }

  function spawnSlow(args: string[], cwd: string, marker: string, slowMs: number) {
    return spawnFindFile(args, { cwd, env: { FIND_FILE_TEST_SLOW_MS: String(slowMs), FIND_FILE_TEST_MARKER: marker } });
  }

  it('exits quietly with status 0 when the reader closes the pipe early (| head -1)', async ({ expect }) => {
    const root = buildSlowTree('pipe-tree', 3000);
    const child = spawnSlow(['*.md'], root, join(base, 'pipe-marker'), 300);
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    // Read the first chunk of paths, then close our end as `head -1` does. More output follows once
    // the delayed directories are read, and writing it must end the command quietly.
    const first = await new Promise<string>((got) => child.stdout!.once('data', (chunk: Buffer) => got(chunk.toString())));
    child.stdout!.destroy();
    const status = await new Promise<number | null>((done) => child.on('close', done));
    expect(first.split('\n')[0]).toMatch(/^top-\d{5}-with-a-long-name\.md$/);
    expect(status).toBe(0);
    expect(stderr).toBe('');
  });

  itIf(posix('Windows has no SIGINT to send a process'))('(POSIX) SIGINT prints what was found, then the summary marked aborted, and exits 130', async ({ expect }) => {
    const root = buildSlowTree('sigint-tree', 3);
    const marker = join(base, 'sigint-marker');
    const child = spawnSlow(['*.md'], root, marker, 400);
    const done = collect(child);
    // Matches from the root's read reach stdout first; then the walk is stuck in slow reads.
    await new Promise<void>((ready) => child.stdout!.once('data', () => ready()));
    child.kill('SIGINT');
    const run = await done;
    expect(run.status).toBe(130);
    expect(lines(run.stdout).sort()).toEqual(['top-00000-with-a-long-name.md', 'top-00001-with-a-long-name.md', 'top-00002-with-a-long-name.md']);
    expect(run.stderr).toContain(`find-file: INCOMPLETE search under ${root}: 3 matches in the part searched, there may be more`);
    expect(run.stderr).toContain('why: aborted: interrupted before the walk ended');
  });

  itIf(posix('Windows has no SIGINT to send a process'))('(POSIX) SIGINT with --json prints the partial result marked aborted, and --ndjson its summary', async ({ expect }) => {
    const root = buildSlowTree('sigint-json-tree', 3);
    for (const mode of ['--json', '--ndjson']) {
      const marker = join(base, `sigint-marker${mode}`);
      const child = spawnSlow(['*.md', mode], root, marker, 300);
      const done = collect(child);
      // Interrupted once the root's read (its three matches) is handled: the deep match needs eight
      // more reads of 300 ms each. A fixed sleep (900 ms) lost this race whenever the child was starved that long.
      await waitFor(() => existsSync(marker) && readFileSync(marker, 'utf8').includes('read .\n'));
      child.kill('SIGINT');
      const run = await done;
      expect(run.status, mode).toBe(130);
      const last = JSON.parse(lines(run.stdout).at(-1)!) as FindResult;
      expect(last).toMatchObject({ complete: false, incompleteReason: 'aborted', matchedCount: 3 });
      expect(run.stderr).toBe('');
    }
  });
});

describe('progress line', { concurrent: true }, () => {
  it('never appears when stderr is not a terminal, however long the search', async ({ expect }) => {
    const root = join(base, 'progress-pipe');
    writeTree(root, ['a.md', 'd1/d2/d3/b.md']);
    const run = await collect(spawnFindFile(['*.md'], { cwd: root, env: { FIND_FILE_TEST_SLOW_MS: '400' } }));
    expect(run.status).toBe(0);
    expect(run.stderr).toBe(`find-file: 2 matches under ${root}: complete, every directory was read\n`);
  });

  describeIf(posix('the pseudo-terminal is script(1)'))('(POSIX) under a pseudo-terminal', () => {
    let root: string;
    beforeAll(() => {
      root = join(base, 'progress-tty');
      writeTree(root, ['a.md', 'd1/b.md', 'd1/d2/d3/d4/d5/c.md']);
    });

    it('appears after about a second (dirs read, matches, elapsed) and is erased before the summary', async ({ expect }) => {
      const run = await inTerminalAsync(['*.md'], root, { FIND_FILE_TEST_SLOW_MS: '300' });
      expect(run.status).toBe(0);
      const progress = [...run.stdout.matchAll(/searching: (\d+) dirs? read, (\d+) match(?:es)?, (\d+\.\d)s/g)];
      expect(progress.length).toBeGreaterThan(0);
      expect(Number(progress[0]![3])).toBeGreaterThanOrEqual(1);
      const summaryAt = run.stdout.indexOf('find-file: 3 matches');
      expect(summaryAt).toBeGreaterThan(0);
      // The last thing before the summary's line is the erasure of the progress line (and maybe a path).
      const lastDraw = run.stdout.lastIndexOf('searching:');
      expect(lastDraw).toBeLessThan(summaryAt);
      expect(run.stdout.slice(lastDraw, summaryAt)).toContain('\r\x1b[2K');
      // A terminal gets colour.
      expect(run.stdout).toContain('\x1b[32mcomplete\x1b[39m');
    });

    it('does not appear for a short search, nor with --json or --ndjson; NO_COLOR removes colour', async ({ expect }) => {
      const quick = await inTerminalAsync(['*.md'], root, {});
      expect(quick.status).toBe(0);
      expect(quick.stdout).not.toContain('searching:');
      // The two slowed runs side by side: each waits on its reads, not on a core.
      const modes = ['--json', '--ndjson'];
      const runs = await Promise.all(modes.map((mode) => inTerminalAsync(['*.md', mode], root, { FIND_FILE_TEST_SLOW_MS: '300' })));
      runs.forEach((run, i) => {
        const mode = modes[i];
        expect(run.status, mode).toBe(0);
        expect(run.stdout, mode).not.toContain('searching:');
        expect(run.stdout, mode).not.toContain('\x1b');
      });
      const plain = await inTerminalAsync(['*.md'], root, { NO_COLOR: '1' });
      expect(plain.stdout).toContain('find-file: 3 matches');
      expect(plain.stdout).not.toContain('\x1b');
    });
  });
});
