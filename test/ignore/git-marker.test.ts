/**
 * `.git` and ignore files that are not what their names say, judged by the real rg:
 *
 * - a `.git` link that leads nowhere is no repository (rg 13 asks whether `.git` exists, following
 *   the link): its `.gitignore` does not apply, at the root, in a folder, or in a parent of the
 *   root. The walker took the listed name for a repository and hid what rg lists.
 * - a named pipe called `.git`, `.gitignore` or `.ignore` is never read: reading one waits for a
 *   writer, and the walker hung there forever, past its time budget, the process never ending (rg
 *   itself hangs on a pipe called `.gitignore`; there the answer is judged by the files alone). A
 *   regression would hang, so each runs in a child process with a deadline (test/helpers/cli.ts).
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFindFile } from '../helpers/cli.js';
import { searchForms } from '../helpers/forms.js';
import { buildTrees, files, rgFiles, type Trees, type TreeSpec } from '../helpers/ignore-trees.js';
import { realRg, requireRipgrepInCi } from '../helpers/real-rg.js';

requireRipgrepInCi();

const GONE = { link: 'nowhere' };
/** Where the broken `.git` sits, and the root searched below the tree's top. */
const BROKEN: Record<string, { spec: TreeSpec; root: string }> = {
  'at the root': { spec: { '.git': GONE, '.gitignore': 'a\n', ...files('a', 'b', 's/a') }, root: '' },
  'in a folder': { spec: { 's/.git': GONE, 's/.gitignore': 'a\n', ...files('a', 's/a', 's/b', 's/t/a') }, root: '' },
  'in a parent of the root': { spec: { '.git': GONE, '.gitignore': 'a\n', ...files('r/a', 'r/b', 'r/s/a') }, root: 'r' },
  // A link to a real directory is a repository: its `.gitignore` applies (the counterpart rg agrees with).
  'leading to a directory': { spec: { 'real/': '', '.git': { link: 'real' }, '.gitignore': 'a\n', ...files('a', 'b') }, root: '' },
};

/** Where the pipe sits and what it is called; `rgHangs`: rg itself never answers there. */
const PIPES: { name: string; pipe: string; spec: TreeSpec; root: string; rgHangs?: true }[] = [
  { name: '.git in a folder', pipe: 's/.git', spec: files('b', 's/a', 's/t/a'), root: '' },
  { name: '.git at the root, beside a .gitignore', pipe: '.git', spec: { '.gitignore': 'a\n', ...files('a', 'b') }, root: '' },
  { name: '.git in a parent of the root', pipe: '.git', spec: { '.gitignore': 'a\n', ...files('r/a', 'r/b') }, root: 'r' },
  { name: '.gitignore in a repository', pipe: 's/.gitignore', spec: { '.git/': '', ...files('b', 's/a') }, root: '', rgHangs: true },
  { name: '.ignore', pipe: '.ignore', spec: files('a', 's/a'), root: '', rgHangs: true },
];

let trees: Trees;
const rootOf = (tree: string, sub: string) => (sub === '' ? trees.dirOf(tree) : join(trees.dirOf(tree), sub));

beforeAll(() => {
  trees = buildTrees('ff-git-marker-', { ...Object.fromEntries(Object.entries(BROKEN).map(([name, { spec }]) => [name, spec])), ...Object.fromEntries(PIPES.map((p) => [p.name, p.spec])) });
  for (const { name, pipe } of PIPES) {
    const made = spawnSync('mkfifo', [join(trees.dirOf(name), ...pipe.split('/'))]);
    expect(made.status, String(made.stderr)).toBe(0);
  }
});

afterAll(() => trees?.cleanup());

describe('a .git link that leads nowhere is no repository', () => {
  describe.each(searchForms(realRg.path).filter(([form]) => form !== 'auto'))('%s lists what rg lists', (_form, search) => {
    it.each(Object.entries(BROKEN))('%s', async (name, { root }) => {
      const result = await search({ root: rootOf(name, root), pattern: '**', gitignore: true });
      expect([...result.matches].sort()).toEqual(rgFiles(rootOf(name, root)));
      expect(result.complete).toBe(true);
    });
  });
});

/** `findFilesSync` in a child process: a read that hangs holds the child, never the suite. */
function syncInChild(root: string): { status: number | null; matches: string[] } {
  const script = `import(${JSON.stringify(new URL('../../dist/lib/index.js', import.meta.url).href)}).then((m) => { const r = m.findFilesSync({ root: process.argv[1], pattern: '**', gitignore: true }); console.log(JSON.stringify([r.complete, r.matches])); })`;
  const run = spawnSync(process.execPath, ['-e', script, root], { encoding: 'utf8', timeout: 60_000 });
  if (run.error) throw run.error;
  const [complete, matches] = JSON.parse(run.stdout) as [boolean, string[]];
  expect(complete).toBe(true);
  return { status: run.status, matches: [...matches].sort() };
}

describe('a named pipe called .git or an ignore file is never read', () => {
  it.each(PIPES.map((p) => [p.name, p] as const))('%s: the command and findFilesSync answer, complete, as rg does', (_name, pipe) => {
    const root = rootOf(pipe.name, pipe.root);
    const expected = pipe.rgHangs ? undefined : rgFiles(root);
    for (const args of [['**', '-0'], ['**', '-0', '--time-budget-ms', '60000']]) {
      const run = runFindFile(args, { cwd: root });
      expect(run.status, run.stderr).toBe(0);
      expect(run.stderr).toMatch(/: complete, /);
      const listed = run.stdout.split('\0').filter(Boolean).map((p) => p.replace(/^\.\//, '')).sort(); // -0 starts each with ./, as fd
      if (expected !== undefined) expect(listed).toEqual(expected);
      // Where rg hangs: every regular file is listed (the pipe holds no rules anyone could read).
      else expect(listed).toEqual(Object.keys(pipe.spec).filter((path) => !path.endsWith('/')).sort());
      expect(syncInChild(root).matches).toEqual(listed);
    }
  });
});
