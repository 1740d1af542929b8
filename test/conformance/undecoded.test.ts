/**
 * Names that are not valid UTF-8, on the real disk, against bash and `find -name` (each invalid
 * byte one character) on every backend and API form: a name an oracle matches is either returned
 * or covered by an `EILSEQ` gap (itself or a directory above it), and then the result is not
 * complete. Never `complete: true` without it: that was the silent miss of issue 26 (`??.txt` over
 * `\xe2\x82.txt`: two bytes decode to one U+FFFD).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFiles, findFilesStream, findFilesSync, type FindResult } from '../../src/index.js';
import { requireRipgrepInCi } from '../helpers/real-rg.js';
import { onWindows, posixOnly } from '../helpers/skip-why.js';

const bytes = (...parts: (string | number[])[]) => Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p))));
const CUT = [0xe2, 0x82]; // the first two bytes of `€`
const NAMES: Buffer[] = [
  bytes(CUT, '.txt'),
  bytes('a', CUT, CUT, 'b'),
  bytes([0xff, 0xfe], '.log'),
  bytes('é', [0xff]),
  bytes('plain.txt'),
];
const DIR = bytes('d', [0xff]);
const PATTERNS = ['??.txt', '?.txt', '???.txt', 'a????b', 'a??b', '???', '?', '*.txt', '*.log', '??.log', 'é?', 'd?/x.txt', 'd??/x.txt', '*/x.txt', '**/x.txt', 'plain.txt', '+(?).txt', '[!x][!x].txt'];
const MODES = ['walker', 'sync', 'stream', 'ripgrep', 'auto'] as const;

let root: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'ff-undecoded-'));
  for (const name of NAMES) writeFileSync(Buffer.concat([Buffer.from(root + '/'), name]), '');
  mkdirSync(Buffer.concat([Buffer.from(root + '/'), DIR]));
  writeFileSync(Buffer.concat([Buffer.from(root + '/'), DIR, Buffer.from('/x.txt')]), '');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The files bash's pathname expansion gives for the pattern, decoded as Node decodes names. */
function bashMatches(pattern: string): string[] {
  const script = 'shopt -s globstar extglob dotglob nullglob; IFS=; cd -- "$1" && for f in $2; do [ -f "$f" ] && printf "%s\\0" "$f"; done; true';
  const run = spawnSync('bash', ['--norc', '-c', script, 'bash', root, pattern.includes('/') ? pattern : `**/${pattern}`], { env: { PATH: process.env.PATH, LC_ALL: 'C.UTF-8' } });
  return run.stdout.toString('utf8').split('\0').filter((p) => p !== '');
}

/** The files `find -name` matches by base name (no extglob there). */
function findMatches(pattern: string): string[] | undefined {
  if (pattern.includes('/') || /[+@!]\(/.test(pattern)) return undefined;
  const run = spawnSync('find', ['.', '-type', 'f', '-name', pattern, '-print0'], { cwd: root, env: { PATH: process.env.PATH, LC_ALL: 'C.UTF-8' } });
  return run.stdout.toString('utf8').split('\0').filter((p) => p !== '').map((p) => p.slice(2));
}

async function answer(mode: (typeof MODES)[number], pattern: string): Promise<FindResult> {
  if (mode === 'sync') return findFilesSync({ root, pattern });
  if (mode === 'stream') {
    const stream = findFilesStream({ root, pattern });
    const matches: string[] = [];
    for await (const path of stream) matches.push(path);
    return { ...(await stream.summary), matches } as FindResult;
  }
  return findFiles({ root, pattern, backend: mode === 'walker' ? 'walker' : mode });
}

/** Returned, or behind an EILSEQ gap at the path or a directory above it. */
function accountedFor(result: FindResult, path: string): boolean {
  if (result.matches.includes(path)) return true;
  return result.skipped.some((s) => s.code === 'EILSEQ' && (s.path === path || path.startsWith(`${s.path}/`)));
}

describe.skipIf(onWindows)(posixOnly('names that are not valid UTF-8', 'POSIX names are bytes'), () => {
  requireRipgrepInCi();

  it('bash and find see the names the test made (the oracles are alive)', () => {
    expect(bashMatches('??.txt')).toEqual(['\uFFFD.txt']);
    expect(findMatches('a????b')).toEqual(['a\uFFFD\uFFFDb']);
  });

  for (const pattern of PATTERNS) {
    it(`${JSON.stringify(pattern)}: what bash and find match is returned or an EILSEQ gap, on every backend`, async () => {
      const expected = new Set([...bashMatches(pattern), ...(findMatches(pattern) ?? [])]);
      for (const mode of MODES) {
        const result = await answer(mode, pattern);
        const lost = [...expected].filter((p) => !accountedFor(result, p));
        expect({ mode, lost }).toEqual({ mode, lost: [] });
        if (result.skipped.length > 0) expect({ mode, complete: result.complete }).toEqual({ mode, complete: false });
        // Nothing is returned that no oracle matches, but what decodes exactly (a real name).
        for (const match of result.matches) expect({ mode, match, known: expected.has(match) || !match.includes('\uFFFD') }).toEqual({ mode, match, known: true });
      }
    });
  }
});
