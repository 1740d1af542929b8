/**
 * A run whose stderr fills with lines nothing explains is stopped at MAX_UNEXPLAINED_LINES (src/rg/run.ts):
 * one such line already makes it a failure, and rg 13 over /proc prints millions of
 * `Permission denied (os error 13)` with no path and never ends. The fake floods and never exits;
 * the real /proc is searched in a child process with a deadline, so a hang fails instead of hanging.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findFiles, searchContent } from '../../src/index.js';
import { MAX_UNEXPLAINED_LINES } from '../../src/rg/run.js';
import { FakeRipgrep, runFakeListing, useFakeInstall, nul, type Step } from '../helpers/rg-fake.js';
import { jsonFromChild } from '../helpers/child-json.js';
import { needsRg } from '../helpers/real-rg.js';
import { describeIf, linux } from '../helpers/skip-why.js';

let rgPath: string;
let root: string;
useFakeInstall((made) => {
  ({ rgPath, root } = made);
  writeFileSync(join(root, 'a.txt'), 'needle\n');
});

const noise = (lines: number) => 'Permission denied (os error 13)\n'.repeat(lines);
/** More than the cap, in chunks that split lines, then no exit: only a stop ends it. */
const FLOOD: Step[] = [{ stdout: nul('a.txt') }, { stderr: noise(400) + 'Permission ' }, { stderr: 'denied (os error 13)\n' + noise(700) }, { hang: true }];

const run = (script: Step[]) => runFakeListing(script, { rgPath, root });

describe('a stderr flood', () => {
  it(`stops the run at ${MAX_UNEXPLAINED_LINES} unexplained lines: an exit failure (io-error), the child killed, never retried`, { timeout: 10_000 }, async () => {
    const { fake, outcome } = run(FLOOD);
    const { consumer, verdict, stderr } = await outcome;
    expect(verdict).toEqual({ failureKind: 'exit', stopReason: 'io-error', retryable: false });
    expect(fake.calls).toHaveLength(1);
    expect(fake.calls[0]!.killed).toBe(true);
    expect(stderr.unclassified).toBe(MAX_UNEXPLAINED_LINES);
    expect(consumer.records).toEqual(['a.txt']);
  });

  it('below the cap the run ends on its own terms (the same failure, every record kept)', async () => {
    const { fake, outcome } = run([{ stderr: noise(MAX_UNEXPLAINED_LINES - 1) }, { stdout: nul('a.txt') }, { exit: 2 }]);
    const { consumer, verdict } = await outcome;
    expect(verdict).toEqual({ failureKind: 'exit', retryable: false });
    expect(fake.calls[0]!.killed).toBe(false);
    expect(consumer.records).toEqual(['a.txt']);
  });

  it('path errors do not count: a thousand denied directories are gaps, not a flood', async () => {
    const denied = Array.from({ length: MAX_UNEXPLAINED_LINES + 10 }, (_, i) => `./d${i}: Permission denied (os error 13)\n`).join('');
    const { verdict, stderr } = await run([{ stderr: denied }, { exit: 2 }]).outcome;
    expect(stderr.skipped).toHaveLength(MAX_UNEXPLAINED_LINES + 10);
    expect(verdict.stopReason).toBeUndefined();
  });

  it("through auto, a listing falls back to the walker's whole answer; a content search answers", { timeout: 10_000 }, async () => {
    const listing = new FakeRipgrep(FLOOD);
    const listed = await findFiles({ root, pattern: '**', backend: 'auto', rgPath, runner: listing.runner });
    expect(listed).toMatchObject({ backend: 'walker', fallbackReason: 'exit', matches: ['a.txt'], complete: true });
    const content = new FakeRipgrep(FLOOD);
    const searched = await searchContent({ root, query: 'needle', backend: 'auto', rgPath, runner: content.runner });
    expect(searched).toMatchObject({ backend: 'walker', fallbackReason: 'exit', complete: true });
    expect(searched.hits.map((hit) => hit.path)).toEqual(['a.txt']);
  });
});

const DIST = new URL('../../dist/index.js', import.meta.url).href;

/** Runs `body` (an async function's text over `lib`) in a child; it must print JSON within `seconds`. */
const inChild = (body: string, seconds: number) => jsonFromChild(`const lib = await import(${JSON.stringify(DIST)});\n${body}`, seconds);

const hasProc = existsSync('/proc/meminfo');

describeIf(linux('/proc'), [hasProc, 'no /proc/meminfo'], needsRg)('the real /proc, with no time budget', () => {
  it('findFiles "**" through auto answers (rg 13 floods its stderr there and never ends): the walker lists it', async () => {
    const answer = (await inChild(
      `const r = await lib.findFiles({ root: '/proc', pattern: '**', backend: 'auto' });
       console.log(JSON.stringify({ backend: r.backend, fallbackReason: r.fallbackReason, meminfo: r.matches.includes('meminfo') }));`,
      60,
    )) as { backend: string; fallbackReason?: string; meminfo: boolean };
    expect(answer.meminfo).toBe(true);
    // A ripgrep that ends on its own there may answer; one that floods leaves it to the walker.
    if (answer.backend === 'walker') expect(answer.fallbackReason).toBe('exit');
  }, 90_000);

  it('searchContent for meminfo opens meminfo alone (rg 13 blocks for ever in open("kmsg") otherwise), with the hit', async () => {
    const answer = (await inChild(
      `const out = [];
       for (const backend of ['ripgrep', 'auto']) {
         const r = await lib.searchContent({ root: '/proc', pattern: 'meminfo', query: 'MemTotal', maxDepth: 1, backend });
         out.push({ backend: r.backend, hits: r.hits.map((h) => h.path + ':' + h.line), skipped: r.skipped });
       }
       console.log(JSON.stringify(out));`,
      30,
    )) as { backend: string; hits: string[]; skipped: unknown[] }[];
    for (const result of answer) {
      expect(result.hits).toEqual(['meminfo:1']);
      expect(result.skipped).toEqual([]);
    }
    expect(answer[0]!.backend).toBe('ripgrep');
  }, 60_000);
});
