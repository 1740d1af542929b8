/**
 * Issue 12, row 6: a crafted directory name must not turn a denied directory into "complete" on
 * ripgrep or auto. A directory named `x: gone (os error 2)⏎.` holding a denied `deny` makes ripgrep
 * print one message that reads as two lines: `./src/x: gone (os error 2)` (a forged "vanished") and
 * `./deny: Permission denied (os error 13)` (a path the pattern `src/**` prunes, so it was dropped).
 * The search said complete. Now every path line is held to the disk first (src/rg/stderr.ts).
 *
 * The real attack runs on the real disk as nobody (root reads everything); the line checks run
 * here, as any user, against a real tree.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFiles, searchContent } from '../../src/index.js';
import { StderrReader } from '../../src/rg/stderr.js';
import { hasRg, realRg, requireRipgrepInCi } from '../helpers/real-rg.js';
import { buildNobodySandbox, isRoot, writeProbe, type Sandbox } from '../helpers/unprivileged.js';
import { posixOnly } from '../helpers/posix-only.js';

const isPosix = process.platform !== 'win32';
/** The directory name of the attack: a forged message, a real newline, then `.` so the rest reads `./deny`. */
const CRAFTED = 'x: gone (os error 2)\n.';

interface Summary {
  name: string;
  backend: string;
  matches: string[];
  skipped: { path: string; code: string }[];
  complete: boolean;
  incompleteReasons: string[];
  fallbackReason?: string;
}

/** src/lib/a.ts and src/index.ts readable; src/<CRAFTED>/deny/b.ts denied. With decoys: a denied `deny` at the root too. */
function buildAttackTree(decoys: boolean): string {
  const dir = mkdtempSync(join(tmpdir(), 'ff-hardening-stderr-'));
  for (const file of ['src/lib/a.ts', 'src/index.ts', `src/${CRAFTED}/deny/b.ts`, ...(decoys ? ['deny/c.ts'] : [])]) {
    mkdirSync(join(dir, file, '..'), { recursive: true });
    writeFileSync(join(dir, file), '// TODO\n');
  }
  for (const sub of ['.', 'src', 'src/lib', `src/${CRAFTED}`]) chmodSync(join(dir, sub), 0o755);
  chmodSync(join(dir, `src/${CRAFTED}/deny`), 0o000);
  if (decoys) chmodSync(join(dir, 'deny'), 0o000);
  return dir;
}

function openUp(dir: string): void {
  for (const sub of [`src/${CRAFTED}/deny`, 'deny']) {
    try {
      chmodSync(join(dir, sub), 0o755);
    } catch {
      // not in this tree
    }
  }
  rmSync(dir, { recursive: true, force: true });
}

const PROBE = `
import { findFiles, searchContent } from './dist/index.js';
const [root, rgPath] = process.argv.slice(2);
const out = [];
const keep = (name, r) => out.push({ name, backend: r.backend, matches: r.matches ?? r.hits?.map((h) => h.path) ?? [], skipped: r.skipped, complete: r.complete, incompleteReasons: r.incompleteReasons, fallbackReason: r.fallbackReason });
for (const backend of ['walker', 'ripgrep', 'auto']) {
  keep(backend, await findFiles({ root, pattern: 'src/**/*.ts', backend, rgPath }));
}
// Nothing else matches: auto's ripgrep run fails (an unexplained line) with no match, so the walker answers.
keep('auto-no-match', await findFiles({ root, pattern: 'src/**/*.rs', backend: 'auto', rgPath }));
keep('content-ripgrep', await searchContent({ root, query: 'TODO', pattern: 'src/**/*.ts', backend: 'ripgrep', rgPath }));
console.log(JSON.stringify(out));
`;

requireRipgrepInCi();

describe.skipIf(!isPosix || !hasRg)(posixOnly('a directory name that forges a ripgrep stderr line (real disk)', 'the forged name holds characters Windows names cannot, and its denied folders need chmod and runuser/setpriv'), () => {
  let sandbox: Sandbox | undefined;
  const trees: string[] = [];

  beforeAll(() => {
    if (isRoot) sandbox = buildNobodySandbox();
  }, 120_000);

  afterAll(() => {
    for (const tree of trees) openUp(tree);
    if (sandbox !== undefined) rmSync(sandbox.dir, { recursive: true, force: true });
  });

  async function searchAll(tree: string): Promise<Summary[]> {
    if (!isRoot) {
      const out: Summary[] = [];
      const keep = (name: string, r: Omit<Summary, 'name'> & { hits?: { path: string }[] }) =>
        out.push({ ...r, name, matches: r.matches ?? r.hits?.map((h) => h.path) ?? [] });
      for (const backend of ['walker', 'ripgrep', 'auto'] as const) keep(backend, await findFiles({ root: tree, pattern: 'src/**/*.ts', backend }));
      keep('auto-no-match', await findFiles({ root: tree, pattern: 'src/**/*.rs', backend: 'auto' }));
      keep('content-ripgrep', (await searchContent({ root: tree, query: 'TODO', pattern: 'src/**/*.ts', backend: 'ripgrep' })) as never);
      return out;
    }
    const probe = writeProbe(sandbox!, 'probe-stderr.mjs', PROBE);
    return JSON.parse(sandbox!.runAsNobody(probe, [tree, sandbox!.reachable(realRg.path!)], { PATH: process.env.PATH ?? '/usr/bin:/bin' })) as Summary[];
  }

  it.each([
    ['the crafted name alone', false],
    ['with decoys that make each half name a real path (a denied ./deny at the root, no src/x)', true],
  ])(`ripgrep and auto are never complete: %s${isRoot ? ' (run as nobody)' : ''}`, async (_, decoys) => {
    const tree = buildAttackTree(decoys);
    trees.push(tree);
    const results = await searchAll(tree);
    const byName = Object.fromEntries(results.map((r) => [r.name, r]));
    // The walker's answer, for reference: the real denied directory, by its real path.
    expect(byName.walker).toMatchObject({
      complete: false,
      incompleteReasons: ['permission-denied'],
      skipped: [{ path: `src/${CRAFTED}/deny`, code: 'EACCES' }],
      matches: ['src/index.ts', 'src/lib/a.ts'],
    });
    for (const name of ['ripgrep', 'auto']) {
      const result = byName[name]!;
      expect(result.complete, name).toBe(false);
      expect(result.matches, name).toEqual(['src/index.ts', 'src/lib/a.ts']);
      expect(result.incompleteReasons, name).toContain('io-error');
      // The forged "vanished" line is not believed: no entry for a src/x that never existed.
      expect(result.skipped.map((s) => s.path), name).not.toContain('src/x');
    }
    expect(byName['auto-no-match']).toMatchObject({ backend: 'walker', fallbackReason: 'exit', complete: false, incompleteReasons: ['permission-denied'] });
    expect(byName['content-ripgrep']).toMatchObject({ complete: false });
  }, 60_000);
});

describe.skipIf(!isPosix)(posixOnly('StderrReader.checkedReport holds each path line to the disk', 'the crafted folder name holds characters Windows names cannot'), () => {
  let tree: string;

  beforeAll(() => {
    tree = mkdtempSync(join(tmpdir(), 'ff-hardening-lines-'));
    for (const sub of ['locked', 'src/lib', `src/${CRAFTED}/deny`]) mkdirSync(join(tree, sub), { recursive: true });
    writeFileSync(join(tree, 'src', 'file.ts'), '');
  });

  afterAll(() => rmSync(tree, { recursive: true, force: true }));

  async function check(...lines: string[]) {
    const reader = new StderrReader('posix');
    for (const line of lines) reader.line(line);
    return reader.checkedReport(tree, () => false);
  }

  it('believes a denial of a path that exists, the denied root, and ripgrep 14 prefixed lines', async () => {
    expect(await check('./locked: Permission denied (os error 13)')).toMatchObject({ skipped: [{ path: 'locked', code: 'EACCES' }], unclassified: 0 });
    expect(await check('./: Permission denied (os error 13)', 'rg: ./src/lib: Permission denied (os error 13)')).toMatchObject({
      skipped: [{ path: '.', code: 'EACCES' }, { path: 'src/lib', code: 'EACCES' }],
      unclassified: 0,
    });
  });

  it('believes a vanished line only when its path is gone', async () => {
    expect(await check('./src/gone: No such file or directory (os error 2)')).toMatchObject({ skipped: [{ path: 'src/gone', code: 'ENOENT' }], unclassified: 0 });
    expect(await check('./src/lib: No such file or directory (os error 2)')).toMatchObject({ skipped: [], unclassified: 1 });
  });

  it('does not believe a denial of a path that does not exist', async () => {
    expect(await check('./nowhere: Permission denied (os error 13)')).toMatchObject({ skipped: [], unclassified: 1 });
  });

  it('does not believe the first line of a message cut by a newline in a name, nor what follows', async () => {
    const cut = await check('./src/x: gone (os error 2)', './deny: Permission denied (os error 13)');
    expect(cut).toMatchObject({ skipped: [], unclassified: 2 });
    // With ripgrep 14's prefix, and with the tail naming a path that does exist.
    mkdirSync(join(tree, 'deny'), { recursive: true });
    const prefixed = await check('rg: ./src/x: gone (os error 2)', 'rg: ./deny: Permission denied (os error 13)');
    expect(prefixed).toMatchObject({ skipped: [{ path: 'deny', code: 'EACCES' }], unclassified: 1 });
  });

  it('believes nothing it was stopped before checking', async () => {
    const reader = new StderrReader('posix');
    reader.line('./locked: Permission denied (os error 13)');
    expect(await reader.checkedReport(tree, () => true)).toMatchObject({ skipped: [], unclassified: 1 });
  });
});

describe.skipIf(!isPosix)(posixOnly('a run we stopped at the byte cap still holds its stderr to the disk', 'the stand-in ripgrep is a #!/bin/sh script made executable with chmod'), () => {
  let dir: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'ff-stopped-stderr-'));
    mkdirSync(join(dir, 'root', 'real'), { recursive: true });
    writeFileSync(join(dir, 'root', 'real', 'a.ts'), '');
    // A forged "vanished" line for a directory that exists, then a stderr line past the 1 MiB cap (same pipe: in order).
    const script = `#!/bin/sh\nprintf './real: No such file or directory (os error 2)\\n' >&2\nhead -c 1100000 /dev/zero | tr '\\\\0' x >&2\nexit 2\n`;
    writeFileSync(join(dir, 'rg'), script);
    chmodSync(join(dir, 'rg'), 0o755);
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('does not believe a forged vanished line from a run stopped at the byte cap (max_buffer)', async () => {
    // Kills the stderr of a run stopped by a limit believed unchecked: `real` would be listed as gone while it holds a.ts.
    const result = await findFiles({ root: join(dir, 'root'), pattern: '*.ts', backend: 'ripgrep', rgPath: join(dir, 'rg') });
    expect(result.skipped).toEqual([]);
    expect(result).toMatchObject({ complete: false, incompleteReasons: ['io-error'], recovery: { failureKind: 'max_buffer' } });
  });
});
