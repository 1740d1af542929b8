/**
 * Content search through `rg --json`, with the fake runner playing ripgrep: the fixed argv, the
 * JSON event consumer (every branch, every malformed shape, stdout split at every byte), the
 * budgets that kill the child, the exit-status contract and the retry shared with file listing,
 * and how `auto` decides.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { searchContent, searchContentStream, type ContentHit, type ContentOptions, type RecoveryEvent } from '../../src/index.js';
import { HitCollector } from '../../src/content/hits.js';
import { buildContentPlan } from '../../src/plan/content-plan.js';
import { searchWithRipgrep } from '../../src/content/rg.js';
import { defaultThreads } from '../../src/rg/argv.js';
import { beginEvent, endEvent, fileEvents, matchEvent, summaryEvent } from '../helpers/content.js';
import { buildVolume } from '../helpers/memfs.js';
import { EAGAIN_PANIC, FakeClock, FakeRipgrep, useFakeInstall, type Step } from '../helpers/rg-fake.js';
import { Deadline } from '../../src/limits.js';

let rgPath: string;
let root: string;
useFakeInstall((made) => {
  ({ rgPath, root } = made);
  // A real tree for the walker when auto falls back.
  mkdirSync(join(root, 'src'));
  writeFileSync(join(root, 'src', 'a.ts'), 'const needle = 1;\n');
});

const THREADS = String(defaultThreads());
const HEAD = ['--json', '--hidden', '--no-ignore', '--no-config', '--path-separator', '/', '--threads', THREADS];

async function search(scripts: Step[][], options: Partial<ContentOptions> = {}) {
  const fake = new FakeRipgrep(...scripts);
  const events: RecoveryEvent[] = [];
  const result = await searchContent({ root, query: 'needle', backend: 'ripgrep', rgPath, runner: fake.runner, onEvent: (e) => events.push(e), ...options });
  return { result, fake, events };
}

const TWO_FILES =
  fileEvents('src/b.ts', 'needle', [
    [3, 'let needle;'],
    [9, '// 中文 needle'],
  ]) +
  JSON.stringify({ type: 'context', data: { path: { text: './src/b.ts' }, lines: { text: 'ctx\n' }, line_number: 4 } }) +
  '\n' +
  fileEvents('a.md', 'needle', [[1, 'needle']]) +
  summaryEvent(1234);

describe('the argv', () => {
  it('is fixed: file set flags, an explicit case flag, --fixed-strings, globs, then the query alone after --', async () => {
    const env = { PATH: '/usr/bin', RIPGREP_CONFIG_PATH: '/x', SECRET: 'y' };
    const { fake } = await search([[{ exit: 1 }]], { env, exclude: ['node_modules/'] });
    expect(fake.calls[0]).toEqual({
      executable: rgPath,
      argv: [...HEAD, '--smart-case', '--fixed-strings', '--glob=!node_modules/', '--', 'needle', '.'],
      cwd: root,
      env: { PATH: '/usr/bin' },
      killed: false,
    });
  });

  it('says the case and the mode as asked, adds --multiline for a query with a line break, --max-depth as findFiles does', async () => {
    const argv = async (options: Partial<ContentOptions>) => (await search([[{ exit: 1 }]], options)).fake.calls[0]!.argv;
    expect(await argv({ caseSensitive: true })).toContain('--case-sensitive');
    expect(await argv({ caseSensitive: false })).toContain('--ignore-case');
    expect(await argv({ mode: 'regex', query: 'ne+dle' })).not.toContain('--fixed-strings');
    expect(await argv({ query: 'a\nb' })).toEqual([...HEAD, '--smart-case', '--fixed-strings', '--multiline', '--', 'a\nb', '.']);
    expect(await argv({ pattern: 'src/*.ts', maxDepth: 2, hidden: false })).toEqual([
      ...HEAD, '--max-depth', '2', '--smart-case', '--fixed-strings', '--glob=!.*', '--type-add=findfile:*.ts', '--type=findfile', '--', 'needle', '.',
    ]);
    expect(await argv({ contextBefore: 2, contextAfter: 0 })).toEqual([...HEAD, '--smart-case', '--fixed-strings', '--before-context', '2', '--', 'needle', '.']);
    expect(await argv({ contextAfter: 3 })).toEqual([...HEAD, '--smart-case', '--fixed-strings', '--after-context', '3', '--', 'needle', '.']);
  });

  it('context events become the context lines of the hits around them; a context event that breaks the rules is a protocol failure', async () => {
    const context = (path: string, text: string, n: number) => JSON.stringify({ type: 'context', data: { path: { text: path }, lines: { text }, line_number: n, absolute_offset: 0, submatches: [] } }) + '\n';
    const stdout =
      context('./a.txt', 'before\n', 1) + matchEvent('./a.txt', 'needle\n', 2, 0) + context('./a.txt', 'after\r\n', 3) + endEvent('./a.txt') +
      context('./b.txt', 'x\n', 0) + matchEvent('./b.txt', 'needle\n', 1, 0);
    const { result } = await search([[{ stdout }, { exit: 0 }]], { contextBefore: 1, contextAfter: 1 });
    expect(result.hits).toEqual([
      { path: 'a.txt', line: 2, column: 1, text: 'needle', before: [{ line: 1, text: 'before' }], after: [{ line: 3, text: 'after' }] },
      { path: 'b.txt', line: 1, column: 1, text: 'needle', before: [], after: [] },
    ]);
    expect(result).toMatchObject({ protocolErrors: 1, complete: false, incompleteReasons: ['io-error'] });
  });

  it('leaves regex checking to ripgrep when it alone runs (a Rust-only pattern reaches it)', async () => {
    const { fake } = await search([[{ exit: 1 }]], { mode: 'regex', query: '(?i)needle' });
    expect(fake.calls[0]!.argv.slice(-3)).toEqual(['--', '(?i)needle', '.']);
  });
});

describe('the JSON events', () => {
  it('turns match events into hits (sorted), ignores begin/context/end/summary/unknown, reads the counts', async () => {
    const unknown = JSON.stringify({ type: 'future-event', data: { anything: [1, 2] } }) + '\n';
    const { result, events } = await search([[{ stdout: unknown + TWO_FILES }, { exit: 0 }]]);
    expect(result).toEqual({
      hits: [
        { path: 'a.md', line: 1, column: 1, text: 'needle' },
        { path: 'src/b.ts', line: 3, column: 5, text: 'let needle;' },
        { path: 'src/b.ts', line: 9, column: 7, text: '// 中文 needle' },
      ],
      hitCount: 3,
      filesSearched: 2,
      binarySkipped: 0,
      // Nor the binary files it leaves without a hit: the count is a lower bound, and says so.
      binaryCounted: false,
      skipped: [],
      skippedCount: 0,
      symlinkSkipped: 0,
      // ripgrep cannot see links: none named, and said so.
      linksOnTheWay: [],
      linkOnTheWayCount: 0,
      linkMatches: [],
      linkMatchedCount: 0,
      specialMatches: [],
      specialMatchedCount: 0,
      linksExamined: false,
      excludedCount: 0,
      ignoredCount: 0,
      complete: true,
      incompleteReasons: [],
      truncated: false,
      protocolErrors: 0,
      stats: { dirsRead: 0, entriesSeen: 0, elapsedMs: expect.any(Number), bytesSearched: 1234 },
      backend: 'ripgrep',
      recovery: { selectionMode: 'explicit', retryTriggered: false },
    });
    expect(events).toEqual([]);
  });

  it('gives the same hits for stdout split at every byte, inside UTF-8 characters too', async () => {
    const bytes = Buffer.from(TWO_FILES, 'utf8');
    const whole = (await search([[{ stdout: bytes }, { exit: 0 }]])).result.hits;
    for (let at = 1; at < bytes.length; at += 1) {
      const { result } = await search([[{ stdout: bytes.subarray(0, at) }, { stdout: bytes.subarray(at) }, { exit: 0 }]]);
      expect(result.hits, `split at ${at}`).toEqual(whole);
      expect(result.complete).toBe(true);
    }
  });

  it('converts byte offsets to UTF-16 columns: after Chinese text, after emoji, in CRLF lines', async () => {
    const stdout =
      matchEvent('./c.txt', '中文中文 needle\n', 1, 13) + matchEvent('./c.txt', '😀😀needle\r\n', 2, 8) + matchEvent('./c.txt', 'é\tneedle', 3, 3);
    const { result } = await search([[{ stdout }, { exit: 0 }]]);
    expect(result.hits).toEqual([
      { path: 'c.txt', line: 1, column: 6, text: '中文中文 needle' },
      { path: 'c.txt', line: 2, column: 5, text: '😀😀needle' },
      { path: 'c.txt', line: 3, column: 3, text: 'é\tneedle' },
    ]);
  });

  it('decodes `bytes` (base64) line data instead of dropping it: invalid UTF-8 becomes U+FFFD', async () => {
    const line = Buffer.from([0x61, 0xff, 0xfe, 0x20, ...Buffer.from('needle\n')]);
    const { result } = await search([[{ stdout: matchEvent('./bad.txt', line, 4, 4) }, { exit: 0 }]]);
    expect(result.hits).toEqual([{ path: 'bad.txt', line: 4, column: 5, text: 'a\uFFFD\uFFFD needle' }]);
    expect(result.complete).toBe(true);
  });

  it('a multi-line match reports its start line and column, its first line\'s text, and its last line', async () => {
    const { result } = await search([[{ stdout: matchEvent('./m.txt', 'x 中\n文 y\n', 7, 2) }, { exit: 0 }]], { query: '中\n文' });
    expect(result.hits).toEqual([{ path: 'm.txt', line: 7, column: 3, text: 'x 中', endLine: 8 }]);
  });

  it('a path that is not valid UTF-8 is skipped as EILSEQ, at its first undecodable segment, never returned', async () => {
    const badFile = Buffer.from([...Buffer.from('./src/x'), 0xff, ...Buffer.from('.ts')]);
    const badDir = Buffer.from([...Buffer.from('./d'), 0xfe, ...Buffer.from('/ok.ts')]);
    const stdout = matchEvent(badFile, 'needle\n', 1, 0) + matchEvent(badFile, 'needle\n', 2, 0) + matchEvent(badDir, 'needle\n', 1, 0) + matchEvent('./real\uFFFD.ts', 'needle\n', 1, 0);
    const { result } = await search([[{ stdout }, { exit: 0 }]]);
    expect(result.hits).toEqual([{ path: 'real\uFFFD.ts', line: 1, column: 1, text: 'needle' }]);
    expect(result.skipped).toEqual([
      { path: 'src/x\uFFFD.ts', code: 'EILSEQ' },
      { path: 'd\uFFFD', code: 'EILSEQ' },
    ]);
    expect(result).toMatchObject({ complete: false, incompleteReasons: ['io-error'] });
  });

  it('counts binary files ripgrep stopped in (end.binary_offset), keeping their hits', async () => {
    const stdout = beginEvent('./x.bin') + matchEvent('./x.bin', 'needle\n', 1, 0) + endEvent('./x.bin', 70000) + endEvent('./other', null);
    const { result } = await search([[{ stdout }, { exit: 0 }]]);
    expect(result).toMatchObject({ binarySkipped: 1, hitCount: 1, complete: true });
  });

  it('counts a binary offset only for the file whose hits it ends: an end event for another path adds nothing', async () => {
    // Kills an end event for another path counting its binary offset: binarySkipped would name a file with no hit.
    const stdout = matchEvent('./a.txt', 'needle\n', 1, 0) + endEvent('./b.bin', 70000) + endEvent('./a.txt', null);
    const { result } = await search([[{ stdout }, { exit: 0 }]]);
    expect(result).toMatchObject({ binarySkipped: 0, hitCount: 1, complete: true });
  });

  it('filters hits through the walker\'s own matcher: ripgrep\'s globs only pre-filter', async () => {
    // `[ab].ts` cannot be said safely as a ripgrep glob: ripgrep searches everything, find-file filters.
    const stdout = matchEvent('./a.ts', 'needle\n', 1, 0) + matchEvent('./c.ts', 'needle\n', 1, 0) + matchEvent('./b.ts', 'needle\n', 1, 0) + matchEvent('./skip/b.ts', 'needle\n', 1, 0);
    const { result, fake } = await search([[{ stdout }, { exit: 0 }]], { pattern: '[ab].ts', exclude: ['skip/**'] });
    expect(fake.calls[0]!.argv).not.toContain('--glob=[ab].ts');
    expect(result.hits.map((h) => h.path)).toEqual(['a.ts', 'b.ts']);
    expect(result.excludedCount).toBe(1);
  });

  it('judges a file once for all its events, and again whenever the path changes: a left-out file keeps none of its hits', async () => {
    // Kills a shortcut for "same path as the last event" that returns the path whatever the verdict
    // was, or that is not reset when another file comes between two of a file's events.
    const events = (path: string, lines: number[]) => lines.map((line) => matchEvent(path, 'needle\n', line, 0)).join('');
    const stdout = events('./c.ts', [1, 2, 3]) + events('./a.ts', [1, 2]) + events('./c.ts', [7, 8]) + events('./b.ts', [4]) + events('./a.ts', [9]);
    const { result } = await search([[{ stdout }, { exit: 0 }]], { pattern: '[ab].ts' });
    expect(result.hits.map((h) => `${h.path}:${h.line}`)).toEqual(['a.ts:1', 'a.ts:2', 'a.ts:9', 'b.ts:4']);
    expect(result.excludedCount).toBe(0);
    expect(result.filesSearched).toBe(3);
  });
});

describe('a malformed line is a protocol failure: counted, incomplete, never "no matches"', () => {
  const good = matchEvent('./ok.txt', 'needle\n', 1, 0);
  const bad: [string, string][] = [
    ['not JSON', '{"type":"match",'],
    ['a JSON array', '[1,2]'],
    ['no type', '{"data":{}}'],
    ['a numeric type', '{"type":5}'],
    ['match without data', '{"type":"match"}'],
    ['path neither text nor bytes', '{"type":"match","data":{"path":{"x":1},"lines":{"text":"a"},"line_number":1,"submatches":[{"start":0,"end":1}]}}'],
    ['bytes not base64', '{"type":"match","data":{"path":{"bytes":"***"},"lines":{"text":"a"},"line_number":1,"submatches":[{"start":0,"end":1}]}}'],
    ['no lines', '{"type":"match","data":{"path":{"text":"./a"},"line_number":1,"submatches":[{"start":0,"end":1}]}}'],
    ['line_number 0', '{"type":"match","data":{"path":{"text":"./a"},"lines":{"text":"a"},"line_number":0,"submatches":[{"start":0,"end":1}]}}'],
    ['line_number null', '{"type":"match","data":{"path":{"text":"./a"},"lines":{"text":"a"},"line_number":null,"submatches":[{"start":0,"end":1}]}}'],
    // Kills line_number accepted without being an integer: a hit at line 1.5 names no line of the file.
    ['line_number not an integer', '{"type":"match","data":{"path":{"text":"./a"},"lines":{"text":"a"},"line_number":1.5,"submatches":[{"start":0,"end":1}]}}'],
    ['line_number past 2^53', '{"type":"match","data":{"path":{"text":"./a"},"lines":{"text":"a"},"line_number":9007199254740993,"submatches":[{"start":0,"end":1}]}}'],
    // An empty array is valid (a zero-width match, see below); no array at all is not.
    ['no submatches field', '{"type":"match","data":{"path":{"text":"./a"},"lines":{"text":"a"},"line_number":1}}'],
    ['submatches not an array', '{"type":"match","data":{"path":{"text":"./a"},"lines":{"text":"a"},"line_number":1,"submatches":{"start":0,"end":0}}}'],
    ['a null first submatch', '{"type":"match","data":{"path":{"text":"./a"},"lines":{"text":"a"},"line_number":1,"submatches":[null]}}'],
    ['start past the line', '{"type":"match","data":{"path":{"text":"./a"},"lines":{"text":"a"},"line_number":1,"submatches":[{"start":5,"end":6}]}}'],
    ['start inside a character', '{"type":"match","data":{"path":{"text":"./a"},"lines":{"text":"中"},"line_number":1,"submatches":[{"start":1,"end":2}]}}'],
    ['end before start', '{"type":"match","data":{"path":{"text":"./a"},"lines":{"text":"ab"},"line_number":1,"submatches":[{"start":1,"end":0}]}}'],
    ['a negative start', '{"type":"match","data":{"path":{"text":"./a"},"lines":{"text":"ab"},"line_number":1,"submatches":[{"start":-1,"end":0}]}}'],
    ['a path not under .', '{"type":"match","data":{"path":{"text":"/etc/a"},"lines":{"text":"a"},"line_number":1,"submatches":[{"start":0,"end":1}]}}'],
    ['end with a bad binary_offset', '{"type":"end","data":{"path":{"text":"./a"},"binary_offset":"x"}}'],
    ['summary without stats', '{"type":"summary","data":{}}'],
    ['an empty line', ''],
  ];

  it.each(bad)('%s', async (_name, line) => {
    const { result, events } = await search([[{ stdout: line + '\n' + good }, { exit: 0 }]]);
    expect(result).toMatchObject({
      hits: [{ path: 'ok.txt', line: 1, column: 1, text: 'needle' }],
      protocolErrors: 1,
      complete: false,
      incompleteReasons: ['io-error'],
      recovery: { failureKind: 'protocol' },
    });
    expect(events).toEqual([{ type: 'ripgrep-recovery', selectionMode: 'explicit', retryTriggered: false, failureKind: 'protocol' }]);
  });

  it('with no valid hit at all: hitCount 0 and incomplete, which no reader may take for absence', async () => {
    const { result } = await search([[{ stdout: 'garbage\n' }, { exit: 1 }]]);
    expect(result).toMatchObject({ hits: [], hitCount: 0, complete: false, protocolErrors: 1, recovery: { failureKind: 'protocol' } });
  });

  it('counts every bad line, and a real failure keeps its own kind', async () => {
    const { result } = await search([[{ stdout: 'x\ny\n' + good }, { stderr: 'rg: boom\n' }, { exit: 2 }]]);
    expect(result).toMatchObject({ protocolErrors: 2, hitCount: 1, recovery: { failureKind: 'exit' }, incompleteReasons: ['io-error'] });
  });
});

describe('a match event with no submatch (ripgrep 13, some zero-width matches) is a hit, its column found by our matcher', () => {
  /** What ripgrep 13 prints for ` *$` on `bar` with no final line break: a match, `submatches: []`. */
  const bare = (lines: string | { bytes: string }, lineNumber = 2) =>
    JSON.stringify({ type: 'match', data: { path: { text: './f.txt' }, lines: typeof lines === 'string' ? { text: lines } : lines, line_number: lineNumber, absolute_offset: 6, submatches: [] } }) + '\n';
  const hitOf = async (query: string, lines: string | { bytes: string }, options: Partial<ContentOptions> = {}) => {
    const { result } = await search([[{ stdout: matchEvent('./f.txt', 'foo  \n', 1, 3, 5) + bare(lines) + endEvent('./f.txt') + summaryEvent(9) }, { exit: 0 }]], { query, mode: 'regex', ...options });
    expect(result).toMatchObject({ hitCount: 2, protocolErrors: 0, complete: true, incompleteReasons: [] });
    expect(result.recovery?.failureKind).toBeUndefined();
    return result.hits[1]!;
  };

  it('kept, complete, with the column our line matcher finds (the zero-width match at the end, or where \\A is)', async () => {
    expect(await hitOf(' *$', 'bar')).toEqual({ path: 'f.txt', line: 2, column: 4, text: 'bar' });
    expect(await hitOf('\\s*$', 'ba  ')).toMatchObject({ column: 3, text: 'ba  ' });
    expect(await hitOf('\\A', '\ta.baa\n')).toMatchObject({ column: 1, text: '\ta.baa' });
    expect(await hitOf('(?i)B', 'abc\n')).toMatchObject({ column: 2 });
    // Columns count UTF-16 units of the decoded line, for `bytes` lines too.
    expect(await hitOf('$', '中😀')).toMatchObject({ column: 4, text: '中😀' });
    expect(await hitOf('$', { bytes: Buffer.from('a\xffb', 'latin1').toString('base64') })).toMatchObject({ column: 4, text: 'a\ufffdb' });
    // The matcher sees the `\r`, as the pure-TS path's does: `$` is after it.
    expect(await hitOf('$', 'b\r')).toMatchObject({ column: 3, text: 'b' });
    // A multi-line query is matched over the event's lines, as the pure-TS path matches the file.
    expect(await hitOf('x\n*$', 'ax\nb\n')).toMatchObject({ column: 2, text: 'ax', endLine: 3 });
  });

  it('where our matcher finds nothing on the line, the column of a zero-width match at its end: never a dropped hit', async () => {
    expect(await hitOf('zzz$', 'bar')).toMatchObject({ line: 2, column: 4, text: 'bar' });
    expect(await hitOf('x\nb', 'a\nb\n')).toMatchObject({ column: 2, text: 'a', endLine: 3 });
    // RE2 does not compile `(?u)` (ripgrep does, and only ripgrep runs): no matcher at all.
    expect(await hitOf('(?u)$', 'bar\r')).toMatchObject({ column: 5, text: 'bar' });
  });
});

describe('exit statuses (shared with file listing)', () => {
  it('exit 1 with blank stderr: complete, no hits: absence proven', async () => {
    const { result, events } = await search([[{ stdout: summaryEvent(0) }, { exit: 1 }]]);
    expect(result).toMatchObject({ hits: [], complete: true, incompleteReasons: [], protocolErrors: 0 });
    expect(events).toEqual([]);
  });

  it('exit 1 with stderr: a failure, never "no matches"', async () => {
    const { result, events } = await search([[{ stderr: 'rg: something broke\n' }, { exit: 1 }]]);
    expect(result).toMatchObject({ hits: [], complete: false, incompleteReasons: ['io-error'], recovery: { failureKind: 'exit' } });
    expect(events).toHaveLength(1);
  });

  it('exit 2 with path errors: the files and directories the walker would have searched become skipped entries', async () => {
    const stderr = './src/locked.ts: Permission denied (os error 13)\n./priv: Permission denied (os error 13)\n./lib/gone.md: No such file or directory (os error 2)\n';
    const { result } = await search([[{ stdout: matchEvent('./src/ok.ts', 'needle\n', 1, 0) }, { stderr }, { exit: 2 }]], { pattern: ['src/**', 'priv/**'] });
    expect(result.hits.map((h) => h.path)).toEqual(['src/ok.ts']);
    expect(result.skipped).toEqual([
      { path: 'src/locked.ts', code: 'EACCES' },
      { path: 'priv', code: 'EACCES' },
    ]);
    expect(result).toMatchObject({ complete: false, incompleteReasons: ['permission-denied'] });
    expect(result.recovery).not.toHaveProperty('failureKind');
  });

  it('a denied file whose name matches only in another reading of its bytes is kept (the walker would have tried it)', async () => {
    // `f_\xc2\x80\x80` prints as `f_\u0080\uFFFD`: two characters decoded, three bytes to bash's `f_???`;
    // `g_\uFFFD` matches in no reading.
    const stderr = './good/f_\u0080\uFFFD: Permission denied (os error 13)\n./good/g_\uFFFD: Permission denied (os error 13)\n';
    const { result } = await search([[{ stderr }, { exit: 2 }]], { pattern: 'good/f_???' });
    expect(result.skipped).toEqual([{ path: 'good/f_\u0080\uFFFD', code: 'EACCES' }]);
    expect(result).toMatchObject({ complete: false, incompleteReasons: ['permission-denied'] });
  });

  it('a denied directory ripgrep prints with U+FFFD is kept even where the decoded name is a readable twin that is no directory', async () => {
    // `d\xff` (denied, holding x.txt) prints as `d\uFFFD`; a real file named `d\uFFFD` beside it must
    // not be taken for the path ripgrep meant (adversary L: the lstat found the file and dropped the gap).
    const twin = join(root, 'd\uFFFD');
    writeFileSync(twin, 'z');
    try {
      const stderr = './d\uFFFD: Permission denied (os error 13)\n';
      const { result } = await search([[{ stderr }, { exit: 2 }]], { pattern: '*.txt' });
      expect(result.skipped).toEqual([{ path: 'd\uFFFD', code: 'EACCES' }]);
      expect(result).toMatchObject({ complete: false, incompleteReasons: ['permission-denied'] });
    } finally {
      rmSync(twin);
    }
  });

  it('killed by a signal we did not send, or a spawn failure: failures, hits kept', async () => {
    const killed = await search([[{ stdout: matchEvent('./a', 'needle\n', 1, 0) }, { exit: null, signal: 'SIGSEGV' }]]);
    expect(killed.result).toMatchObject({ hitCount: 1, complete: false, recovery: { failureKind: 'exit' } });
    const spawn = await search([[{ error: 'EACCES' }]]);
    expect(spawn.result).toMatchObject({ hitCount: 0, complete: false, incompleteReasons: ['io-error'], recovery: { failureKind: 'spawn' } });
  });

  it('EAGAIN: one retry with --threads 1; a hit the first run already gave is not given twice', async () => {
    // The first run is cut inside a.txt: its hits at lines 1 and 3 were given, the one at 5 was not.
    const given = matchEvent('./a.txt', 'needle\n', 1, 0) + matchEvent('./a.txt', 'needle\n', 3, 0);
    const rest = matchEvent('./a.txt', 'needle\n', 5, 0) + matchEvent('./b.txt', 'needle\n', 2, 0);
    const { result, fake, events } = await search([
      [{ stdout: given }, { stderr: EAGAIN_PANIC }, { exit: 101 }],
      [{ stdout: given + rest }, { exit: 0 }],
    ]);
    expect(fake.calls.map((c) => c.argv[c.argv.indexOf('--threads') + 1])).toEqual([THREADS, '1']);
    expect(result.hits.map((h) => `${h.path}:${h.line}`)).toEqual(['a.txt:1', 'a.txt:3', 'a.txt:5', 'b.txt:2']);
    expect(result).toMatchObject({ hitCount: 4, complete: true, recovery: { retryTriggered: true, retrySucceeded: true } });
    expect(events).toEqual([{ type: 'ripgrep-recovery', selectionMode: 'explicit', retryTriggered: true, retrySucceeded: true }]);
  });

  it('EAGAIN after hits in several files: none of them is given twice, whichever file the cut was in', async () => {
    const given = matchEvent('./a.txt', 'needle\n', 1, 0) + matchEvent('./a.txt', 'needle\n', 2, 0) + matchEvent('./b.txt', 'needle\n', 4, 0);
    const rest = matchEvent('./b.txt', 'needle\n', 6, 0) + matchEvent('./c.txt', 'needle\n', 1, 0);
    const { result } = await search([
      [{ stdout: given }, { stderr: EAGAIN_PANIC }, { exit: 101 }],
      [{ stdout: given + rest }, { exit: 0 }],
    ]);
    expect(result.hits.map((h) => `${h.path}:${h.line}`)).toEqual(['a.txt:1', 'a.txt:2', 'b.txt:4', 'b.txt:6', 'c.txt:1']);
    expect(result).toMatchObject({ hitCount: 5, complete: true });
  });
});

describe('budgets in the stream kill the child', () => {
  const many = Array.from({ length: 10 }, (_, i) => matchEvent('./f.txt', `needle ${i}\n`, i + 1, 0)).join('');

  it('at maxResults + 1 hits: result-limit; exactly maxResults is complete', async () => {
    const cut = await search([[{ stdout: many }, { hang: true }]], { maxResults: 3 });
    expect(cut.fake.calls[0]!.killed).toBe(true);
    expect(cut.result).toMatchObject({ hitCount: 3, complete: false, incompleteReasons: ['result-limit'], truncated: false });
    expect(cut.result.recovery).not.toHaveProperty('failureKind');
    const exact = await search([[{ stdout: many }, { exit: 0 }]], { maxResults: 10 });
    expect(exact.result).toMatchObject({ hitCount: 10, complete: true });
  });

  it('at maxOutputBytes: output-limit and truncated, the child killed', async () => {
    const perHit = Buffer.byteLength('f.txt') + Buffer.byteLength('needle 0');
    const { result, fake } = await search([[{ stdout: many }, { hang: true }]], { maxOutputBytes: 4 * perHit + 3 });
    expect(fake.calls[0]!.killed).toBe(true);
    expect(result).toMatchObject({ hitCount: 4, complete: false, incompleteReason: 'output-limit', incompleteReasons: ['output-limit'], truncated: true });
    expect(result.recovery).not.toHaveProperty('failureKind');
  });

  it('maxLineChars: a display cut only, complete', async () => {
    const { result } = await search([[{ stdout: many }, { exit: 0 }]], { maxLineChars: 4 });
    expect(result.hits[0]).toEqual({ path: 'f.txt', line: 1, column: 1, text: 'need', textTruncated: true });
    expect(result).toMatchObject({ complete: true, truncated: true });
  });

  it('the time budget: timeout (a failure), time-budget, hits kept', async () => {
    const clock = new FakeClock();
    const { result, fake } = await search([[{ stdout: many.slice(0, many.length / 2) }, { run: () => clock.advance(100) }, { stdout: many }, { hang: true }]], {
      clock,
      timeBudgetMs: 50,
    });
    expect(fake.calls[0]!.killed).toBe(true);
    expect(result.hitCount).toBeGreaterThan(0);
    expect(result).toMatchObject({ complete: false, incompleteReasons: ['time-budget'], recovery: { failureKind: 'timeout' } });
  });

  it('the caller\'s abort: aborted, not a failure, never retried', async () => {
    const controller = new AbortController();
    const { result, fake, events } = await search([[{ stdout: many }, { run: () => controller.abort() }, { hang: true }]], { signal: controller.signal });
    expect(fake.calls).toHaveLength(1);
    expect(fake.calls[0]!.killed).toBe(true);
    expect(result).toMatchObject({ hitCount: 10, complete: false, incompleteReasons: ['aborted'] });
    expect(result.recovery).not.toHaveProperty('failureKind');
    expect(events).toEqual([]);
  });

  it('an event past the record cap: max_buffer, hits before it kept', async () => {
    const fake = new FakeRipgrep([{ stdout: many }, { stdout: matchEvent('./big', 'needle' + 'x'.repeat(5000) + '\n', 1, 0) }, { hang: true }]);
    const plan = buildContentPlan({ root, query: 'needle', backend: 'ripgrep', rgPath });
    const hits: ContentHit[] = [];
    const summary = await searchWithRipgrep(
      plan,
      { rg: { path: rgPath, selectionMode: 'explicit' }, runner: fake.runner, deadline: new Deadline(plan.limits.clock, plan.limits.timeBudgetMs), maxRecordBytes: 1000 },
      new HitCollector(plan.query.hits, (h) => hits.push(h)),
    );
    expect(fake.calls[0]!.killed).toBe(true);
    expect(hits).toHaveLength(10);
    expect(summary).toMatchObject({ complete: false, incompleteReasons: ['io-error'], recovery: { failureKind: 'max_buffer' } });
  });
});

describe('auto', () => {
  it('falls back to the walker when ripgrep fails without a hit, and says why', async () => {
    for (const script of [[{ error: 'ENOENT' }], [{ stdout: 'garbage\n' }, { exit: 0 }], [{ stderr: 'rg: boom\n' }, { exit: 2 }]] as Step[][]) {
      const { result, events } = await search([script], { backend: 'auto' });
      expect(result.hits).toEqual([{ path: 'src/a.ts', line: 1, column: 7, text: 'const needle = 1;' }]);
      expect(result).toMatchObject({ backend: 'walker', complete: true });
      expect(['spawn', 'protocol', 'exit']).toContain(result.fallbackReason);
      expect(result.recovery?.failureKind).toBe(result.fallbackReason);
      expect(events).toHaveLength(1);
    }
  });

  it('a walker fallback cut short keeps the gaps ripgrep had met (src/backend.ts keepFound)', async () => {
    const clock = new FakeClock();
    const script: Step[] = [{ stderr: 'rg: ./src: Permission denied (os error 13)\nrg: boom\n' }, { run: () => clock.advance(10) }, { exit: 2 }];
    const { result } = await search([script], { backend: 'auto', clock, timeBudgetMs: 10 });
    expect(result).toMatchObject({ backend: 'walker', fallbackReason: 'exit', hitCount: 0, complete: false, incompleteReasons: ['time-budget', 'permission-denied'], skipped: [{ path: 'src', code: 'EACCES' }], skippedCount: 1 });
  });

  it('keeps a complete, empty ripgrep answer: the links recheck is for file listing only', async () => {
    const { result, fake } = await search([[{ exit: 1 }]], { backend: 'auto', query: 'absent' });
    expect(fake.calls).toHaveLength(1);
    expect(result).toMatchObject({ backend: 'ripgrep', hitCount: 0, complete: true });
    expect(result).not.toHaveProperty('fallbackReason');
  });

  it('keeps ripgrep\'s hits when it failed after finding some, marked incomplete', async () => {
    const { result } = await search([[{ stdout: matchEvent('./x.ts', 'needle\n', 1, 0) }, { stderr: 'rg: boom\n' }, { exit: 2 }]], { backend: 'auto' });
    expect(result).toMatchObject({ backend: 'ripgrep', hitCount: 1, complete: false });
    expect(result).not.toHaveProperty('fallbackReason');
  });

  it('runs the walker for a depth limit ripgrep could not prove, and for an injected fs', async () => {
    const fake = new FakeRipgrep();
    const deep = await searchContent({ root, query: 'needle', backend: 'auto', rgPath, runner: fake.runner, maxDepth: 1 });
    expect(deep).toMatchObject({ backend: 'walker', fallbackReason: 'max-depth', hits: [], complete: false, incompleteReasons: ['depth-limit'] });
    const injected = await searchContent({ root: '/root', query: 'needle', backend: 'auto', rgPath, runner: fake.runner, fs: buildVolume({ 'x.txt': 'needle\n' }), platform: 'posix' });
    expect(injected).toMatchObject({ backend: 'walker', fallbackReason: 'fs-injected', hitCount: 1, complete: true });
    expect(fake.calls).toHaveLength(0);
  });

  it('without an executable: auto runs the walker (rg-not-found), a forced ripgrep rejects', async () => {
    const missing = join(root, 'no-such-rg');
    const auto = await searchContent({ root, query: 'needle', backend: 'auto', rgPath: missing });
    expect(auto).toMatchObject({ backend: 'walker', fallbackReason: 'rg-not-found', hitCount: 1, complete: true });
    await expect(searchContent({ root, query: 'needle', backend: 'ripgrep', rgPath: missing })).rejects.toMatchObject({ code: 'FF_RG_NOT_FOUND' });
  });

  it('a forced ripgrep with a depth limit says depth-limit (it cannot peek past it)', async () => {
    const { result } = await search([[{ exit: 1 }]], { maxDepth: 3 });
    expect(result).toMatchObject({ complete: false, incompleteReasons: ['depth-limit'] });
  });
});

describe('the stream over ripgrep', () => {
  it('yields hits as ripgrep prints them, then the summary', async () => {
    const fake = new FakeRipgrep([{ stdout: TWO_FILES }, { exit: 0 }]);
    const stream = searchContentStream({ root, query: 'needle', backend: 'ripgrep', rgPath, runner: fake.runner });
    const hits: ContentHit[] = [];
    for await (const hit of stream) hits.push(hit);
    expect(hits.map((h) => `${h.path}:${h.line}`)).toEqual(['src/b.ts:3', 'src/b.ts:9', 'a.md:1']);
    expect(await stream.summary).toMatchObject({ hitCount: 3, complete: true, backend: 'ripgrep' });
  });

  it('breaking out kills ripgrep; the summary says aborted', async () => {
    const fake = new FakeRipgrep([{ stdout: TWO_FILES }, { hang: true }]);
    const stream = searchContentStream({ root, query: 'needle', backend: 'ripgrep', rgPath, runner: fake.runner });
    for await (const _hit of stream) break;
    expect(await stream.summary).toMatchObject({ complete: false, incompleteReasons: ['aborted'] });
    expect(fake.calls[0]!.killed).toBe(true);
  });

  it('a reader that leaves after the first hit: one hit returned, its file the partial one (not the last file ripgrep printed)', async () => {
    const fake = new FakeRipgrep([{ stdout: TWO_FILES }, { hang: true }]);
    const stream = searchContentStream({ root, query: 'needle', backend: 'ripgrep', rgPath, runner: fake.runner });
    for await (const _hit of stream) break;
    expect(await stream.summary).toMatchObject({ hitCount: 1, partialFile: 'src/b.ts', incompleteReasons: ['aborted'] });
  });
});
