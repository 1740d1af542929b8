/**
 * A file ripgrep cannot read that the pattern never selects is no gap: `--contains needle
 * target.cfg` beside a `chmod 000` `sub/secret.bin` is complete from walker, ripgrep and auto alike.
 * With a safe pattern ripgrep never opens it (src/rg/type-filter.ts); with a pattern that gets no
 * filter (`target.c[f]g`) it does, and the error is dropped once `lstat` shows a file
 * (src/content/rg-gaps.ts). A denied directory stays a gap, and so does a denied file the pattern
 * selects. On a real disk, as nobody when run as root (helpers/unprivileged.ts).
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { searchContent } from '../../src/index.js';
import { needsRg, realRg, requireRipgrepInCi } from '../helpers/real-rg.js';
import { describeIf, posix } from '../helpers/skip-why.js';
import { buildNobodySandbox, isRoot, writeProbe, type Sandbox } from '../helpers/unprivileged.js';

const BACKENDS = ['walker', 'ripgrep', 'auto'] as const;
const DENIED = ['sub/secret.bin', 'sub/locked.cfg', 'locked'];

interface Answer {
  backend: string;
  hits: string[];
  skipped: { path: string; code: string }[];
  complete: boolean;
}

/** The expected gaps per pattern: a safe one and its twin with no filter (a class) answer alike. */
const CASES: [pattern: string, skipped: string[]][] = [
  ['target.cfg', ['locked']],
  ['target.c[f]g', ['locked']],
  ['*.cfg', ['locked', 'sub/locked.cfg']],
  ['*.c[f]g', ['locked', 'sub/locked.cfg']],
  ['sub/*.cfg', ['sub/locked.cfg']],
  ['sub/*.c[f]g', ['sub/locked.cfg']],
];

let tree: string;
let sandbox: Sandbox | undefined;

const PROBE = `
import { searchContent } from './dist/index.js';
const [root, rgPath, patterns] = [process.argv[2], process.argv[3], JSON.parse(process.argv[4])];
const out = [];
for (const pattern of patterns) {
  for (const backend of ${JSON.stringify(BACKENDS)}) {
    const r = await searchContent({ root, query: 'needle', pattern, backend, ...(backend === 'walker' ? {} : { rgPath }) });
    out.push({ backend: r.backend, hits: r.hits.map((h) => h.path + ':' + h.line), skipped: r.skipped, complete: r.complete });
  }
}
console.log(JSON.stringify(out));
`;

async function searchAll(patterns: string[]): Promise<Answer[]> {
  if (!isRoot) {
    const out: Answer[] = [];
    for (const pattern of patterns) {
      for (const backend of BACKENDS) {
        const r = await searchContent({ root: tree, query: 'needle', pattern, backend, rgPath: realRg.path });
        out.push({ backend: r.backend, hits: r.hits.map((h) => `${h.path}:${h.line}`), skipped: r.skipped, complete: r.complete });
      }
    }
    return out;
  }
  const probe = writeProbe(sandbox!, 'probe-unselected.mjs', PROBE);
  const rg = sandbox!.reachable(realRg.path!);
  return JSON.parse(sandbox!.runAsNobody(probe, [tree, rg, JSON.stringify(patterns)], { PATH: process.env.PATH ?? '/usr/bin:/bin' })) as Answer[];
}

requireRipgrepInCi();

describeIf(posix('chmod 000 and runuser/setpriv deny nothing on Windows'), needsRg)('an unreadable file the pattern does not select, on a real disk', () => {
  beforeAll(() => {
    tree = mkdtempSync(join(tmpdir(), 'ff-rg-unselected-'));
    mkdirSync(join(tree, 'sub', 'inner'), { recursive: true });
    mkdirSync(join(tree, 'locked'));
    writeFileSync(join(tree, 'target.cfg'), 'the needle\n');
    writeFileSync(join(tree, 'sub', 'inner', 'other.cfg'), 'no\n');
    for (const file of ['sub/secret.bin', 'sub/locked.cfg']) writeFileSync(join(tree, file), 'needle\n');
    for (const dir of ['', 'sub', 'sub/inner']) chmodSync(join(tree, dir), 0o755);
    for (const path of DENIED) chmodSync(join(tree, path), 0o000);
    if (isRoot) sandbox = buildNobodySandbox();
  }, 120_000);

  afterAll(() => {
    if (tree !== undefined) {
      for (const path of DENIED) chmodSync(join(tree, path), 0o755);
      rmSync(tree, { recursive: true, force: true });
    }
    if (sandbox !== undefined) rmSync(sandbox.dir, { recursive: true, force: true });
  });

  it(`walker, ripgrep and auto report the same gaps, never sub/secret.bin${isRoot ? ' (run as nobody)' : ''}`, async () => {
    const answers = await searchAll(CASES.map(([pattern]) => pattern));
    CASES.forEach(([pattern, skipped], i) => {
      for (const [j, backend] of BACKENDS.entries()) {
        const answer = answers[i * BACKENDS.length + j]!;
        const paths = answer.skipped.map((entry) => entry.path).sort();
        expect({ pattern, backend, paths, codes: answer.skipped.map((entry) => entry.code) }).toEqual({ pattern, backend, paths: skipped, codes: skipped.map(() => 'EACCES') });
        expect(answer.complete, `${pattern} ${backend}`).toBe(false);
        expect(answer.hits, `${pattern} ${backend}`).toEqual(pattern.startsWith('sub/') ? [] : ['target.cfg:1']);
      }
    });
  }, 60_000);
});
