/**
 * The per-user watch limit, forced for real (issue 32, point 3): in a new user namespace
 * (`unshare -U -r`, no privilege needed) `/proc/sys/user/max_inotify_watches` is the namespace's
 * own, so it can be lowered to a few watches. The index then gets ENOSPC for most directories,
 * reads those afresh at every query, and still answers word for word as a fresh walk.
 */
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { afterAll, expect } from 'vitest';
import { itIf, linux } from '../helpers/skip-why.js';
import { buildSandbox, writeProbe, type Sandbox } from '../helpers/unprivileged.js';
import { makeTree, removeTree } from './helpers.js';

const UNSHARE = ['unshare', '-U', '-r', '--'];
const canUnshare = process.platform === 'linux' && spawnSync(UNSHARE[0]!, [...UNSHARE.slice(1), 'true'], { stdio: 'ignore' }).status === 0;

const PROBE = `
import { writeFileSync, mkdirSync, rmSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { findFiles, openIndex } from './dist/index.js';
const [root, limit] = process.argv.slice(2);
writeFileSync('/proc/sys/user/max_inotify_watches', limit);
const index = await openIndex({ root });
const query = { pattern: '**', type: 'any' };
const plain = (r) => ({ ...r, stats: { ...r.stats, elapsedMs: 0 } });
const steps = [
  () => writeFileSync(join(root, 'd3/e/new.ts'), 'x'),
  () => rmSync(join(root, 'd1'), { recursive: true }),
  () => mkdirSync(join(root, 'd4/f/g'), { recursive: true }),
  () => renameSync(join(root, 'd2'), join(root, 'd4/f/g/moved')),
  () => writeFileSync(join(root, 'd4/f/g/moved/late.ts'), 'x'),
];
let diffs = 0;
for (const step of [() => {}, ...steps]) {
  step();
  const indexed = plain(await index.find(query));
  const fresh = plain(await findFiles({ root, ...query }));
  if (!isDeepStrictEqual(indexed, fresh)) diffs++;
}
const last = (await index.find(query)).matches;
console.log(JSON.stringify({ diffs, stats: index.stats(), last }));
index.close();
`;

let sandbox: Sandbox | undefined;
afterAll(() => {
  if (sandbox !== undefined) rmSync(sandbox.dir, { recursive: true, force: true });
});

itIf(linux('inotify'), [canUnshare, 'unshare -U -r (a user namespace) is not allowed here'])(
  'with max_inotify_watches lowered to 3 in a user namespace: ENOSPC for most directories, answers still exact',
  () => {
    sandbox = buildSandbox(UNSHARE);
    const root = makeTree(['d1/a.ts', 'd2/b/c.ts', 'd3/e/f.ts', 'd3/e/g/h.ts']);
    try {
      const probe = writeProbe(sandbox, 'limit-probe.mjs', PROBE);
      const out = JSON.parse(sandbox.runAsNobody(probe, [root, '3'], { PATH: process.env.PATH ?? '/usr/bin:/bin' })) as {
        diffs: number;
        stats: { watchesRefused: number; lastRefusal?: string };
        last: string[];
      };
      expect(out.stats.lastRefusal).toBe('ENOSPC');
      expect(out.stats.watchesRefused).toBeGreaterThan(3);
      expect(out.diffs).toBe(0);
      expect(out.last).toContain('d4/f/g/moved/late.ts');
    } finally {
      removeTree(root);
    }
  },
  120_000,
);
