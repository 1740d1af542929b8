/**
 * Every shell recipe in README.md that calls find-file, run as written through the real bin on a
 * temp tree (issue 27: the README must be true, and its `rm` recipe safe). The recipes are read
 * from the README itself, split as sh splits them (quotes, `~`, `|`, `#`) and run without a shell;
 * a pipe's right side is spawned with the left side's stdout as its input. A recipe with no
 * expectation here fails the test, so a new README line cannot go unchecked.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, isPosix, lines, native, runFindFile, writeTree, type Run } from '../helpers/cli.js';
import { itIf, posix, posixOnly } from '../helpers/skip-why.js';

const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

/** The find-file command lines of the README's ```sh blocks, as written (after `npx`, before the comment). */
function readmeRecipes(): string[] {
  const blocks = [...README.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
  return blocks.flatMap((block) => block.split('\n')).flatMap((line) => {
    const at = line.search(/(^|\s)find-file\s/);
    return at < 0 ? [] : [line.slice(at).trim()];
  });
}

/** sh's word splitting for the README's lines: quotes, a `~` at a word's start, `|` and a `#` comment. */
function splitWords(line: string, home: string): string[][] {
  const commands: string[][] = [[]];
  const re = /\s*(?:'([^']*)'|"([^"]*)"|(\|)|(#.*)|([^\s'"|]+))/gy;
  for (let m = re.exec(line); m !== null && m[0] !== ''; m = re.exec(line)) {
    if (m[4] !== undefined) break;
    if (m[3] !== undefined) commands.push([]);
    else commands.at(-1)!.push(m[1] ?? m[2] ?? m[5]!.replace(/^~(?=\/|$)/, home));
  }
  return commands.filter((words) => words.length > 0);
}

let base: string;
let cwd: string;
let home: string;

/** Runs a recipe: find-file through the real bin, a pipe's right side fed its stdout. The status is find-file's (pipefail). */
function runRecipe(recipe: string): Run & { piped?: Run } {
  const [command, ...rest] = splitWords(recipe, home);
  expect(command![0]).toBe('find-file');
  const run = runFindFile(command!.slice(1), { cwd, env: { HOME: home } });
  if (rest.length === 0) return run;
  const [tool, ...args] = rest[0]!;
  const piped = spawnSync(tool!, args, { cwd, input: run.stdout, encoding: 'utf8', env: cleanEnv({ HOME: home }) });
  return { ...run, piped: { status: piped.status, stdout: piped.stdout, stderr: piped.stderr } };
}

const TREE = {
  'keep.log': 'a log',
  'sub/important.log': 'a log',
  'README.md': '# read me',
  'docs/guide.md': 'guide',
  'src/a.ts': '// TODO: one thing\n',
  'src/agent/glob.ts': '',
  'generated/gen.ts': '',
  '.gitignore': 'generated/\n',
  '.git/HEAD': 'ref: refs/heads/main\n',
  'node_modules/pkg/b.ts': '// TODO: not ours\n',
};

/** What each recipe must do, by its text in the README. */
const EXPECTED: Record<string, (run: Run & { piped?: Run }) => void> = {
  "find-file '**/*.md' --json": (run) => {
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ complete: true, matches: ['README.md', 'docs/guide.md'] });
  },
  "find-file '*.md'": (run) => {
    expect(run.status).toBe(0);
    expect(lines(run.stdout).sort()).toEqual(['README.md', native('docs/guide.md')]);
    expect(run.stderr).toMatch(/complete/);
  },
  "find-file 'pdftotext*' --root ~ --exclude node_modules": (run) => {
    expect(run.status).toBe(0);
    expect(lines(run.stdout)).toEqual([join(home, 'bin', 'pdftotext')]);
  },
  "find-file 'settings.json' --root ~/.config --json --strict": (run) => {
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ complete: true, matches: ['settings.json'] });
  },
  "find-file '*.log' build -0 | xargs -0 rm -f --": (run) => {
    // No build/ here: fatal, one line naming it, nothing on stdout, so rm is given nothing to delete.
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(lines(run.stderr)).toEqual([expect.stringMatching(/^find-file: error: root build does not exist \(ENOENT\)/)]);
    expect(existsSync(join(cwd, 'keep.log')) && existsSync(join(cwd, 'sub', 'important.log'))).toBe(true);
  },
  "find-file '*.ts' --gitignore": (run) => {
    expect(run.status).toBe(0);
    expect(lines(run.stdout).sort()).toEqual([native('node_modules/pkg/b.ts'), native('src/a.ts'), native('src/agent/glob.ts')]);
  },
  'find-file agent -t d': (run) => {
    // "directories only", as the README says now: fd's -t d.
    expect(run.status).toBe(0);
    expect(lines(run.stdout)).toEqual([native('src/agent')]);
  },
  "find-file '*.log' --changed-within 2d --sort mtime": (run) => {
    expect(run.status).toBe(0);
    expect(lines(run.stdout).sort()).toEqual(['keep.log', native('sub/important.log')]);
  },
  "find-file '*.ts' --contains 'TODO' --exclude node_modules": (run) => {
    expect(run.status).toBe(0);
    expect(lines(run.stdout)).toEqual([`${native('src/a.ts')}:1:4: // TODO: one thing`]);
  },
  "find-file --contains 'TODO' -l": (run) => {
    expect(run.status).toBe(0);
    expect(lines(run.stdout).sort()).toEqual([native('node_modules/pkg/b.ts'), native('src/a.ts')]);
    expect(run.stderr).toMatch(/^find-file: 2 files with a hit under .*: complete, /);
  },
  "find-file --contains 'TODO' -c -m 5": (run) => {
    expect(run.status).toBe(0);
    expect(lines(run.stdout).sort()).toEqual([`${native('node_modules/pkg/b.ts')}:1`, `${native('src/a.ts')}:1`]);
  },
};

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'find-file-readme-'));
  cwd = join(base, 'project');
  home = join(base, 'home');
  writeTree(home, { 'bin/pdftotext': '', '.config/settings.json': '{}' });
});

afterAll(() => rmSync(base, { recursive: true, force: true }));

describe("the README's recipes, run as written", () => {
  const recipes = readmeRecipes();

  it('reads every find-file recipe of the README, and each has an expectation here', () => {
    expect(recipes.length).toBeGreaterThanOrEqual(9);
    expect(recipes.map(normalise).filter((recipe) => !(recipe in EXPECTED))).toEqual([]);
  });

  it.runIf(isPosix).each(recipes)(posixOnly('%s', 'the recipes are POSIX shell lines'), (recipe) => {
    rmSync(cwd, { recursive: true, force: true });
    writeTree(cwd, TREE);
    const expectation = EXPECTED[normalise(recipe)];
    expect(expectation, `no expectation for the README recipe ${recipe}`).toBeDefined();
    expectation!(runRecipe(recipe));
  });

  itIf(posix('the recipes are POSIX shell lines'))('the rm recipe, with a build/ folder, deletes the logs under build/ only', () => {
    rmSync(cwd, { recursive: true, force: true });
    writeTree(cwd, { ...TREE, 'build/out.log': '', 'build/deep/x.log': '' });
    const run = runRecipe("find-file '*.log' build -0 | xargs -0 rm -f --");
    expect(run.status).toBe(0);
    expect(run.piped?.status).toBe(0);
    expect([existsSync(join(cwd, 'build/out.log')), existsSync(join(cwd, 'build/deep/x.log'))]).toEqual([false, false]);
    expect([existsSync(join(cwd, 'keep.log')), existsSync(join(cwd, 'sub/important.log'))]).toEqual([true, true]);
  });
});

/** A recipe as the table keys it: the text before its comment, single spaces. */
function normalise(recipe: string): string {
  return recipe.replace(/\s+#.*$/, '').replace(/\s+/g, ' ');
}
