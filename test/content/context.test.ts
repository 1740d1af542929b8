/**
 * Context lines (`contextBefore`, `contextAfter`) on memfs with the fake clock: which lines each hit
 * gets (ripgrep's rules: a line is shown once, a matching line is always a hit), where windows
 * overlap, meet a file's start or end, span read chunks and follow a match that spans lines, and
 * how they meet the limits. context-oracle.test.ts checks the same rules against the real `rg`.
 */
import { describe, expect, it } from 'vitest';
import { FindFileError, searchContent, searchContentStream, type ContentHit, type ContentOptions, type ContentResult } from '../../src/index.js';
import { READ_CHUNK_BYTES } from '../../src/content/scanner.js';
import { FakeClock, buildVolume, type Tree } from '../helpers/memfs.js';

const ONE = 'a\nfoo 1\nb\nc\nd\nfoo 2\nfoo 3\ne\nf\ng\nh\nfoo 4\n';

function search(tree: Tree, options: Partial<ContentOptions>): Promise<ContentResult> {
  return searchContent({ root: '/root', query: 'foo', fs: buildVolume(tree), platform: 'posix', clock: new FakeClock(), ...options });
}

const line = (n: number, text: string) => ({ line: n, text });

describe('the lines each hit gets', () => {
  it('before and after, each line once: a window cut by the hit before, a hit inside a window stays a hit', async () => {
    const { hits } = await search({ 'one.txt': ONE }, { contextBefore: 1, contextAfter: 2 });
    expect(hits).toEqual([
      { path: 'one.txt', line: 2, column: 1, text: 'foo 1', before: [line(1, 'a')], after: [line(3, 'b'), line(4, 'c')] },
      // Line 5 is the only line before 6 not yet shown; 7 is a hit, so 6 has no after-context.
      { path: 'one.txt', line: 6, column: 1, text: 'foo 2', before: [line(5, 'd')], after: [] },
      { path: 'one.txt', line: 7, column: 1, text: 'foo 3', before: [], after: [line(8, 'e'), line(9, 'f')] },
      { path: 'one.txt', line: 12, column: 1, text: 'foo 4', before: [line(11, 'h')], after: [] },
    ]);
  });

  it('an after-context that reaches the next hit\'s before-context is not repeated there', async () => {
    const { hits } = await search({ 'one.txt': 'foo\nx\ny\nfoo\n' }, { contextBefore: 3, contextAfter: 1 });
    expect(hits.map((h) => [h.line, h.before, h.after])).toEqual([
      [1, [], [line(2, 'x')]],
      [4, [line(3, 'y')], []],
    ]);
  });

  it('only what is asked: no `before` without contextBefore, no `after` without contextAfter', async () => {
    const [onlyAfter] = (await search({ 'one.txt': ONE }, { contextAfter: 1 })).hits;
    expect(onlyAfter).toEqual({ path: 'one.txt', line: 2, column: 1, text: 'foo 1', after: [line(3, 'b')] });
    const [onlyBefore] = (await search({ 'one.txt': ONE }, { contextBefore: 1 })).hits;
    expect(onlyBefore).toEqual({ path: 'one.txt', line: 2, column: 1, text: 'foo 1', before: [line(1, 'a')] });
    const [none] = (await search({ 'one.txt': ONE }, { contextBefore: 0, contextAfter: 0 })).hits;
    expect(none).toEqual({ path: 'one.txt', line: 2, column: 1, text: 'foo 1' });
  });

  it('a file\'s start and end give fewer lines; context never crosses into another file', async () => {
    const { hits } = await search({ 'a.txt': 'foo\nend of a\n', 'b.txt': 'start of b\nfoo' }, { contextBefore: 5, contextAfter: 5 });
    expect(hits).toEqual([
      { path: 'a.txt', line: 1, column: 1, text: 'foo', before: [], after: [line(2, 'end of a')] },
      { path: 'b.txt', line: 2, column: 1, text: 'foo', before: [line(1, 'start of b')], after: [] },
    ]);
  });

  it('CRLF lines lose their \\r as hits do; an empty line is a line', async () => {
    const { hits } = await search({ 'w.txt': 'x\r\n\r\nfoo\r\ny\r\n' }, { contextBefore: 2, contextAfter: 1 });
    expect(hits).toEqual([{ path: 'w.txt', line: 3, column: 1, text: 'foo', before: [line(1, 'x'), line(2, '')], after: [line(4, 'y')] }]);
  });

  it('windows that span read chunks: lines before and after a hit past the first 64 KiB', async () => {
    const lines = Array.from({ length: 20_000 }, (_, i) => `line ${i + 1}`);
    lines[14_999] = 'foo here';
    const text = lines.join('\n') + '\n';
    expect(Buffer.byteLength(text)).toBeGreaterThan(2 * READ_CHUNK_BYTES);
    const { hits } = await search({ 'big.txt': text }, { contextBefore: 3, contextAfter: 3 });
    expect(hits).toEqual([
      {
        path: 'big.txt', line: 15_000, column: 1, text: 'foo here',
        before: [line(14_997, 'line 14997'), line(14_998, 'line 14998'), line(14_999, 'line 14999')],
        after: [line(15_001, 'line 15001'), line(15_002, 'line 15002'), line(15_003, 'line 15003')],
      },
    ]);
  });

  it('a regex gets the same context as a literal', async () => {
    const literal = await search({ 'one.txt': ONE }, { contextBefore: 2, contextAfter: 2 });
    const regex = await search({ 'one.txt': ONE }, { query: 'fo+ \\d', mode: 'regex', contextBefore: 2, contextAfter: 2 });
    expect(regex.hits).toEqual(literal.hits.map((h) => ({ ...h })));
  });
});

describe('a match that spans lines', () => {
  const TEXT = 'l1\nl2\nstart\nmid\nend\nl6\nl7\nstart\nend\n';

  it('reports its last line; its after-context starts after it, and its middle lines are never context', async () => {
    const { hits } = await search({ 'm.txt': TEXT }, { query: 'start\\n(mid\\n)?end', mode: 'regex', contextBefore: 2, contextAfter: 1 });
    expect(hits).toEqual([
      { path: 'm.txt', line: 3, column: 1, text: 'start', endLine: 5, before: [line(1, 'l1'), line(2, 'l2')], after: [line(6, 'l6')] },
      { path: 'm.txt', line: 8, column: 1, text: 'start', endLine: 9, before: [line(7, 'l7')], after: [] },
    ]);
  });

  it('a multi-line literal: endLine without context too', async () => {
    const { hits } = await search({ 'm.txt': TEXT }, { query: 'start\nmid' });
    expect(hits).toEqual([{ path: 'm.txt', line: 3, column: 1, text: 'start', endLine: 4 }]);
  });
});

describe('context and the limits', () => {
  it('maxResults counts hits only; the last hit keeps the lines read before the one more that stopped the search', async () => {
    const result = await search({ 'one.txt': ONE }, { maxResults: 1, contextAfter: 3 });
    expect(result.hits).toEqual([{ path: 'one.txt', line: 2, column: 1, text: 'foo 1', after: [line(3, 'b'), line(4, 'c'), line(5, 'd')] }]);
    expect(result).toMatchObject({ hitCount: 1, complete: false, incompleteReason: 'result-limit', truncated: false });
  });

  it('maxOutputBytes counts context lines: the one that would pass it is dropped, the hit kept, the search stopped', async () => {
    // 'one.txt' + 'foo 1' = 12 bytes; each context line 1 byte: room for two of three.
    const result = await search({ 'one.txt': ONE }, { contextAfter: 3, maxOutputBytes: 14 });
    expect(result.hits).toEqual([{ path: 'one.txt', line: 2, column: 1, text: 'foo 1', after: [line(3, 'b'), line(4, 'c')] }]);
    expect(result).toMatchObject({ hitCount: 1, complete: false, incompleteReason: 'output-limit', truncated: true });
  });

  it('a hit whose before-context would pass maxOutputBytes is dropped with it', async () => {
    const result = await search({ 'one.txt': 'long line before\nfoo\n' }, { contextBefore: 1, maxOutputBytes: 20 });
    expect(result.hits).toEqual([]);
    expect(result).toMatchObject({ hitCount: 0, complete: false, incompleteReason: 'output-limit', truncated: true });
  });

  it('maxLineChars cuts context lines as it cuts hits, and says so', async () => {
    const result = await search({ 'one.txt': 'abcdefgh\nfoo\n' }, { contextBefore: 1, maxLineChars: 4 });
    expect(result.hits).toEqual([{ path: 'one.txt', line: 2, column: 1, text: 'foo', before: [{ line: 1, text: 'abcd', textTruncated: true }] }]);
    expect(result).toMatchObject({ complete: true, truncated: true });
  });

  it('a context line that is never shown is never a cut: no `truncated` for a long line far from any hit', async () => {
    const result = await search({ 'one.txt': 'x'.repeat(50) + '\na\nb\nfoo\n' }, { contextBefore: 1, maxLineChars: 10 });
    expect(result).toMatchObject({ complete: true, truncated: false });
  });

  it('the time budget still stops a search with context, and the hits found keep their context', async () => {
    const clock = new FakeClock();
    const tree: Tree = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`f${String(i).padStart(2, '0')}.txt`, 'x\nfoo\ny\n']));
    const fs = buildVolume(tree);
    let reads = 0;
    const timed = new Proxy(fs, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver);
        if (prop !== 'read' || typeof value !== 'function') return typeof value === 'function' ? value.bind(target) : value;
        return (...args: unknown[]) => {
          if (++reads === 10) clock.advance(1_000);
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
    const result = await searchContent({ root: '/root', query: 'foo', fs: timed, platform: 'posix', clock, timeBudgetMs: 100, contextBefore: 1, contextAfter: 1 });
    expect(result).toMatchObject({ complete: false, incompleteReason: 'time-budget' });
    expect(result.hits.length).toBeGreaterThan(0);
    expect(result.hits.length).toBeLessThan(50);
    for (const hit of result.hits) expect([hit.before, hit.after]).toEqual([[line(1, 'x')], [line(3, 'y')]]);
  });
});

describe('the options and the stream', () => {
  it.each([[-1], [1.5], ['2'], [Infinity], [null]])('contextBefore and contextAfter must be counts: %s is refused before any I/O', async (value) => {
    for (const option of ['contextBefore', 'contextAfter']) {
      const error = await search({}, { [option]: value }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(FindFileError);
      expect(error).toMatchObject({ code: 'FF_INVALID_LIMIT', option });
      expect((error as Error).message).toContain(`${option} must be a non-negative integer`);
    }
  });

  it('the stream hands each hit on with its context complete, the same hits as the promise form', async () => {
    const tree: Tree = { 'one.txt': ONE, 'two.txt': 'foo\nlast' };
    const options = { root: '/root', query: 'foo', fs: buildVolume(tree), platform: 'posix' as const, contextBefore: 1, contextAfter: 2 };
    const streamed: ContentHit[] = [];
    const stream = searchContentStream(options);
    for await (const hit of stream) streamed.push(structuredClone(hit));
    expect((await stream.summary).complete).toBe(true);
    const whole = await searchContent({ ...options, fs: buildVolume(tree) });
    expect(streamed.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line))).toEqual(whole.hits);
    expect(whole.hits.at(-1)).toEqual({ path: 'two.txt', line: 1, column: 1, text: 'foo', before: [], after: [line(2, 'last')] });
  });
});
