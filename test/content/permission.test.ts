/**
 * Content search on a real disk where a file and a directory really cannot be read (`chmod 000`,
 * searched by a user who is not root): the pure-TS path, ripgrep and auto give the same hits and the
 * same skipped entries, the other hits are kept, and the result is incomplete, never "no matches".
 * As root the search runs in a child process as nobody (helpers/unprivileged.ts). POSIX only.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { searchContent, type ContentResult } from '../../src/index.js';
import { needsRg, realRg, requireRipgrepInCi } from '../helpers/real-rg.js';
import { buildNobodySandbox, isRoot, writeProbe, type Sandbox } from '../helpers/unprivileged.js';
import { describeIf, posix } from '../helpers/skip-why.js';

const BACKENDS = ['walker', 'ripgrep', 'auto'] as const;

let tree: string;
let sandbox: Sandbox | undefined;

function buildTree(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ff-content-perm-'));
  for (const file of ['a.txt', 'locked.txt', 'dir/locked/x.txt', 'dir/open/z.txt']) {
    mkdirSync(join(dir, file, '..'), { recursive: true });
    writeFileSync(join(dir, file), `the needle in ${file}\n`);
  }
  chmodSync(dir, 0o755);
  for (const sub of ['dir', 'dir/open']) chmodSync(join(dir, sub), 0o755);
  chmodSync(join(dir, 'locked.txt'), 0o000);
  chmodSync(join(dir, 'dir/locked'), 0o000);
  return dir;
}

const PROBE = `
import { searchContent } from './dist/index.js';
const [root, rgPath] = process.argv.slice(2);
const out = [];
for (const backend of ${JSON.stringify(BACKENDS)}) out.push(await searchContent({ root, query: 'needle', backend, rgPath }));
console.log(JSON.stringify(out));
`;

async function searchAll(): Promise<ContentResult[]> {
  if (!isRoot) return Promise.all(BACKENDS.map((backend) => searchContent({ root: tree, query: 'needle', backend, rgPath: realRg.path })));
  const probe = writeProbe(sandbox!, 'content-probe.mjs', PROBE);
  const stdout = sandbox!.runAsNobody(probe, [tree, sandbox!.reachable(realRg.path!)], { PATH: process.env.PATH ?? '/usr/bin:/bin' });
  return JSON.parse(stdout) as ContentResult[];
}

requireRipgrepInCi();

describeIf(posix('chmod 000 and runuser/setpriv deny nothing on Windows (test/windows denies with an ACL)'), needsRg)('an unreadable file and directory on a real disk', () => {
  beforeAll(() => {
    tree = buildTree();
    if (isRoot) sandbox = buildNobodySandbox();
  }, 120_000);

  afterAll(() => {
    if (tree !== undefined) {
      chmodSync(join(tree, 'locked.txt'), 0o644);
      chmodSync(join(tree, 'dir/locked'), 0o755);
      rmSync(tree, { recursive: true, force: true });
    }
    if (sandbox !== undefined) rmSync(sandbox.dir, { recursive: true, force: true });
  });

  it(`gives the same hits and skipped entries from walker, ripgrep and auto${isRoot ? ' (run as nobody)' : ''}`, async () => {
    const results = await searchAll();
    const expected = {
      hits: [
        { path: 'a.txt', line: 1, column: 5, text: 'the needle in a.txt' },
        { path: 'dir/open/z.txt', line: 1, column: 5, text: 'the needle in dir/open/z.txt' },
      ],
      skipped: [
        { path: 'dir/locked', code: 'EACCES' },
        { path: 'locked.txt', code: 'EACCES' },
      ],
      complete: false,
      incompleteReasons: ['permission-denied'],
    };
    results.forEach((result, i) => {
      // ripgrep prints errors in the order its threads meet them: compare skipped entries as sets.
      const skipped = [...result.skipped].sort((a, b) => (a.path < b.path ? -1 : 1));
      expect({ ...result, skipped }, BACKENDS[i]).toMatchObject({ backend: i === 0 ? 'walker' : 'ripgrep', ...expected });
    });
    expect(results[2]!.fallbackReason).toBeUndefined();
  }, 60_000);
});
