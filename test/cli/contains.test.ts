/**
 * `find-file --contains TEXT` end to end: the real bin/find-file.mjs spawned with `node` (no
 * shell) on a real temp tree. Hits print as `path:line:column: text`, the summary goes to stderr,
 * --json and --ndjson equal the library's answer, the exit statuses keep the CLI's contract
 * (0 ran, 1 fatal, 2 usage, 3 incomplete with --strict), and hostile text stays text.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchContent, type ContentOptions, type ContentResult } from '../../dist/index.js';
import { comparable, native, runFindFile, writeTree, type Run } from '../helpers/cli.js';
import { hasRg, needsRg, requireRipgrepInCi } from '../helpers/real-rg.js';
import { describeIf } from '../helpers/skip-why.js';

const FILES: Record<string, string | Buffer> = {
  'notes.md': 'intro\nthe TODO list\n',
  'src/a.ts': 'const a = 1; // TODO: split\n',
  'src/中文.ts': '// 中文 TODO 注释\r\n',
  'data.bin': Buffer.from('TODO\0binary'),
  'hostile.txt': 'it says $(touch PWNED) and --pre=sh here\n',
};

let tree: string;
beforeAll(() => {
  tree = mkdtempSync(join(tmpdir(), 'ff-cli-contains-'));
  writeTree(tree, FILES);
});
afterAll(() => rmSync(tree, { recursive: true, force: true }));

/** Runs the command to the end in the tree. */
function ff(args: string[]): Run {
  return runFindFile(args, { cwd: tree });
}

/** The library's answer for the same search, in the comparable form (timing left out). */
async function library(options: Partial<ContentOptions>): Promise<unknown> {
  return comparable(await searchContent({ root: tree, query: 'TODO', pattern: '*', ...options } as ContentOptions));
}

describeIf(needsRg)('the default backend', () => {
  it('is auto: ripgrep answers where it is installed, with the same hits as the pure-TS path', async () => {
    // One run of the default, read three ways (it was the same command line run three times).
    const byDefault = ff(['*', '--contains', 'TODO', '--ndjson']);
    expect(byDefault.status).toBe(0);
    expect(JSON.parse(byDefault.stdout.trim().split('\n').at(-1)!)).toMatchObject({ type: 'summary', backend: 'ripgrep', complete: true, hitCount: 3 });
    const hits = (run: { stdout: string }) => run.stdout.split('\n').filter((l) => l.includes('"hit"')).sort();
    expect(hits(byDefault)).toEqual(hits(ff(['*', '--contains', 'TODO', '--ndjson', '--backend', 'walker'])));
  });
});

describeIf(needsRg)('binary files under ripgrep', () => {
  // "binary" is in data.bin only, after its NUL: no engine searches there (policy), and ripgrep
  // leaves such a file without a word. Found by an adversarial run: the default answer said
  // "every file was searched, so the text does not occur there" and `binarySkipped: 0`.
  it('never "every file was searched": the summary says every text file, and that the binary files were not counted', () => {
    const run = ff(['--contains', 'binary', '-u']);
    expect(run).toMatchObject({ status: 0, stdout: '' });
    expect(run.stderr).toMatch(/^find-file: no hits under .+: complete, every text file was searched, so the text does not occur there\n/);
    expect(run.stderr).toContain('\n  binary files were not searched, and ripgrep does not count them: --backend walker counts them\n');
    expect(run.stderr).not.toContain('every file');
  });

  it('--json says the count is not one: binaryCounted false after ripgrep, true (and the file counted) on the pure-TS path', () => {
    const rg = JSON.parse(ff(['--contains', 'binary', '-u', '--json']).stdout);
    expect(rg).toMatchObject({ backend: 'ripgrep', complete: true, hitCount: 0, binarySkipped: 0, binaryCounted: false });
    const walker = JSON.parse(ff(['--contains', 'binary', '-u', '--json', '--backend', 'walker']).stdout);
    expect(walker).toMatchObject({ backend: 'walker', complete: true, hitCount: 0, binarySkipped: 1, binaryCounted: true });
  });
});

describe('human output', () => {
  it('prints path:line:column: text per hit, the summary on stderr, status 0 (the pure-TS path: it counts binary files)', () => {
    const run = ff(['*', '--contains', 'TODO', '--backend', 'walker']);
    expect(run.status).toBe(0);
    expect(run.stdout.split('\n').filter(Boolean).sort()).toEqual(
      [`${native('notes.md')}:2:5: the TODO list`, `${native('src/a.ts')}:1:17: const a = 1; // TODO: split`, `${native('src/中文.ts')}:1:7: // 中文 TODO 注释`].sort(),
    );
    // The binary file was not searched: the headline says "every text file", never contradicting the policy line.
    expect(run.stderr).toMatch(/^find-file: 3 hits under .+: complete, every text file was searched\n {2}1 binary file not searched \(by policy, not coverage gaps\)\n$/);
    const none = ff(['--contains', 'absent text', '--backend', 'walker']);
    expect(none.stderr).toMatch(/^find-file: no hits under .+: complete, every text file was searched, so the text does not occur there\n {2}1 binary file not searched/);
  });

  it('a complete search without a hit says the text does not occur there', () => {
    const run = ff(['--contains', 'absent text']);
    expect(run).toMatchObject({ status: 0, stdout: '' });
    expect(run.stderr).toContain('no hits under');
    // "text file" where the engine counted the binary file it left out (the pure-TS path).
    expect(run.stderr).toMatch(/complete, every (text )?file was searched, so the text does not occur there/);
  });

  it('a pattern narrowed the files read: the summary names them, never "every file was searched" (issue 27)', () => {
    // src/a.ts holds TODO, notes.md does not: absence is claimed only for the .md files that were read.
    for (const backend of ['walker', 'ripgrep']) {
      if (backend === 'ripgrep' && !hasRg) continue;
      // -u: ripgrep's count-less ignore files are not this test's subject (ignore.test.ts words them).
      const none = ff(['*.md', '-u', '--contains', 'split', '--backend', backend]);
      expect(none).toMatchObject({ status: 0, stdout: '' });
      // ripgrep cannot see symlinked directories: its absence is claimed only outside them.
      const outside = backend === 'ripgrep' ? ' outside symlinked directories' : '';
      // ripgrep leaves binary files without a word: it read every text file, not every file.
      const every = backend === 'ripgrep' ? 'every text file' : 'every file';
      expect(none.stderr, backend).toMatch(new RegExp(`^find-file: no hits under .+: complete, ${every} matching '\\*\\.md'${outside} was searched, and the text does not occur in them\n`));
      expect(none.stderr).not.toContain('every file was searched');
      const two = ff(['*.md', 'src/*.ts', '-u', '--contains', 'TODO', '--backend', backend]);
      expect(two.stderr.split('\n')[0], backend).toMatch(/: complete, every (text )?file matching '\*\.md' or 'src\/\*\.ts' was searched$/);
    }
  });

  it('--max-results: incomplete, more hits exist; --strict exits 3', () => {
    const run = ff(['*', '--contains', 'TODO', '--max-results', '1']);
    expect(run.status).toBe(0);
    expect(run.stdout.split('\n').filter(Boolean)).toHaveLength(1);
    expect(run.stderr).toMatch(/^find-file: INCOMPLETE search under .+: 1 hit in the part searched, there may be more\n/);
    expect(run.stderr).toContain('why: result-limit: stopped at --max-results 1; more hits exist');
    expect(ff(['*', '--contains', 'TODO', '--max-results', '1', '--strict']).status).toBe(3);
    expect(ff(['*', '--contains', 'TODO', '--strict']).status).toBe(0);
  });

  it('-0 puts a NUL after the path; --absolute prints absolute paths', () => {
    expect(ff(['*.md', '--contains', 'TODO', '-0']).stdout).toBe(`notes.md\u00002:5: the TODO list\n`);
    expect(ff(['*.md', '--contains', 'TODO', '--absolute']).stdout).toBe(`${join(tree, 'notes.md')}:2:5: the TODO list\n`);
  });
});

describe('--json and --ndjson', () => {
  it('--json is exactly the library\'s ContentResult', async () => {
    const run = ff(['*', '--contains', 'TODO', '--json']);
    expect(run.status).toBe(0);
    expect(comparable(JSON.parse(run.stdout))).toEqual(await library({}));
  });

  it('--ndjson: one hit line per hit, then a summary line equal to the library\'s summary', async () => {
    const run = ff(['*', '--contains', 'TODO', '--ndjson']);
    const events = run.stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    const { hits, ...summary } = (await library({})) as ContentResult;
    expect(events.slice(0, -1).map(({ type, ...hit }) => (expect(type).toBe('hit'), hit)).sort((a, b) => String(a.path).localeCompare(String(b.path)))).toEqual(
      [...hits].sort((a, b) => a.path.localeCompare(b.path)),
    );
    const { type, ...last } = events.at(-1)!;
    expect(type).toBe('summary');
    expect(comparable(last as Partial<ContentResult>)).toEqual(summary);
  });
});

describe('exit statuses', () => {
  it('2 for an empty or oversized query, with the reason; 1 for a missing root', () => {
    const empty = ff(['*', '--contains', '']);
    expect(empty.status).toBe(2);
    expect(empty.stderr.trimEnd().split('\n').at(-1)).toBe('find-file: error: --contains is empty: it would match every line; give the text to search for');
    expect(ff(['*', '--contains', 'x'.repeat(70_000)]).status).toBe(2);
    const missing = ff(['*', '--contains', 'TODO', '--root', 'nope']);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain('does not exist (ENOENT)');
  });

  it('2 for an invalid --regex, with the reason, and nothing searched (a usage error, never fatal)', () => {
    // Kills FF_INVALID_QUERY left out of the usage codes: a script would read status 1 as "the tree is broken".
    const bad = ff(['*', '--contains', '(', '--regex']);
    expect(bad.status).toBe(2);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toContain('find-file: error: --contains is not a valid regex');
  });
});

describeIf(needsRg)('a regex only ripgrep judges', () => {
  it('--backend ripgrep: a regex ripgrep refuses is 2 with its reason, not an incomplete search with status 0', () => {
    const bad = ff(['--contains', '(\\w+) \\1', '--regex', '--backend', 'ripgrep']);
    expect({ status: bad.status, stdout: bad.stdout, last: bad.stderr.trimEnd().split('\n').at(-1) }).toEqual({
      status: 2,
      stdout: '',
      last: "find-file: error: --contains is not a valid regex (ripgrep's syntax): backreferences are not supported",
    });
  });
});

describe('hostile text stays text', () => {
  it.each(['$(touch PWNED)', '--pre=sh'])('%s is searched for, never run or read as a flag', (query) => {
    for (const backend of hasRg ? ['walker', 'ripgrep'] : ['walker']) {
      const run = ff(['*.txt', `--contains=${query}`, '--backend', backend]);
      expect(run.status, backend).toBe(0);
      expect(run.stdout, backend).toMatch(/^hostile\.txt:1:\d+: it says \$\(touch PWNED\) and --pre=sh here\n$/);
    }
    expect(existsSync(join(tree, 'PWNED'))).toBe(false);
  });
});

requireRipgrepInCi();

describeIf(needsRg)('backends', () => {
  it('--backend ripgrep and auto print what the walker prints', () => {
    const walker = ff(['*', '--contains', 'TODO']);
    for (const backend of ['ripgrep', 'auto']) {
      const run = ff(['*', '--contains', 'TODO', '--backend', backend]);
      expect(run.status, backend).toBe(0);
      expect(run.stdout.split('\n').sort(), backend).toEqual(walker.stdout.split('\n').sort());
      expect(JSON.parse(ff(['*', '--contains', 'TODO', '--backend', backend, '--json']).stdout).backend).toBe('ripgrep');
    }
  });
});

describe('--contains without a pattern, --regex, -l', () => {
  it('without a pattern searches every file, as with "*"', () => {
    const all = ff(['--contains', 'TODO']);
    expect(all.status).toBe(0);
    // In the order found: ripgrep (the default, auto) searches files on several threads.
    const sorted = (out: string) => out.split('\n').filter(Boolean).sort();
    expect(sorted(all.stdout)).toEqual(sorted(ff(['*', '--contains', 'TODO']).stdout));
    expect(sorted(all.stdout)).toHaveLength(3);
  });

  it('--regex reads the text as a regular expression; without it the text is literal', () => {
    const regex = ff(['--contains', 'TO+DO:? (list|split)', '--regex']);
    expect(regex.stdout.split('\n').filter(Boolean).sort()).toEqual([`${native('notes.md')}:2:5: the TODO list`, `${native('src/a.ts')}:1:17: const a = 1; // TODO: split`].sort());
    expect(ff(['--contains', 'TO+DO']).stdout).toBe('');
  });

  it('-l prints each file with a hit once; it needs --contains and cannot go with --json', () => {
    const files = ff(['--contains', 'TODO', '-l']);
    expect(files.stdout.split('\n').filter(Boolean).sort()).toEqual([native('notes.md'), native('src/a.ts'), native('src/中文.ts')].sort());
    const alone = ff(['*', '-l']);
    expect(alone.status).toBe(2);
    expect(alone.stderr).toContain('--files-with-matches needs --contains TEXT');
    expect(ff(['--contains', 'TODO', '-l', '--json']).status).toBe(2);
  });
});

describe('-m / --max-count', () => {
  it.each(hasRg ? ['walker', 'ripgrep'] : ['walker'])('at most N hits a file, with -c each count at most N; the summary names the files it cut, complete (%s)', (backend) => {
    writeTree(tree, { 'many.txt': 'TODO\nTODO\nno\nTODO\n' });
    try {
      const counts = ff(['--contains', 'TODO', '-c', '-m', '2', '--backend', backend]);
      expect(counts.status).toBe(0);
      expect(counts.stdout.split('\n').filter(Boolean).sort()).toEqual([`${native('many.txt')}:2`, `${native('notes.md')}:1`, `${native('src/a.ts')}:1`, `${native('src/中文.ts')}:1`].sort());
      expect(counts.stderr).toMatch(/^find-file: 5 hits under .*: complete, /);
      expect(counts.stderr).toContain('  1 file reached --max-count 2: the rest of it was not read');
      const hits = ff(['many.txt', '--contains', 'TODO', '--max-count=1', '--backend', backend]);
      expect(hits.stdout).toBe(`${native('many.txt')}:1:1: TODO\n`);
      // -l reads one hit a file whatever -m says, and counts files.
      const files = ff(['--contains', 'TODO', '-l', '-m', '3', '--backend', backend]);
      expect(files.stdout.split('\n').filter(Boolean)).toHaveLength(4);
      expect(files.stderr).toMatch(/^find-file: 4 files with a hit under .*: complete, /);
      expect(files.stderr).not.toContain('--max-count');
    } finally {
      rmSync(join(tree, 'many.txt'));
    }
  });

  it('is a usage error (status 2) at 0, without a number, or without --contains', () => {
    for (const [args, message] of [
      [['--contains', 'TODO', '-m', '0'], '--max-count must be at least 1'],
      [['--contains', 'TODO', '--max-count', 'x'], '--max-count must be a non-negative integer'],
      [['*', '-m', '1'], '--max-count needs --contains TEXT'],
    ] as const) {
      const run = ff([...args]);
      expect(run.status, args.join(' ')).toBe(2);
      expect(run.stderr).toContain(message);
      expect(run.stdout).toBe('');
    }
  });
});

describe('-c', () => {
  it('prints each file with a hit as path:N; it needs --contains and cannot go with -l or --json', () => {
    writeTree(tree, { 'many.txt': 'TODO\nTODO\nno\nTODO\n' });
    try {
      const counts = ff(['--contains', 'TODO', '-c']);
      expect(counts.status).toBe(0);
      expect(counts.stdout.split('\n').filter(Boolean).sort()).toEqual([`${native('many.txt')}:3`, `${native('notes.md')}:1`, `${native('src/a.ts')}:1`, `${native('src/中文.ts')}:1`].sort());
      expect(ff(['*', '-c']).stderr).toContain('--count needs --contains TEXT');
      expect(ff(['--contains', 'TODO', '-c', '-l']).status).toBe(2);
      expect(ff(['--contains', 'TODO', '-c', '--json']).status).toBe(2);
    } finally {
      rmSync(join(tree, 'many.txt'));
    }
  });

  it.each(hasRg ? ['walker', 'ripgrep'] : ['walker'])('a count a stop cut short reads path:N+ (%s)', (backend) => {
    writeTree(tree, { 'many.txt': 'TODO\nTODO\nno\nTODO\n' });
    try {
      const capped = ff(['many.txt', '--contains', 'TODO', '-c', '--max-results', '2', '--backend', backend]);
      expect(capped.stdout).toBe(`${native('many.txt')}:2+\n`);
      const whole = ff(['many.txt', '--contains', 'TODO', '-c', '--max-results', '3', '--backend', backend]);
      expect(whole.stdout).toBe(`${native('many.txt')}:3\n`);
    } finally {
      rmSync(join(tree, 'many.txt'));
    }
  });
});
