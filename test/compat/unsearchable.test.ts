/**
 * find-file/tinyglobby in folders that can be listed but not searched (mode r--: `ls` names the
 * entries, nothing below them can be opened). With `onlyFiles: false` the adapter once lstat'ed
 * each match to learn which were directories, dropped the names it could not lstat (tinyglobby
 * returns them: the listing's types were enough) and named `noexec/sub` twice in `skipped`. The
 * oracle is tinyglobby itself, both run as an unprivileged user (root is denied nothing) over
 * generated trees.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Rng } from '../conformance/generate.js';
import { describeIf, posix } from '../helpers/skip-why.js';
import { buildNobodySandbox, isRoot, writeProbe, type Sandbox } from '../helpers/unprivileged.js';

const PROJECT = fileURLToPath(new URL('../..', import.meta.url));
const trees: string[] = [];
let sandbox: Sandbox | undefined;

interface Run {
  pattern: string;
  options: Record<string, unknown>;
  ours: string[];
  theirs: string[];
  skipped: { path: string; code: string }[];
}

/** Runs both, as nobody when root; the peer is copied next to the sandbox's find-file. */
const PROBE = (adapter: string, peer: string) => `
import { globSync } from '${adapter}';
import { globSync as peer } from '${peer}';
const cases = JSON.parse(process.argv[2]);
const out = [];
for (const { cwd, pattern, options } of cases) {
  const ours = globSync(pattern, { cwd, ...options });
  out.push({ pattern, options, ours: [...ours].sort(), theirs: peer(pattern, { cwd, ...options }).sort(), skipped: ours.result.skipped });
}
console.log(JSON.stringify(out));
`;

/** A tree of files and folders under `a`, `b`, `n`; each folder is open, unreadable (000) or readable but not searchable (444). */
function generatedTree(rng: Rng): string {
  const root = mkdtempSync(join(tmpdir(), 'ff-noexec-'));
  trees.push(root);
  const dirs = new Set<string>();
  for (let i = 0; i < 6; i++) {
    const path = Array.from({ length: rng.range(1, 3) }, () => rng.pick(['a', 'b', 'n'])).join('/');
    mkdirSync(join(root, path), { recursive: true });
    writeFileSync(join(root, path, `f${i}.js`), '');
    for (let d = path; d !== '.'; d = dirname(d)) dirs.add(d);
  }
  chmodSync(root, 0o755);
  // Deepest first: a folder's mode is set after everything below it is made.
  for (const dir of [...dirs].sort((x, y) => y.length - x.length)) chmodSync(join(root, dir), rng.pick([0o755, 0o755, 0o444, 0o000]));
  return root;
}

function run(cases: { cwd: string; pattern: string; options: Record<string, unknown> }[]): Run[] {
  if (!isRoot) {
    const probe = join(mkdtempSync(join(tmpdir(), 'ff-noexec-probe-')), 'probe.mjs');
    writeFileSync(probe, PROBE(join(PROJECT, 'dist/lib/tinyglobby.js'), join(PROJECT, 'node_modules/tinyglobby/dist/index.mjs')));
    const result = spawnSync(process.execPath, [probe, JSON.stringify(cases)], { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(result.stderr);
    return JSON.parse(result.stdout) as Run[];
  }
  const probe = writeProbe(sandbox!, 'probe-noexec.mjs', PROBE('./dist/lib/tinyglobby.js', 'tinyglobby'));
  return JSON.parse(sandbox!.runAsNobody(probe, [JSON.stringify(cases)], { PATH: process.env.PATH ?? '/usr/bin:/bin' })) as Run[];
}

describeIf(posix('chmod modes and setpriv deny nothing on Windows'))('find-file/tinyglobby over folders that can be listed but not searched', () => {
  beforeAll(() => {
    if (!isRoot) return;
    sandbox = buildNobodySandbox();
    for (const name of ['tinyglobby', 'fdir', 'picomatch']) {
      cpSync(join(PROJECT, 'node_modules', name), join(sandbox.dir, 'node_modules', name), { recursive: true, dereference: true });
    }
  }, 120_000);

  afterAll(() => {
    for (const root of trees) {
      spawnSync('chmod', ['-R', 'u+rwx', root]);
      rmSync(root, { recursive: true, force: true });
    }
    if (sandbox !== undefined) rmSync(sandbox.dir, { recursive: true, force: true });
  });

  it(`returns what each listing names, as tinyglobby, and names each gap once${isRoot ? ' (run as nobody)' : ''}`, () => {
    const rng = new Rng(0x1e4);
    const cases = Array.from({ length: 15 }, () => generatedTree(rng)).flatMap((cwd) =>
      ['**', '*/*', '*/**', 'n/**', '**/*.js'].flatMap((pattern) => [{ onlyFiles: false }, {}, { onlyDirectories: true }].map((options) => ({ cwd, pattern, options }))),
    );
    for (const r of run(cases)) {
      expect(r.ours, `${r.pattern} ${JSON.stringify(r.options)}`).toEqual(r.theirs);
      expect(new Set(r.skipped.map((s) => s.path)).size, `${r.pattern}: ${JSON.stringify(r.skipped)}`).toBe(r.skipped.length);
    }
  }, 120_000);
});
