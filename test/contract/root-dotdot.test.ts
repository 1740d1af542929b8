/**
 * A root spelled with `..` after a symlink is the directory the kernel reaches: the parent of what
 * the link leads to, not the directory the link's name sits in. `path.resolve` reads `..` by name:
 * an adversarial run (2026-12-06) had `find-file target.txt view/lnk/..` (lnk -> ../real/sub) search
 * view/ and answer "complete, no match" for real/target.txt, which ls, rg, fd and find all reached.
 *
 * A generated family: random spellings over a tree of links (relative, absolute, a link to a link,
 * links at two depths), each holding a `..`, relative to a working directory and absolute. The oracle
 * is the real ripgrep given the same spelling (the kernel opens it): every form of the library lists
 * what rg lists; a spelling the kernel cannot reach (`missing/..`, `file/..`) is refused with the
 * kernel's code, never searched as another directory. The command prints paths that exist, and the
 * same files rg lists.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { findFiles, findFilesStream, findFilesSync, type BackendName } from '../../src/index.js';
import { runFindFile } from '../helpers/cli.js';
import { realRg, requireRipgrepInCi, needsRg } from '../helpers/real-rg.js';
import { describeIf } from '../helpers/skip-why.js';

requireRipgrepInCi();
const posix = process.platform !== 'win32';

let base: string;
/** The names a spelling may step through, from any directory (a step that does not exist is kept: the kernel refuses it). */
const STEPS = ['real', 'view', 'sub', 'deep', 'lnk', 'abs', 'chain', 'inner', 'f.txt', 'missing', '..', '..', '..', '.'];

beforeAll(() => {
  base = realpathSync.native(mkdtempSync(join(tmpdir(), 'ff-root-dotdot-')));
  const dir = (rel: string) => mkdirSync(join(base, rel), { recursive: true });
  const file = (rel: string) => writeFileSync(join(base, rel), 'x\n');
  dir('real/sub/deep');
  dir('view/sub');
  file('real/target.txt');
  file('real/sub/in-sub.txt');
  file('real/sub/deep/in-deep.txt');
  file('view/in-view.txt');
  file('view/sub/in-view-sub.txt');
  file('view/f.txt');
  symlinkSync('../real/sub', join(base, 'view/lnk'));
  symlinkSync(join(base, 'real/sub/deep'), join(base, 'view/abs'));
  symlinkSync('lnk', join(base, 'view/chain'));
  symlinkSync('../../real', join(base, 'view/sub/inner'));
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** Seeded: the same spellings every run (mulberry32). */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Spellings relative to base/view (the working directory), each with a `..` somewhere after its first step. */
function spellings(count: number): string[] {
  const next = random(20261206);
  const out = new Set<string>(['lnk/..', 'chain/..', 'abs/..', 'abs/../..', 'sub/inner/..', 'lnk/../..', 'lnk/../sub/..', 'missing/..', 'f.txt/..', '../view/lnk/..']);
  while (out.size < count) {
    const steps = [STEPS[Math.floor(next() * 9)]!];
    const length = 1 + Math.floor(next() * 4);
    for (let i = 0; i < length; i++) steps.push(STEPS[Math.floor(next() * STEPS.length)]!);
    if (steps.slice(1).includes('..')) out.add(steps.join('/'));
  }
  return [...out];
}

/** rg's files under `spelled` (opened by the kernel from base/view), relative to it; or the code `stat` gives. */
function oracle(spelled: string): string[] | { code: string } {
  try {
    if (!statSync(join(base, 'view') + '/' + spelled).isDirectory()) return { code: 'ENOTDIR' };
  } catch (error) {
    return { code: (error as NodeJS.ErrnoException).code ?? 'EIO' };
  }
  const run = spawnSync(realRg.path!, ['--files', '--no-ignore', '--hidden', '--', spelled], { cwd: join(base, 'view'), encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
  const prefix = spelled.endsWith('/') ? spelled : `${spelled}/`;
  return run.stdout.split('\n').filter(Boolean).map((p) => p.slice(prefix.length)).sort();
}

/** Each form's answer for a root, or the code it was refused with. */
async function forms(root: string): Promise<Record<string, string[] | { code: string }>> {
  const answers: Record<string, string[] | { code: string }> = {};
  const take = async (name: string, run: () => Promise<string[]>) => {
    try {
      answers[name] = (await run()).sort();
    } catch (error) {
      answers[name] = { code: (error as NodeJS.ErrnoException).code ?? 'EIO' };
    }
  };
  const options = { root, pattern: '**', hidden: true };
  for (const backend of ['walker', 'ripgrep', 'auto'] as BackendName[]) {
    await take(backend, async () => {
      const result = await findFiles({ ...options, backend });
      expect(result.complete).toBe(true);
      return result.matches;
    });
  }
  await take('sync', async () => findFilesSync(options).matches);
  await take('stream', async () => {
    const stream = findFilesStream(options);
    const paths: string[] = [];
    for await (const p of stream) paths.push(p);
    return paths;
  });
  return answers;
}

describeIf([posix, 'Windows reads `..` by name, before the filesystem sees the path'])(
  'a root with `..` after a symlink: the directory the kernel reaches',
  () => {
    describeIf(needsRg)('the library, every form, against rg given the same spelling', () => {
      const cases = spellings(40);
      it(`${cases.length} generated spellings, relative to the working directory and absolute`, async () => {
        const cwd = process.cwd();
        process.chdir(join(base, 'view'));
        try {
          let reached = 0;
          for (const spelled of cases) {
            const expected = oracle(spelled);
            if (Array.isArray(expected)) reached++;
            for (const root of [spelled, join(base, 'view') + '/' + spelled]) {
              const answers = await forms(root);
              for (const [form, answer] of Object.entries(answers)) expect(answer, `${form} at ${root}`).toEqual(expected);
            }
          }
          // The family must reach directories through links, not only refuse: both kinds are covered.
          expect(reached).toBeGreaterThan(cases.length / 4);
          expect(reached).toBeLessThan(cases.length);
        } finally {
          process.chdir(cwd);
        }
      }, 120_000);
    });

    it('an ignore file named with `..` after a link is the file the kernel opens (ignoreFiles, --ignore-file)', async () => {
      const view = join(base, 'view');
      writeFileSync(join(base, 'real', 'rules'), 'in-view.txt\n');
      writeFileSync(join(view, 'rules'), 'f.txt\n'); // what the name alone would read
      try {
        for (const ignoreFiles of [['lnk/../rules'], [`${view}/lnk/../rules`]]) {
          const result = await findFiles({ root: view, pattern: '*.txt', ignoreFiles });
          expect(result.matches, String(ignoreFiles)).toEqual(['f.txt', 'sub/in-view-sub.txt']);
          expect(findFilesSync({ root: view, pattern: '*.txt', ignoreFiles }).matches).toEqual(['f.txt', 'sub/in-view-sub.txt']);
        }
        const run = runFindFile(['*.txt', '--ignore-file', 'lnk/../rules', '-d', '1'], { cwd: view });
        expect(run.stdout.split('\n').filter(Boolean)).toEqual(['f.txt']);
      } finally {
        rmSync(join(base, 'real', 'rules'));
        rmSync(join(view, 'rules'));
      }
    });

    describeIf(needsRg)('the command prints paths that exist, the files rg lists', () => {
      for (const spelled of ['lnk/..', 'chain/../sub/deep/..', 'abs/../..', 'sub/inner/../real/sub/..']) {
        it(`find-file -u -H '*' ${spelled}`, () => {
          const cwd = join(base, 'view');
          const expected = oracle(spelled);
          expect(Array.isArray(expected)).toBe(true);
          const run = runFindFile(['-u', '-H', '*', spelled], { cwd });
          expect(run.status, run.stderr).toBe(0);
          const printed = run.stdout.split('\n').filter(Boolean);
          // Joined as text, not by path.join, which reads `..` by name.
          for (const p of printed) expect(existsSync(`${cwd}/${p}`), p).toBe(true);
          const real = (p: string) => realpathSync.native(`${cwd}/${p}`);
          expect(printed.map(real).sort()).toEqual((expected as string[]).map((p) => real(`${spelled}/${p}`)).sort());
          expect(run.stderr).toMatch(/complete/);
        });
      }

      it('a spelling the kernel cannot reach is the missing root it is, never the directory its name suggests, with the kernel\'s reason', () => {
        for (const [args, reason] of [
          [['--root', 'missing/..'], /does not exist \(ENOENT\)/],
          [['missing/..'], /does not exist \(ENOENT\)/],
          [['--root', 'f.txt/..'], /is not a directory \(ENOTDIR\)/],
          [['f.txt/..'], /is not a directory \(ENOTDIR\)/],
        ] as const) {
          const run = runFindFile(['-u', '*', ...args], { cwd: join(base, 'view') });
          expect(run.status, args.join(' ')).toBe(1);
          expect(run.stdout).toBe('');
          expect(run.stderr, args.join(' ')).toMatch(reason);
        }
      });
    });
  },
);
