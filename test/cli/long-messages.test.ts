/**
 * A failure's message is shown whole up to 2,000 characters, then as its start and its end with
 * the count left out between them (src/text-escape.ts `shortMessage`): V8's message for a regex it
 * could not compile once carried 100 KB of source to stderr, and a flag's value is echoed back in
 * its usage error. The MCP server's failure texts go through the same function (src/mcp/server.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_MESSAGE_CHARS, shortMessage } from '../../src/text-escape.js';
import { mulberry32 } from '../helpers/prng.js';
import { runFindFile } from '../helpers/cli.js';

describe('shortMessage', () => {
  it('leaves a message of up to the limit as it is', () => {
    for (const length of [0, 1, MAX_MESSAGE_CHARS - 1, MAX_MESSAGE_CHARS]) expect(shortMessage('m'.repeat(length))).toBe('m'.repeat(length));
  });

  it('keeps the start and the end, says how much is left out, and never splits a surrogate pair (generated)', () => {
    const random = mulberry32(7);
    const pieces = ['a', 'é', '😀', '\u{10FFFF}', ' ', 'z'];
    for (let n = 0; n < 300; n++) {
      const max = 10 + Math.floor(random() * 200);
      const text = Array.from({ length: max + 1 + Math.floor(random() * 500) }, () => pieces[Math.floor(random() * pieces.length)]).join('');
      if (text.length <= max) continue;
      const short = shortMessage(text, max);
      const found = /^([^]*) \.\.\. \((\d+) characters left out\) \.\.\. ([^]*)$/.exec(short);
      expect(found, short).not.toBeNull();
      const [, head, leftOut, tail] = found!;
      expect(text.startsWith(head!) && text.endsWith(tail!)).toBe(true);
      expect(head!.length + Number(leftOut) + tail!.length).toBe(text.length);
      expect(head!.length + tail!.length).toBeLessThanOrEqual(max);
      expect(head!.length + tail!.length).toBeGreaterThanOrEqual(max - 2);
      // Whole code points on both sides: no lone surrogate is made.
      expect(/\p{Cs}/u.test(head!) || /\p{Cs}/u.test(tail!)).toBe(false);
    }
  });
});

describe('the command', () => {
  const root = mkdtempSync(join(tmpdir(), 'ff-long-messages-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it.each([
    ['--type', 'a usage error from the flags'],
    ['--backend', 'a value the library refuses'],
  ])('%s with a 50,000-character value: one line of about 2,000 characters, status 2', (flag) => {
    const run = runFindFile([flag, 'z'.repeat(50_000), '*'], { cwd: root });
    expect(run.status).toBe(2);
    const error = run.stderr.split('\n').find((line) => line.startsWith('find-file: error: '));
    expect(error, run.stderr).toMatch(/characters left out/);
    expect(error!.length).toBeLessThan(MAX_MESSAGE_CHARS + 200);
    expect(run.stderr.length).toBeLessThan(MAX_MESSAGE_CHARS + 400);
  });

  it('a root of 50,000 characters (skipped as ENAMETOOLONG): its summary shows it shortened, not whole twice', () => {
    const run = runFindFile(['--root', join(root, 'x'.repeat(50_000)), '*'], { cwd: root });
    expect(run.status).toBe(0);
    expect(run.stderr).toMatch(/INCOMPLETE/);
    expect(run.stderr).toMatch(/characters left out/);
    expect(run.stderr).toMatch(/ENAMETOOLONG/);
    expect(run.stderr.length).toBeLessThan(3 * 4_200);
  });
});
