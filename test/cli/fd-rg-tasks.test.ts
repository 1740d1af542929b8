/**
 * docs/cli.md "For fd and rg users": the everyday tasks, each run on one fixture (a git repository
 * with a .gitignore, hidden files, nested directories) by the real fd or rg and by the real
 * bin/find-file.mjs, and their sets of paths compared (sorted, `./` dropped). Where find-file
 * differs on purpose, the task names the reason and the test asserts exactly that difference.
 * fd 8's `-H` lists .git/ internals (fd 9 leaves them out, as find-file does): fd gets `-E .git`
 * where find-file's default includes hidden files.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { needsRg, realRg } from '../helpers/real-rg.js';
import { runFindFile, writeTree } from '../helpers/cli.js';
import { describeIf, posix } from '../helpers/skip-why.js';

/** One task: the peer's command (fd or rg, argv after the program) and find-file's, and how their answers relate. */
interface Task {
  task: string;
  fd?: string[];
  rg?: string[];
  ff: string[];
  /** A difference on purpose: the reason, and exactly what find-file prints more (`extra`) or less (`missing`). */
  differs?: { why: string; extra?: string[]; missing?: string[] };
}

const H = ['-H', '-E', '.git']; // fd 8: hidden files, as find-file's default, without .git/ internals
const RH = ['--hidden', '-g', '!.git']; // rg's spelling of the same

export const TASKS: Task[] = [
  { task: 'files by extension', fd: ['-e', 'ts'], ff: ['-e', 'ts'] },
  { task: 'files by two extensions', fd: ['-e', 'ts', '-e', 'tsx'], ff: ['-e', 'ts', '-e', 'tsx'] },
  { task: 'names containing a text', fd: ['-t', 'f', '-F', 'make'], ff: ['-F', 'make'] },
  { task: 'names containing a text, files and directories', fd: ['-F', 'make'], ff: ['-F', 'make', '-t', 'f', '-t', 'd'] },
  { task: 'names by regex (smart case: a capital makes it exact)', fd: ['^[A-Z]'], ff: ['--name-regex', '^[A-Z]'] },
  { task: 'files by glob', fd: ['-g', '*.md'], ff: ['*.md'] },
  { task: 'one exact name', fd: ['-g', 'README.md'], ff: ['README.md'] },
  { task: 'directories named build', fd: ['-t', 'd', '-g', 'build'], ff: ['build', '-td'] },
  { task: 'files at most 2 levels deep', fd: ['-t', 'f', '-d', '2', ...H], ff: ['*', '-d', '2'] },
  { task: 'exclude a directory', fd: ['-e', 'js', '-E', 'vendor'], ff: ['-e', 'js', '-E', 'vendor'] },
  { task: 'hidden files', fd: ['-t', 'f', '-g', '.*', ...H], ff: ['.*'] },
  { task: 'every file, respecting .gitignore', fd: ['-t', 'f', ...H], ff: ['*'] },
  { task: 'every file, respecting .gitignore (rg)', rg: ['--files', '--hidden', '-g', '!.git'], ff: ['*'] },
  { task: 'every file, ignored ones too', fd: ['-t', 'f', '-u'], ff: ['*', '-u'] },
  { task: 'files changed in the last 2 hours', fd: ['-t', 'f', '--changed-within', '2h', ...H], ff: ['*', '--changed-within', '2h'] },
  { task: 'files over 1 kB', fd: ['-t', 'f', '-S', '+1k', ...H], ff: ['*', '-S', '+1k'] },
  { task: 'absolute paths', fd: ['-a', '-e', 'md'], ff: ['-e', 'md', '-a'] },
  { task: 'names, case-insensitive', fd: ['-i', '-F', 'README'], ff: ['-F', 'README', '-i'] },
  { task: 'names, case-sensitive', fd: ['-t', 'f', '-s', '-F', 'make'], ff: ['-F', 'make', '-s'] },
  { task: 'content search (path:line)', rg: ['-n', '--no-heading', ...RH, 'TODO'], ff: ['--contains', 'TODO'] },
  { task: 'files with a match', rg: ['-l', ...RH, 'TODO'], ff: ['--contains', 'TODO', '-l'] },
  { task: 'matching lines per file', rg: ['-c', ...RH, 'TODO'], ff: ['--contains', 'TODO', '-c'] },
  { task: 'content, case-insensitive', rg: ['-l', '-i', ...RH, 'todo'], ff: ['--contains', 'todo', '-i', '-l'] },
  { task: 'content by regex', rg: ['-l', ...RH, 'TO+DO'], ff: ['--contains', 'TO+DO', '--regex', '-l'] },
  { task: 'content in *.ts only', rg: ['-l', ...RH, '-g', '*.ts', 'TODO'], ff: ['*.ts', '--contains', 'TODO', '-l'] },
  { task: 'every file with the peer\'s own defaults (fd)', fd: ['-t', 'f'], ff: ['*'], differs: { why: 'hidden files are included by default (agents look for .env and .github/); --no-hidden leaves them out', extra: ['.env', '.github/workflows/ci.yml', '.gitignore'] } },
  { task: 'content, hidden files left out (rg\'s default)', rg: ['-l', 'TODO'], ff: ['--contains', 'TODO', '-l', '--no-hidden'] },
  { task: 'content with the peer\'s own defaults (rg)', rg: ['-l', 'TODO'], ff: ['--contains', 'TODO', '-l'], differs: { why: 'hidden files are searched by default, as they are listed', extra: ['.env'] } },
  { task: 'a bare word (fd: a regex; find-file: a glob)', fd: ['-t', 'f', 'make'], ff: ['make'], differs: { why: 'a pattern is a glob, which matches whole names; an empty answer then hints at find-file -F make', missing: ['Makefile', 'cmake/config.cmake', 'src/Make.md'] } },
];

let tree: string;
const fdBin = ['fdfind', 'fd'].find((name) => spawnSync(name, ['--version']).status === 0);

/** A command's stdout as a sorted set of lines, `./` dropped; content lines cut to `path:line`. */
function answer(stdout: string, contentLines: boolean): string[] {
  // fd 8 ends a directory with `/`; find-file does not.
  const out = stdout.split('\n').filter((l) => l !== '').map((l) => l.replace(/^\.\//, '').replace(/\/$/, ''));
  return [...new Set(contentLines ? out.map((l) => l.split(':').slice(0, 2).join(':')) : out)].sort();
}

function peer(task: Task): string[] {
  const [bin, args] = task.fd ? [fdBin!, task.fd] : [realRg.path!, task.rg!];
  // No stdin: rg reads a piped stdin instead of the directory.
  const run = spawnSync(bin, args, { cwd: tree, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  expect(run.status, `${bin} ${args.join(' ')}: ${run.stderr}`).toBe(0);
  return answer(run.stdout, task.rg?.includes('-n') === true);
}

beforeAll(() => {
  tree = mkdtempSync(join(tmpdir(), 'find-file-fd-rg-'));
  spawnSync('git', ['init', '-q'], { cwd: tree });
  writeTree(tree, {
    '.gitignore': 'node_modules/\n*.log\nbuild/out/\n',
    'README.md': 'read me\n',
    Makefile: 'all:\n\t# TODO build\n',
    'cmake/config.cmake': 'set(x)\n',
    'src/a.ts': '// TODO fix\n',
    'src/b.tsx': 'todo lower\n',
    'src/util/deep/c.ts': 'x\n',
    'src/Make.md': 'notes\n',
    'docs/guide.md': 'TOOODO\n',
    'vendor/lib.js': 'TODO vendor\n',
    'lib/app.js': 'app\n',
    '.env': 'TODO secret\n',
    '.github/workflows/ci.yml': 'on: push\n',
    'node_modules/pkg/index.js': 'TODO\n',
    'debug.log': 'TODO\n',
    'build/out/x.js': 'TODO\n',
    'build/keep.txt': 'keep\n',
    'big.bin': Buffer.alloc(2000, 'a'),
    'old.txt': 'old\n',
  });
  const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000);
  utimesSync(join(tree, 'old.txt'), twoDaysAgo, twoDaysAgo);
});
afterAll(() => rmSync(tree, { recursive: true, force: true }));

describeIf(posix('fd and rg are compared on a POSIX tree'), [fdBin !== undefined || Boolean(process.env.CI), 'fd is not installed'], needsRg)('for fd and rg users: each task, fd or rg against find-file', () => {
  it.each(TASKS.map((t) => [t.task, t] as const))('%s', (_name, task) => {
    const theirs = peer(task);
    const run = runFindFile(task.ff, { cwd: tree });
    expect(run.status, run.stderr).toBe(0);
    const ours = answer(run.stdout, task.ff.includes('--contains') && !task.ff.includes('-l') && !task.ff.includes('-c'));
    const expected = [...theirs.filter((p) => !(task.differs?.missing ?? []).includes(p)), ...(task.differs?.extra ?? [])].sort();
    expect(theirs.length + (task.differs?.extra?.length ?? 0), 'the fixture gives the task something to find').toBeGreaterThan(0);
    if (task.differs?.missing) for (const p of task.differs.missing) expect(theirs, 'the difference is real').toContain(p);
    expect(ours).toEqual(expected);
  });
});
