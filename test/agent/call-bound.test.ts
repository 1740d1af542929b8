/**
 * A tool call's reads outside its search are bounded as the search is (src/agent/bound.ts): the
 * help after an empty answer (found by an MCP test made event-based: a readdir of the root, of a
 * pattern's literal folders, lstats), the `path` resolved segment by segment, and the page's sizes
 * for `sort: 'relevance'` (an adversary's finds). Each waited for a read that hung, and held the
 * call past its budget and its signal for as long as the read hung. Families: reads that hang x
 * glob and grep x the calls that make them x a budget or a signal. The verdict is the answer
 * itself (no clock): before, none came (the test's timeout).
 */
import { describe, it } from 'vitest';
import { globTool, grepTool, type ToolContext } from '../../src/agent/index.js';
import type { FsLike } from '../../src/fs.js';
import { asFs, buildVolume } from '../helpers/memfs.js';

/** memfs whose directory reads, stats and opens never answer (a hung mount); `onCall` runs at each. */
function hungFs(onCall: () => void = () => {}): FsLike {
  const base = asFs(buildVolume({ src: { 'a.ts': 'x' } }, '/w'));
  const hang = () => onCall();
  return { ...base, readdir: hang, lstat: hang, stat: hang, open: hang } as unknown as FsLike;
}

const PATTERNS = ['missing.txt', 'nowhere/x.ts', 'src/b.ts', '**/*.zz'];
const TOOLS = [
  ['glob', (pattern: string, ctx: ToolContext) => globTool({ pattern }, ctx)],
  ['grep', (pattern: string, ctx: ToolContext) => grepTool({ query: 'needle', include: pattern }, ctx)],
] as const;

// Side by side (concurrent): each waits out its 50 ms budget and the call's grace, ~250 ms, one after another 4 s.
describe('guidance after an empty answer from a root whose reads hang', { concurrent: true }, () => {
  for (const [tool, call] of TOOLS) {
    for (const pattern of PATTERNS) {
      it(`${tool} ${pattern}, a 50 ms budget: answers, incomplete, with no guidance read`, async ({ expect }) => {
        const result = await call(pattern, { root: '/w', fs: hungFs(), platform: 'posix', timeBudgetMs: 50 });
        expect(result.isError).toBe(false);
        expect(result.metadata).toMatchObject({ complete: false, returned: 0 });
      });

      it(`${tool} ${pattern}, a signal aborted at the first read, no budget: answers, with no guidance read`, async ({ expect }) => {
        const controller = new AbortController();
        // Aborted at the search's first read (an event, not a timer), which never answers.
        const result = await call(pattern, { root: '/w', platform: 'posix', signal: controller.signal, fs: hungFs(() => controller.abort()) });
        expect(result.isError).toBe(false);
        expect(result.metadata).toMatchObject({ complete: false, returned: 0 });
      });
    }
  }
});

/**
 * The call's other reads outside its search, bounded the same way (src/agent/bound.ts; an
 * adversary's finds): the `path` resolved segment by segment (an lstat each) and the page's sizes
 * for `sort: 'relevance'` (an lstat per file) waited for an lstat that hung, with no end.
 */
function hungLstatFs(onCall: () => void = () => {}): FsLike {
  const base = asFs(buildVolume({ src: { 'a.ts': 'x x', sub: { 'b.ts': 'x' } } }, '/w'));
  const hang = () => onCall();
  return { ...base, lstat: hang, stat: hang } as unknown as FsLike;
}

const PATH_CALLS = [
  ['glob src', (ctx: ToolContext) => globTool({ pattern: '*.ts', path: 'src' }, ctx)],
  ['glob src/sub/..', (ctx: ToolContext) => globTool({ pattern: '*.ts', path: '/w/src/sub/..' }, ctx)],
  ['grep src/a.ts', (ctx: ToolContext) => grepTool({ query: 'x', path: 'src/a.ts' }, ctx)],
  ['glob by relevance', (ctx: ToolContext) => globTool({ pattern: '**/*.ts', sort: 'relevance', respect_git_ignore: false }, ctx)],
  ['grep by relevance', (ctx: ToolContext) => grepTool({ query: 'x', sort: 'relevance', respect_git_ignore: false }, ctx)],
] as const;

describe('a path resolved, or a page ordered by relevance, through lstats that hang', { concurrent: true }, () => {
  for (const [what, call] of PATH_CALLS) {
    it(`${what}, a 50 ms budget: answers`, async ({ expect }) => {
      const result = await call({ root: '/w', fs: hungLstatFs(), platform: 'posix', timeBudgetMs: 50 });
      expect(result.content.length).toBeGreaterThan(0);
    });

    it(`${what}, a signal aborted at the first lstat, no budget: answers`, async ({ expect }) => {
      const controller = new AbortController();
      const result = await call({ root: '/w', platform: 'posix', signal: controller.signal, fs: hungLstatFs(() => controller.abort()) });
      expect(result.content.length).toBeGreaterThan(0);
    });
  }

  it('by relevance, the page holds what sort "path" gives, only its order may differ', async ({ expect }) => {
    const ctx = () => ({ root: '/w', fs: hungLstatFs(), platform: 'posix' as const, timeBudgetMs: 50 });
    // No ignore files: their lookups are stats too, and would spend the budget before the walk.
    const byPath = await globTool({ pattern: '**/*.ts', respect_git_ignore: false }, ctx());
    const byRelevance = await globTool({ pattern: '**/*.ts', sort: 'relevance', respect_git_ignore: false }, ctx());
    expect(byRelevance.isError).toBe(false);
    const paths = (r: typeof byPath) => [...(r.metadata as { paths: string[] }).paths].sort();
    expect(paths(byRelevance)).toEqual(paths(byPath));
    expect(paths(byPath)).toEqual(['src/a.ts', 'src/sub/b.ts']);
  });
});
