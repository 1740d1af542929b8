/**
 * The CLI's helpers on their own (the exit statuses: test/cli/exit.test.ts): the summary's wording for every
 * verdict, the display paths on both path flavours and the chunked writer. test/cli/cli.test.ts runs
 * the real command end to end.
 */
import * as path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { CHUNK_CHARS, ChunkWriter, buildRelDisplay, type OutputStream } from '../../src/cli/output.js';
import { PROGRESS_DELAY_MS, SearchProgress } from '../../src/cli/progress.js';
import { explainReason, formatProgress, formatSummary, stylesFor, type SummaryContext } from '../../src/cli/summary.js';
import { formatContentSummary } from '../../src/cli/content-summary.js';
import type { ContentSummary } from '../../src/content/types.js';
import type { FindOptions } from '../../src/options.js';
import { HintTime, hintAfter, nameHint } from '../../src/cli/hint.js';
import { FakeClock, asFs, buildVolume } from '../helpers/memfs.js';
import { INCOMPLETE_REASONS, type FindSummary } from '../../src/result.js';
import { summaryOf } from '../helpers/summary.js';

const ctx: SummaryContext = {
  root: '/home/u',
  maxResults: 10,
  maxDepth: 3,
  timeBudgetMs: 500,
  hiddenLeftOut: false,
  displayPath: (rel) => rel,
  styles: stylesFor(false),
};

describe('summary', () => {
  it('a complete search with no match says the file does not exist there', () => {
    const text = formatSummary(summaryOf({}), ctx);
    expect(text).toBe('find-file: no matches under /home/u: complete, every directory was read, so no matching file exists there\n');
  });

  it('qualifies that claim when entries were left out by --no-hidden or --exclude', () => {
    // Only what was left out is named: hidden entries that were searched are not "not hidden".
    expect(formatSummary(summaryOf({}), { ...ctx, hiddenLeftOut: true })).toContain('exists there (among entries not hidden)\n');
    expect(formatSummary(summaryOf({ excludedCount: 2 }), ctx)).toContain('exists there (among entries not excluded)\n');
    expect(formatSummary(summaryOf({ excludedCount: 2 }), { ...ctx, hiddenLeftOut: true })).toContain('(among entries not excluded or hidden)\n');
    // Ignore files are on by default in the command (issue 30): "ignored" is named only when they left something out.
    expect(formatSummary(summaryOf({ excludedCount: 2, ignoredCount: 1, matchedCount: 1 }), { ...ctx, hiddenLeftOut: true, ignoreFiles: true })).not.toContain('among');
    expect(formatSummary(summaryOf({ excludedCount: 2 }), { ...ctx, hiddenLeftOut: true, ignoreFiles: true })).toContain('(among entries not excluded or hidden)\n');
    expect(formatSummary(summaryOf({}), { ...ctx, ignoreFiles: true })).toContain('so no matching file exists there\n');
  });

  it('with ignored paths, an empty answer says "none outside ignored paths", never "exists there" (issue 30)', () => {
    const text = formatSummary(summaryOf({ ignoredCount: 3 }), { ...ctx, ignoreFiles: true });
    expect(text.split('\n')[0]).toBe('find-file: no matches under /home/u: complete, but none outside ignored paths: 3 ignored, -u to include them');
    expect(text).not.toContain('exists there');
  });

  it('an incomplete search with no match says, first, that it proves nothing', () => {
    const text = formatSummary(summaryOf({ incompleteReasons: ['permission-denied'], skipped: [{ path: 'WindowsApps', code: 'EPERM' }] }), ctx);
    const [first, ...rest] = text.trimEnd().split('\n');
    expect(first).toBe('find-file: INCOMPLETE search under /home/u: no matches in the part searched, NOT proof of absence');
    expect(first).not.toContain('complete,');
    expect(rest).toEqual(['  why: permission-denied: 1 path could not be read (access denied)', '  skipped: WindowsApps (EPERM)']);
  });

  it('lists every reason, each explained, in the order given', () => {
    const reasons = ['time-budget', 'permission-denied', 'depth-limit', 'io-error'] as const;
    const skipped = [{ path: 'a', code: 'EACCES' }, { path: 'b', code: 'EIO' }, { path: 'c', code: 'EMFILE' }, { path: 'gone', code: 'ENOENT' }];
    const lines = formatSummary(summaryOf({ matchedCount: 4, incompleteReasons: [...reasons], skipped }), ctx).split('\n');
    expect(lines[0]).toBe('find-file: INCOMPLETE search under /home/u: 4 matches in the part searched, there may be more');
    expect(lines.slice(1, 5)).toEqual([
      '  why: time-budget: the 500 ms budget (--time-budget-ms) ran out before the walk ended',
      '       permission-denied: 1 path could not be read (access denied)',
      '       depth-limit: --max-depth 3 kept the search out of deeper directories that may hold matches',
      '       io-error: 2 paths could not be read (read errors)',
    ]);
  });

  it('explains every reason the contract knows, naming the option or the count', () => {
    for (const reason of INCOMPLETE_REASONS) {
      const line = explainReason(reason, summaryOf({ incompleteReasons: [reason] }), ctx);
      expect(line.startsWith(`${reason}: `), line).toBe(true);
      expect(line.length).toBeGreaterThan(reason.length + 10);
    }
    expect(explainReason('result-limit', summaryOf({}), ctx)).toContain('--max-results 10');
  });

  it('names the first five skipped paths, counts the rest, and shows them as the paths are shown', () => {
    const skipped = Array.from({ length: 8 }, (_, i) => ({ path: `dir${i}`, code: 'EACCES' }));
    const text = formatSummary(summaryOf({ incompleteReasons: ['permission-denied'], skipped }), { ...ctx, displayPath: (rel) => `sub/${rel}` });
    expect(text.match(/skipped: /g)).toHaveLength(5);
    expect(text).toContain('  skipped: sub/dir0 (EACCES)\n');
    expect(text).toContain('  ... and 3 more skipped paths (--json lists them all)\n');
  });

  it('reports symlinks and exclusions as policy, not gaps', () => {
    const text = formatSummary(summaryOf({ matchedCount: 1, symlinkSkipped: 1, excludedCount: 3 }), ctx);
    expect(text).toBe(
      'find-file: 1 match under /home/u: complete, every directory was read\n' +
        '  1 symlink not followed, 3 entries excluded (by policy, not coverage gaps)\n',
    );
  });

  it('names matching symlinks instead of claiming absence when no regular file matched', () => {
    const text = formatSummary(summaryOf({ symlinkSkipped: 2, linkMatches: ['python3', 'sub/python3'], linkMatchedCount: 2 }), ctx);
    expect(text).toBe(
      'find-file: no regular file matches under /home/u (complete, every directory was read); 2 symlinks match (not followed): python3, sub/python3\n' +
        '  2 symlinks not followed (by policy, not coverage gaps)\n',
    );
    expect(text).not.toContain('no matching file exists');
  });

  it('adds one line for matching symlinks when files matched too, and names the first five', () => {
    const linkMatches = ['l0', 'l1', 'l2', 'l3', 'l4', 'l5', 'l6'];
    const lines = formatSummary(summaryOf({ matchedCount: 1, linkMatches, linkMatchedCount: 1200 }), { ...ctx, displayMatch: (p) => `/abs/${p}` }).split('\n');
    expect(lines.slice(0, 2)).toEqual([
      'find-file: 1 match under /home/u: complete, every directory was read',
      '  also 1200 symlinks match (not followed): /abs/l0, /abs/l1, /abs/l2, /abs/l3, /abs/l4, and 1195 more (--json lists the first 7)',
    ]);
    const one = formatSummary(summaryOf({ matchedCount: 2, linkMatches: ['a'], linkMatchedCount: 1 }), ctx).split('\n');
    expect(one[1]).toBe('  also 1 symlink matches (not followed): a');
  });

  it('an incomplete search with only matching symlinks starts with INCOMPLETE and still names them', () => {
    const lines = formatSummary(summaryOf({ incompleteReasons: ['permission-denied'], skipped: [{ path: 'x', code: 'EACCES' }], linkMatches: ['a'], linkMatchedCount: 1 }), ctx).split('\n');
    expect(lines.slice(0, 3)).toEqual([
      'find-file: INCOMPLETE search under /home/u: no regular file matches in the part searched, NOT proof of absence',
      '  1 symlink matches (not followed): a',
      '  why: permission-denied: 1 path could not be read (access denied)',
    ]);
  });

  it('says symlinks were not examined when ripgrep answered empty, instead of claiming every entry was seen', () => {
    const ripgrep = { backend: 'ripgrep' as const, linksExamined: false };
    expect(formatSummary(summaryOf(ripgrep), ctx)).toBe(
      'find-file: no matches under /home/u: complete, every directory was read, so no matching regular file exists there outside symlinked directories\n' +
        '  symlinks were not examined (ripgrep lists regular files only): a matching symlink or a symlinked directory on the way would not be named; --backend walker names them\n',
    );
    expect(formatSummary(summaryOf({ ...ripgrep, incompleteReasons: ['time-budget'] }), ctx).split('\n').slice(0, 2)).toEqual([
      'find-file: INCOMPLETE search under /home/u: no matches in the part searched, NOT proof of absence',
      '  symlinks were not examined (ripgrep lists regular files only): a matching symlink or a symlinked directory on the way would not be named; --backend walker names them',
    ]);
    expect(formatSummary(summaryOf({ ...ripgrep, matchedCount: 1 }), ctx)).toBe('find-file: 1 match under /home/u: complete, every directory was read\n');
  });

  it('names symlinked directories on the way, with their targets, and never claims absence while one exists (issue 27)', () => {
    const targets: Record<string, string> = { 'linked-src': 'real', 'node_modules/react': '.pnpm/react@18/node_modules/react' };
    const withTargets = { ...ctx, linkTarget: (p: string) => targets[p] };
    const one = { linksOnTheWay: ['linked-src'], linkOnTheWayCount: 1, symlinkSkipped: 1 };
    const empty = formatSummary(summaryOf(one), withTargets);
    expect(empty).toBe(
      'find-file: no matches under /home/u: complete, every directory was read, but symlinks are never followed: no matching file outside symlinked directories; 1 symlinked directory on the way was not followed: linked-src -> real\n' +
        '  search its target to look inside\n' +
        '  1 symlink not followed (by policy, not coverage gaps)\n',
    );
    expect(empty).not.toContain('exists there');
    // Without a readable target, the link alone; with matches, one more line; incomplete, the same line after INCOMPLETE.
    expect(formatSummary(summaryOf(one), ctx).split('\n')[0]).toMatch(/on the way was not followed: linked-src$/);
    expect(formatSummary(summaryOf({ ...one, matchedCount: 2 }), withTargets).split('\n')[1]).toBe('  also 1 symlinked directory on the way was not followed: linked-src -> real; search its target to look inside');
    const incomplete = formatSummary(summaryOf({ ...one, incompleteReasons: ['time-budget'] }), withTargets).split('\n');
    expect(incomplete.slice(0, 2)).toEqual([
      'find-file: INCOMPLETE search under /home/u: no matches in the part searched, NOT proof of absence',
      '  1 symlinked directory on the way was not followed: linked-src -> real; search its target to look inside',
    ]);
    const many = { linksOnTheWay: Array.from({ length: 7 }, (_, i) => `l${i}`), linkOnTheWayCount: 1200 };
    expect(formatSummary(summaryOf(many), ctx).split('\n')[0]).toContain('1200 symlinked directories on the way were not followed: l0, l1, l2, l3, l4, and 1195 more (--json lists the first 7)');
    // A hostile target is escaped like any path.
    expect(formatSummary(summaryOf(one), { ...ctx, linkTarget: () => 'x\nfind-file: 0 matches' }).split('\n')[0]).toContain('linked-src -> x\\u{a}find-file: 0 matches');
  });

  it('escapes every path it shows (root, skipped paths, matching links), file and content summaries alike', () => {
    const hostile = { ...ctx, root: '/home/u/x\n(search complete)', displayPath: (rel: string) => `/r/${rel}` };
    const skipped = [{ path: 'd\x1b[2J\nfind-file: 0 matches', code: 'EACCES' }];
    const lines = formatSummary(summaryOf({ incompleteReasons: ['permission-denied'], skipped, linkMatches: ['l\u202eyp.exe'], linkMatchedCount: 1, matchedCount: 1 }), hostile).split('\n');
    expect(lines.slice(0, 4)).toEqual([
      'find-file: INCOMPLETE search under /home/u/x\\u{a}(search complete): 1 match in the part searched, there may be more',
      '  also 1 symlink matches (not followed): /r/l\\u{202e}yp.exe',
      '  why: permission-denied: 1 path could not be read (access denied)',
      '  skipped: /r/d\\u{1b}[2J\\u{a}find-file: 0 matches (EACCES)',
    ]);
    const content = formatContentSummary({ ...summaryOf({ skipped }), hitCount: 0, binarySkipped: 0, binaryCounted: true, truncated: false, protocolErrors: 0 } as unknown as ContentSummary, hostile);
    expect(content.split('\n')[0]).toBe('find-file: no hits under /home/u/x\\u{a}(search complete): complete, every file was searched, so the text does not occur there');
    expect(content).toContain('  skipped: /r/d\\u{1b}[2J\\u{a}find-file: 0 matches (EACCES)\n');
  });

  it('paints the verdict only with the coloured styles (color.test.ts has when they are chosen)', () => {
    const coloured = formatSummary(summaryOf({ incompleteReasons: ['aborted'] }), { ...ctx, styles: stylesFor(true) });
    expect(coloured).toContain('\x1b[1;33mINCOMPLETE');
    expect(formatSummary(summaryOf({}), ctx)).not.toContain('\x1b');
  });

  it('formats the progress line with or without a directory count', () => {
    const plain = stylesFor(false);
    expect(formatProgress({ dirsRead: 1200, matches: 1, elapsedMs: 2345 }, plain)).toBe('searching: 1200 dirs read, 1 match, 2.3s');
    expect(formatProgress({ dirsRead: undefined, matches: 0, elapsedMs: 1000 }, plain)).toBe('searching: 0 matches, 1.0s');
  });
});

describe('display paths', () => {
  it('(posix) relative to the current directory for a relative root, absolute for an absolute one', () => {
    const cwd = '/home/u/proj';
    expect(buildRelDisplay('.', cwd, path.posix)('src/a.ts')).toBe('src/a.ts');
    expect(buildRelDisplay('.', cwd, path.posix)('.')).toBe('.');
    expect(buildRelDisplay('src', cwd, path.posix)('lib/a.ts')).toBe('src/lib/a.ts');
    expect(buildRelDisplay('./src/', cwd, path.posix)('a.ts')).toBe('src/a.ts');
    expect(buildRelDisplay('..', cwd, path.posix)('x/a.ts')).toBe('../x/a.ts');
    expect(buildRelDisplay('../proj', cwd, path.posix)('a.ts')).toBe('a.ts');
    expect(buildRelDisplay('/opt/tools', cwd, path.posix)('bin/rg')).toBe('/opt/tools/bin/rg');
    expect(buildRelDisplay('/', cwd, path.posix)('etc/hosts')).toBe('/etc/hosts');
    expect(buildRelDisplay('src', cwd, path.posix)('.')).toBe('src');
  });

  it('(win32) native separators, and a root on another drive stays absolute', () => {
    const cwd = 'C:\\Users\\me';
    expect(buildRelDisplay('.', cwd, path.win32)('src/a.ts')).toBe('src\\a.ts');
    expect(buildRelDisplay('src', cwd, path.win32)('lib/a.ts')).toBe('src\\lib\\a.ts');
    expect(buildRelDisplay('C:\\Program Files', cwd, path.win32)('App/x.exe')).toBe('C:\\Program Files\\App\\x.exe');
    expect(buildRelDisplay('D:\\data', cwd, path.win32)('a.txt')).toBe('D:\\data\\a.txt');
  });
});

describe('chunked writer', () => {
  class FakeStream implements OutputStream {
    writes: string[] = [];
    full = false;
    private drainListener: (() => void) | undefined;
    write(chunk: string, callback?: (error?: Error | null) => void): boolean {
      this.writes.push(chunk);
      if (callback) queueMicrotask(() => callback());
      return !this.full;
    }
    once(_event: 'drain', listener: () => void): this {
      this.drainListener = listener;
      return this;
    }
    drain(): void {
      this.full = false;
      this.drainListener?.();
    }
  }

  it('writes in large chunks and everything on end, in order', async () => {
    const stream = new FakeStream();
    const out = new ChunkWriter(stream);
    const line = 'x'.repeat(99) + '\n';
    const lines = Math.ceil((CHUNK_CHARS * 2.5) / line.length);
    for (let i = 0; i < lines; i++) expect(out.write(line)).toBeUndefined();
    expect(stream.writes.length).toBe(2);
    await out.end();
    expect(stream.writes.join('')).toBe(line.repeat(lines));
    expect(stream.writes.every((chunk) => chunk.length <= CHUNK_CHARS + line.length)).toBe(true);
  });

  it('flushes a small amount after a short delay, so a slow search still shows paths', async () => {
    const stream = new FakeStream();
    const out = new ChunkWriter(stream);
    out.write('one\n');
    expect(stream.writes).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(stream.writes).toEqual(['one\n']);
    await out.end();
  });

  it('asks the caller to wait while the stream is full, and runs the hook before each write', async () => {
    const stream = new FakeStream();
    let hooks = 0;
    const out = new ChunkWriter(stream, () => hooks++);
    stream.full = true;
    const wait = out.write('y'.repeat(CHUNK_CHARS));
    expect(wait).toBeInstanceOf(Promise);
    expect(out.write('z\n')).toBe(wait);
    let resumed = false;
    void wait!.then(() => (resumed = true));
    await Promise.resolve();
    expect(resumed).toBe(false);
    stream.drain();
    await wait;
    expect(resumed).toBe(true);
    await out.end();
    expect(stream.writes.join('')).toBe('y'.repeat(CHUNK_CHARS) + 'z\n');
    expect(hooks).toBe(2);
  });
});

describe('progress counts', () => {
  /** What the line shows once it is first drawn. */
  function firstDraw(use: (progress: SearchProgress) => void): string {
    vi.useFakeTimers();
    try {
      let shown = '';
      const progress = new SearchProgress({ write: (chunk) => ((shown = chunk), true) }, stylesFor(false));
      use(progress);
      vi.advanceTimersByTime(PROGRESS_DELAY_MS);
      const drawn = shown;
      progress.stop();
      return drawn.replace('\r\x1b[2K', '');
    } finally {
      vi.useRealTimers();
    }
  }

  it('counts directories through onDirectory on a copy of the options, and matches only for a streaming search', () => {
    const options: FindOptions = { root: '.', pattern: '*' };
    expect(
      firstDraw((progress) => {
        const watched = progress.watch(options);
        expect(options).toEqual({ root: '.', pattern: '*' }); // the given options are left as they are
        watched.onDirectory?.('', []);
        watched.onDirectory?.('src/', []);
        progress.countMatches();
        progress.found(1);
      }),
    ).toMatch(/^searching: 2 dirs read, 1 match, \d+\.\ds$/);
    // ripgrep lists no directory, and a promise-form search has no live matches: only the time.
    expect(firstDraw((progress) => progress.found(1))).toMatch(/^searching: \d+\.\ds$/);
  });
});

describe('the -F hint after an empty answer (cli/hint.ts)', () => {
  const fs = asFs(buildVolume({ Makefile: '', src: { 'cmake.txt': '' } }));
  const empty = (elapsedMs: number) => ({ matchedCount: 0, linkMatchedCount: 0, stats: { elapsedMs } as FindSummary['stats'] });
  const options: FindOptions = { root: '/root', pattern: 'make', fs, clock: new FakeClock(), caseSensitive: false };

  it('counts the names holding the text and gives the -F command', async () => {
    // The command is the one typed, with -F in front: its other words stay, quoted for a shell when needed.
    expect(await nameHint(options, empty(0), ['make', '/root', '-E', 'a b'], new HintTime(options, empty(0)))).toBe(`  hint: a glob matches whole names; 2 names contain "make": find-file -F make /root -E 'a b'\n`);
  });

  it('searches only within what is left of --time-budget-ms: nothing left, no second search and no hint', async () => {
    expect(await hintAfter({ ...options, timeBudgetMs: 1000 }, empty(999), ['make'])).toBeDefined();
    expect(await hintAfter({ ...options, timeBudgetMs: 1000 }, empty(1000), ['make'])).toBeUndefined();
  });

  it('the hints share one allowance: what the budget leaves, never more than the answer took (at least 500 ms), the second getting what the first left', () => {
    const budgetOf = (time: HintTime) => time.searchOptions(options)?.timeBudgetMs;
    // An adversarial run: three walks of /usr for one empty answer (0.40 -> 1.36 s), the second hint given the budget the first had spent.
    expect(budgetOf(new HintTime({}, empty(5000)))).toBe(5000);
    expect(budgetOf(new HintTime({}, empty(10)))).toBe(500);
    expect(budgetOf(new HintTime({ timeBudgetMs: 600 }, empty(375)))).toBe(225);
    const shared = new HintTime({ timeBudgetMs: 600 }, empty(375));
    shared.spent(200);
    expect(budgetOf(shared)).toBe(25);
    shared.spent(25);
    expect(shared.searchOptions(options)).toBeUndefined();
  });
});
