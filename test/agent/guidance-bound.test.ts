/**
 * The help after an empty answer is bounded as the search is (found by an MCP test made
 * event-based): its reads (a readdir of the root, of a pattern's literal folders, lstats) waited
 * for a read that hung, and held the call past its budget and its signal for as long as the read
 * hung. A family: a root whose every read hangs x glob and grep x the patterns whose guidance reads
 * (a plain name, a literal folder, a path that may exist) x a budget or a signal. The verdict is
 * the answer itself (no clock): before, none came (the test's timeout).
 */
import { describe, expect, it } from 'vitest';
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

describe('guidance after an empty answer from a root whose reads hang', () => {
  for (const [tool, call] of TOOLS) {
    for (const pattern of PATTERNS) {
      it(`${tool} ${pattern}, a 50 ms budget: answers, incomplete, with no guidance read`, async () => {
        const result = await call(pattern, { root: '/w', fs: hungFs(), platform: 'posix', timeBudgetMs: 50 });
        expect(result.isError).toBe(false);
        expect(result.metadata).toMatchObject({ complete: false, returned: 0 });
      });

      it(`${tool} ${pattern}, a signal aborted at the first read, no budget: answers, with no guidance read`, async () => {
        const controller = new AbortController();
        // Aborted at the search's first read (an event, not a timer), which never answers.
        const result = await call(pattern, { root: '/w', platform: 'posix', signal: controller.signal, fs: hungFs(() => controller.abort()) });
        expect(result.isError).toBe(false);
        expect(result.metadata).toMatchObject({ complete: false, returned: 0 });
      });
    }
  }
});
