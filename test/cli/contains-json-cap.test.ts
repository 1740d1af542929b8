/**
 * `--contains ... --json` holds every hit to print one object at the end, so its hit text is capped
 * (`JSON_MAX_OUTPUT_BYTES`, `output-limit`: an honest incomplete answer); uncapped, an adversarial
 * `--contains e --json` over /usr/include took 1.8 GB, and a larger tree ended in V8's
 * out-of-memory abort with nothing printed. `--ndjson` streams, so it prints every hit.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JSON_MAX_OUTPUT_BYTES } from '../../src/cli/args.js';
import { runFindFile } from '../helpers/cli.js';

// Each line is cut to the 500 characters a hit keeps: lines enough to pass the cap by a fifth.
const LINE = 'needle ' + 'x'.repeat(493);
const LINES = Math.ceil((JSON_MAX_OUTPUT_BYTES * 1.2) / LINE.length);

let tree: string;
beforeAll(() => {
  tree = mkdtempSync(join(tmpdir(), 'ff-json-cap-'));
  writeFileSync(join(tree, 'big.txt'), `${LINE}\n`.repeat(LINES));
});
afterAll(() => rmSync(tree, { recursive: true, force: true }));

describe('content --json is capped, --ndjson is not', () => {
  it('--json stops at the cap: output-limit, incomplete, and the hits it holds fit the cap', () => {
    const run = runFindFile(['--contains', 'needle', '--json'], { cwd: tree });
    expect(run.status).toBe(0);
    const result = JSON.parse(run.stdout) as { hitCount: number; complete: boolean; incompleteReasons: string[]; truncated: boolean };
    expect({ complete: result.complete, reasons: result.incompleteReasons, truncated: result.truncated }).toEqual({ complete: false, reasons: ['output-limit'], truncated: true });
    expect(result.hitCount).toBeGreaterThan(JSON_MAX_OUTPUT_BYTES / (LINE.length + 'big.txt'.length) - 2);
    expect(result.hitCount).toBeLessThan(LINES);
  });

  it('--ndjson prints every hit, and the search is complete', () => {
    const run = runFindFile(['--contains', 'needle', '--ndjson'], { cwd: tree });
    expect(run.status).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    const summary = JSON.parse(lines.at(-1)!) as { type: string; hitCount: number; complete: boolean };
    expect({ type: summary.type, hitCount: summary.hitCount, complete: summary.complete, printed: lines.length - 1 }).toEqual({ type: 'summary', hitCount: LINES, complete: true, printed: LINES });
  });
});
