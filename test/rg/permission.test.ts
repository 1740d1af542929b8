/**
 * The "done" case on a real disk: a directory that really cannot be read (`chmod 000`,
 * searched by a user who is not root) gives the same matches and the same skipped entry
 * `{ path, code: 'EACCES' }` from `walker`, `ripgrep` and `auto`, and the other matches are kept.
 *
 * Root reads everything, so as root the search runs in a child process as nobody (see
 * helpers/unprivileged.ts); as any other user it runs here. POSIX only: chmod cannot deny a read
 * on Windows (that platform's denial is covered by the os error 5 lines in rg-stderr and rg-run).
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { findFiles } from '../../src/index.js';
import { needsRg, realRg, requireRipgrepInCi } from '../helpers/real-rg.js';
import { buildNobodySandbox, isRoot, writeProbe, type Sandbox } from '../helpers/unprivileged.js';
import { describeIf, posix } from '../helpers/skip-why.js';
import type { SearchAnswer } from '../helpers/search-answer.js';

const BACKENDS = ['walker', 'ripgrep', 'auto'] as const;

type Summary = Omit<SearchAnswer, 'name'>;

let tree: string;
let sandbox: Sandbox | undefined;

/** Every file is readable except what lies in `locked/`, `src/locked-too/` and below `noexec/` (mode r--). */
function buildTree(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ff-rg-perm-'));
  for (const file of ['a.ts', 'notes.md', 'src/index.ts', 'src/lib/util.ts', 'locked/hidden.ts', 'src/locked-too/inner/x.ts', 'open/z.ts', 'noexec/listed.ts', 'noexec/sub/deep.ts']) {
    mkdirSync(join(dir, file, '..'), { recursive: true });
    writeFileSync(join(dir, file), file);
  }
  chmodSync(dir, 0o755); // mkdtemp makes it 0700: nobody could not even enter the root
  for (const sub of ['src', 'src/lib', 'open', 'src/locked-too/inner']) chmodSync(join(dir, sub), 0o755);
  chmodSync(join(dir, 'noexec/sub'), 0o755);
  chmodSync(join(dir, 'locked'), 0o000);
  chmodSync(join(dir, 'src/locked-too'), 0o000);
  // Readable but not searchable: its names can be listed, nothing below it can be opened.
  chmodSync(join(dir, 'noexec'), 0o644);
  return dir;
}

const PROBE = `
import { findFiles } from './dist/index.js';
const [root, rgPath] = process.argv.slice(2);
const out = [];
for (const backend of ${JSON.stringify(BACKENDS)}) {
  const r = await findFiles({ root, pattern: '*.ts', backend, ...(backend === 'walker' ? {} : { rgPath }) });
  out.push({ backend: r.backend, matches: r.matches, skipped: r.skipped, complete: r.complete, incompleteReasons: r.incompleteReasons, fallbackReason: r.fallbackReason });
}
console.log(JSON.stringify(out));
`;

async function searchAll(): Promise<Summary[]> {
  if (!isRoot) {
    const results: Summary[] = [];
    for (const backend of BACKENDS) results.push(await findFiles({ root: tree, pattern: '*.ts', backend }));
    return results;
  }
  const probe = writeProbe(sandbox!, 'probe.mjs', PROBE);
  const rg = sandbox!.reachable(realRg.path!);
  const stdout = sandbox!.runAsNobody(probe, [tree, rg], { PATH: process.env.PATH ?? '/usr/bin:/bin' });
  return JSON.parse(stdout) as Summary[];
}

requireRipgrepInCi();

describeIf(posix('chmod 000 and runuser/setpriv deny nothing on Windows (test/windows denies with an ACL)'), needsRg)('an unreadable directory on a real disk', () => {
  beforeAll(() => {
    tree = buildTree();
    if (isRoot) sandbox = buildNobodySandbox();
  }, 120_000);

  afterAll(() => {
    if (tree !== undefined) {
      chmodSync(join(tree, 'locked'), 0o755);
      chmodSync(join(tree, 'noexec'), 0o755);
      chmodSync(join(tree, 'src/locked-too'), 0o755);
      rmSync(tree, { recursive: true, force: true });
    }
    if (sandbox !== undefined) rmSync(sandbox.dir, { recursive: true, force: true });
  });

  it(`gives the same matches and skipped entries from walker, ripgrep and auto${isRoot ? ' (run as nobody)' : ''}`, async () => {
    const [walker, ripgrep, auto] = await searchAll();
    const expected = {
      matches: ['a.ts', 'noexec/listed.ts', 'open/z.ts', 'src/index.ts', 'src/lib/util.ts'],
      skipped: [
        { path: 'locked', code: 'EACCES' },
        { path: 'noexec/sub', code: 'EACCES' },
        { path: 'src/locked-too', code: 'EACCES' },
      ],
      complete: false,
      incompleteReasons: ['permission-denied'],
    };
    // ripgrep prints errors in the order its threads meet them: compare skipped entries as sets.
    const bySkippedPath = (s: Summary) => ({ ...s, skipped: [...s.skipped].sort((a, b) => (a.path < b.path ? -1 : 1)) });
    expect(bySkippedPath(walker!)).toMatchObject({ backend: 'walker', ...expected });
    expect(bySkippedPath(ripgrep!)).toMatchObject({ backend: 'ripgrep', ...expected });
    expect(bySkippedPath(auto!)).toMatchObject({ backend: 'ripgrep', ...expected });
    expect(auto!.fallbackReason).toBeUndefined();
  }, 60_000);
});

/** Issue 12, row 9: a root ripgrep cannot enter (it must be its cwd). */
describeIf(posix('chmod modes and runuser/setpriv deny nothing on Windows (test/windows denies with an ACL)'), needsRg)('a root that cannot be entered, on a real disk', () => {
  let base: string;
  let own: Sandbox | undefined;
  beforeAll(() => {
    base = mkdtempSync(join(tmpdir(), 'ff-rg-root-'));
    chmodSync(base, 0o755);
    for (const [name, mode] of [['none', 0o000], ['list-only', 0o644]] as const) {
      mkdirSync(join(base, name, 'sub'), { recursive: true });
      writeFileSync(join(base, name, 'x.ts'), '');
      writeFileSync(join(base, name, 'sub', 'y.ts'), '');
      chmodSync(join(base, name), mode);
    }
    if (isRoot) own = buildNobodySandbox();
  }, 120_000);

  afterAll(() => {
    for (const name of ['none', 'list-only']) chmodSync(join(base, name), 0o755);
    rmSync(base, { recursive: true, force: true });
    if (own !== undefined) rmSync(own.dir, { recursive: true, force: true });
  });

  async function searchRoot(root: string): Promise<Summary[]> {
    if (!isRoot) return Promise.all(BACKENDS.map(async (backend) => findFiles({ root, pattern: '*.ts', backend })));
    const probe = writeProbe(own!, 'probe-root.mjs', PROBE);
    return JSON.parse(own!.runAsNobody(probe, [root, own!.reachable(realRg.path!)], { PATH: process.env.PATH ?? '/usr/bin:/bin' })) as Summary[];
  }

  it(`mode 000: forced ripgrep gives the walker's skipped root, never a spawn failure; auto the same${isRoot ? ' (run as nobody)' : ''}`, async () => {
    const [walker, ripgrep, auto] = await searchRoot(join(base, 'none'));
    const expected = { matches: [], skipped: [{ path: '.', code: 'EACCES' }], complete: false, incompleteReasons: ['permission-denied'] };
    expect(walker).toMatchObject({ backend: 'walker', ...expected });
    expect(ripgrep).toMatchObject({ backend: 'ripgrep', ...expected });
    expect(auto).toMatchObject({ backend: 'walker', fallbackReason: 'root-unreadable', ...expected });
  }, 60_000);

  it(`mode r--: ripgrep cannot run there and says so (skipped root); auto lets the walker list what it can${isRoot ? ' (run as nobody)' : ''}`, async () => {
    const [walker, ripgrep, auto] = await searchRoot(join(base, 'list-only'));
    const listed = { matches: ['x.ts'], skipped: [{ path: 'sub', code: 'EACCES' }], complete: false, incompleteReasons: ['permission-denied'] };
    expect(walker).toMatchObject({ backend: 'walker', ...listed });
    expect(ripgrep).toMatchObject({ backend: 'ripgrep', matches: [], skipped: [{ path: '.', code: 'EACCES' }], complete: false, incompleteReasons: ['permission-denied'] });
    expect(auto).toMatchObject({ backend: 'walker', fallbackReason: 'root-unreadable', ...listed });
  }, 60_000);
});
