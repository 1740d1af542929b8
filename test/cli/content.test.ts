/**
 * `--contains` against a stand-in for the library's content search (src/content/search.ts), so the
 * printing, the summary and the status are checked on a result of the contract's shape.
 * test/cli/contains.test.ts runs the real binary on a real tree.
 */
import { sep } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ContentOptions, ContentResult } from '../../src/content/types.js';

const calls: ContentOptions[] = [];
let answer: ContentResult;

vi.mock('../../src/content/search.js', () => ({
  searchContent: async (options: ContentOptions) => {
    calls.push(options);
    return answer;
  },
  searchContentStream: (options: ContentOptions) => {
    calls.push(options);
    const { hits, ...summary } = answer;
    return {
      summary: Promise.resolve(summary),
      async *batches() {
        yield hits;
      },
      async *[Symbol.asyncIterator]() {
        yield* hits;
      },
    };
  },
}));

const { runSearch } = await import('../../src/cli/run.js');

/** A result of the contract's shape. Cast: the contract is still growing fields this test does not read. */
function resultOf(overrides: Partial<ContentResult>): ContentResult {
  return ({
    hits: [
      { path: 'src/a.ts', line: 3, column: 4, text: '// TODO: split' },
      { path: 'docs/b.md', line: 10, column: 1, text: 'TODO list' },
    ],
    hitCount: 2,
    filesSearched: 5,
    binarySkipped: 0,
    skipped: [],
    skippedCount: 0,
    symlinkSkipped: 0,
    excludedCount: 0,
    complete: true,
    incompleteReasons: [],
    truncated: false,
    stats: { dirsRead: 3, entriesSeen: 9, elapsedMs: 1, bytesSearched: 100 },
    backend: 'walker',
    ...overrides,
  }) as ContentResult;
}

let stdout = '';
let stderr = '';

beforeEach(() => {
  calls.length = 0;
  stdout = '';
  stderr = '';
  answer = resultOf({});
  const capture = (append: (text: string) => void) =>
    ((chunk: string, callback?: () => void) => {
      append(String(chunk));
      callback?.();
      return true;
    }) as unknown as typeof process.stdout.write;
  vi.spyOn(process.stdout, 'write').mockImplementation(capture((text) => (stdout += text)));
  vi.spyOn(process.stderr, 'write').mockImplementation(capture((text) => (stderr += text)));
});

afterEach(() => vi.restoreAllMocks());

/** A content request as src/cli/args.ts builds it (its tests check the mapping from the command line). */
function request(options: Omit<ContentOptions, 'query'>, output: 'human' | 'json' | 'ndjson', strict = false) {
  return { kind: 'content', options: { ...options, query: 'TODO' }, output, strict, quiet: false, absolute: false, filesWithMatches: false, count: false } as const;
}

describe('--contains through searchContent', () => {
  it('passes the search options and the query, without --absolute (hits are root-relative)', async () => {
    const options = { root: '/proj', pattern: ['*.ts', '*.md'], maxResults: 10, query: 'TODO' };
    await runSearch({ kind: 'content', options, output: 'json', strict: false, quiet: false, absolute: true, filesWithMatches: false, count: false });
    expect(calls).toHaveLength(1);
    const { signal, ...rest } = calls[0]!;
    expect(rest).toEqual({ root: '/proj', pattern: ['*.ts', '*.md'], maxResults: 10, query: 'TODO' });
    expect(signal).toBeInstanceOf(AbortSignal);
  });

  it('prints hits as path:line:column: text and the summary, status 0', async () => {
    const status = await runSearch(request({ root: '.', pattern: '*' }, 'human'));
    expect(status).toBe(0);
    const native = (rel: string) => rel.split('/').join(sep);
    expect(stdout).toBe(`${native('src/a.ts')}:3:4: // TODO: split\n${native('docs/b.md')}:10:1: TODO list\n`);
    // "every text file" when ripgrep answered (auto, where it is installed): it leaves binary files without a word.
    expect(stderr).toMatch(/^find-file: 2 hits under .*: complete, every (text )?file was searched\n$/);
  });

  it('prints the result as one JSON object, and hit lines then a summary line as NDJSON', async () => {
    await runSearch(request({ root: '.', pattern: '*' }, 'json'));
    expect(JSON.parse(stdout)).toEqual(answer);
    stdout = '';
    await runSearch(request({ root: '.', pattern: '*' }, 'ndjson'));
    const events = stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(events.map((e) => e.type)).toEqual(['hit', 'hit', 'summary']);
    expect(events[0]).toEqual({ type: 'hit', path: 'src/a.ts', line: 3, column: 4, text: '// TODO: split' });
    expect(events[2]).toMatchObject({ hitCount: 2, complete: true });
  });

  it('says an incomplete content search proves nothing, and --strict exits 3', async () => {
    answer = resultOf({ hits: [], hitCount: 0, complete: false, incompleteReason: 'time-budget', incompleteReasons: ['time-budget'] });
    const status = await runSearch(request({ root: '.', pattern: '*', timeBudgetMs: 5 }, 'human', true));
    expect(status).toBe(3);
    expect(stdout).toBe('');
    expect(stderr.split('\n')[0]).toMatch(/^find-file: INCOMPLETE search under .+: no hits in the part searched, NOT proof of absence$/);
    expect(stderr).toContain('why: time-budget: the 5 ms budget');
  });
});
