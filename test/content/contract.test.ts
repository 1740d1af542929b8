/**
 * The model-facing meaning of a content result (issue 5), as a table, on both paths: the pure-TS
 * path on memfs with faults, and ripgrep through the fake runner. `truncated` (a display cut) and
 * `complete: false` (coverage missing) are different facts: each row sets them independently, and
 * no incomplete row, with or without hits, can read as "no matches".
 */
import { describe, expect, it } from 'vitest';
import { CONTENT_INCOMPLETE_REASONS, searchContent, type ContentOptions, type ContentResult } from '../../src/index.js';
import { matchEvent, readFaultyFs } from '../helpers/content.js';
import { buildVolume } from '../helpers/memfs.js';
import { FakeRipgrep, useFakeInstall, type Step } from '../helpers/rg-fake.js';

let rgPath: string;
let root: string;
useFakeInstall((made) => {
  ({ rgPath, root } = made);
});

interface Row {
  run: string;
  /** The pure-TS path: options over a memfs tree holding `a.txt` (one hit on a long line) and `b.txt`. */
  walker: Partial<ContentOptions> & { openFaults?: Record<string, string> };
  /** ripgrep: the script and options. */
  ripgrep: { script: Step[]; options?: Partial<ContentOptions> };
  expected: { complete: boolean; hits: 'none' | 'some'; truncated: boolean; reason?: string };
}

const LONG = 'needle ' + 'x'.repeat(100);
const HIT = matchEvent('./a.txt', LONG + '\n', 1, 0);

const TABLE: Row[] = [
  {
    run: 'complete, no hits: absence proven for this scope',
    walker: { query: 'absent' },
    ripgrep: { script: [{ exit: 1 }] },
    expected: { complete: true, hits: 'none', truncated: false },
  },
  {
    run: 'complete, display cut',
    walker: { maxLineChars: 10 },
    ripgrep: { script: [{ stdout: HIT }, { exit: 0 }], options: { maxLineChars: 10 } },
    expected: { complete: true, hits: 'some', truncated: true },
  },
  {
    run: 'incomplete, no valid hits: never reads as "no matches"',
    walker: { openFaults: { '/root/a.txt': 'EACCES' } },
    ripgrep: { script: [{ stdout: '{"type":"match","data":{}}\n' }, { exit: 0 }] },
    expected: { complete: false, hits: 'none', truncated: false, reason: 'permission-denied|io-error' },
  },
  {
    run: 'incomplete, some hits: the hits kept',
    walker: { openFaults: { '/root/b.txt': 'EIO' } },
    ripgrep: { script: [{ stdout: HIT }, { stderr: './b.txt: Input/output error (os error 5)\n' }, { exit: 2 }] },
    expected: { complete: false, hits: 'some', truncated: false, reason: 'io-error' },
  },
  {
    run: 'both: display cut and incomplete',
    walker: { maxLineChars: 10, openFaults: { '/root/b.txt': 'EIO' } },
    ripgrep: { script: [{ stdout: HIT }, { stderr: './b.txt: Input/output error (os error 5)\n' }, { exit: 2 }], options: { maxLineChars: 10 } },
    expected: { complete: false, hits: 'some', truncated: true, reason: 'io-error' },
  },
  {
    run: 'both, from the output cap: the dropped hit is the display cut, the unread rest the gap',
    walker: { maxOutputBytes: 3 },
    ripgrep: { script: [{ stdout: HIT }, { hang: true }], options: { maxOutputBytes: 3 } },
    expected: { complete: false, hits: 'none', truncated: true, reason: 'output-limit' },
  },
];

async function runWalker(row: Row): Promise<ContentResult> {
  const { openFaults, ...options } = row.walker;
  const fs = readFaultyFs(buildVolume({ 'a.txt': LONG + '\n', 'b.txt': 'nothing\n' }), { open: openFaults ?? {} });
  return searchContent({ root: '/root', query: 'needle', fs, platform: 'posix', ...options });
}

async function runRipgrep(row: Row): Promise<ContentResult> {
  const fake = new FakeRipgrep(row.ripgrep.script);
  return searchContent({ root, query: 'needle', backend: 'ripgrep', rgPath, runner: fake.runner, ...row.ripgrep.options });
}

/** What a model may conclude from a result, read the only way the contract allows. */
function conclusion(result: ContentResult): string {
  if (!result.complete) return result.hitCount === 0 ? 'not searched fully: absence NOT proven' : 'these hits, maybe more';
  if (result.hitCount === 0) return 'absent';
  return result.truncated ? 'these hits (text cut)' : 'these hits, all of them';
}

describe.each([
  ['the pure-TS path', runWalker],
  ['ripgrep', runRipgrep],
] as const)('model-facing table: %s', (_name, run) => {
  it.each(TABLE.map((row) => [row.run, row] as const))('%s', async (_run, row) => {
    const result = await run(row);
    const { expected } = row;
    expect(result.complete).toBe(expected.complete);
    expect(result.truncated).toBe(expected.truncated);
    expect(result.hitCount).toBe(result.hits.length);
    if (expected.hits === 'none') expect(result.hits).toEqual([]);
    else expect(result.hits.length).toBeGreaterThan(0);
    if (expected.complete) {
      expect(result.incompleteReasons).toEqual([]);
      expect(result).not.toHaveProperty('incompleteReason');
    } else {
      expect(result.incompleteReasons.length).toBeGreaterThan(0);
      expect(result.incompleteReason).toBe(result.incompleteReasons[0]);
      expect(result.incompleteReason).toMatch(new RegExp(`^(${expected.reason})$`));
      for (const reason of result.incompleteReasons) expect(CONTENT_INCOMPLETE_REASONS).toContain(reason);
    }
    // Only one row lets a reader conclude absence: the complete one without hits.
    expect(conclusion(result) === 'absent').toBe(expected.complete && expected.hits === 'none');
  });
});
