/**
 * A FIFO (or another special file) where ripgrep opens an ignore file (two adversarial findings,
 * 2026-12-06). ripgrep opens them with a blocking `open`, and a FIFO's waits for a writer:
 *
 * - in the tree (`sub/.gitignore`, `.ignore`, `.rgignore`, a repository's `.git/info/exclude`, a
 *   link to a FIFO) and in the root's parents, ignore files on: the walker answered in ms, `auto`
 *   and `ripgrep` never (no budget), or spent the whole budget and found nothing. Now a silent run
 *   is checked (src/rg/blocking.ts) and stopped, `blocked`: `auto` lets the walker answer (the file
 *   listing also after matches), forced `ripgrep` answers incomplete, the file named in `skipped`;
 * - `ignoreFiles` naming a FIFO (or a link to one, or a device): the walker rejected at once
 *   (FF_IGNORE_FILE), ripgrep and `auto` read it before any budget and hung. Now every engine
 *   rejects at once, with the walker's error.
 *
 * Every case runs in a child process with a deadline, so a hang fails the test instead of hanging
 * the suite. The real disk (mkfifo), the built library (dist/), the real ripgrep.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, cleanEnv } from '../helpers/cli.js';
import { jsonFromChild } from '../helpers/child-json.js';
import { needsRg, requireRipgrepInCi } from '../helpers/real-rg.js';
import { describeIf, linux, posix } from '../helpers/skip-why.js';

requireRipgrepInCi();

const DIST = new URL('../../dist/index.js', import.meta.url).href;
const base = mkdtempSync(join(tmpdir(), 'ff-special-ignore-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

const mkfifo = (path: string) => expect(spawnSync('mkfifo', [path]).status).toBe(0);

/** Where the FIFO is: its directory holds `a.txt` ("needle"); `top.txt` ("other") is outside it. */
interface Shape {
  name: string;
  /** The directory searched, under the tree. */
  root: string;
  /** The FIFO's path as `skipped` names it: root-relative, or native for a parent of the root. */
  build(tree: string): string;
}

const SHAPES: Shape[] = [
  ...['.gitignore', '.ignore', '.rgignore'].flatMap((name): Shape[] => [
    { name: `sub/${name}`, root: '', build: (tree) => (mkfifo(join(tree, 'sub', name)), `sub/${name}`) },
    { name: `deep/er/${name}`, root: '', build: (tree) => (mkdirSync(join(tree, 'sub', 'er')), mkfifo(join(tree, 'sub', 'er', name)), `sub/er/${name}`) },
  ]),
  // 600 names before it: ripgrep's buffered output reaches us before it blocks, so a listing with matches is replaced too.
  { name: 'sub/.gitignore after 600 files', root: '', build: (tree) => (mkfifo(join(tree, 'sub', '.gitignore')), 'sub/.gitignore') },
  { name: 'root .gitignore', root: '', build: (tree) => (mkfifo(join(tree, '.gitignore')), '.gitignore') },
  {
    name: 'repository sub/.git/info/exclude',
    root: '',
    build: (tree) => (mkdirSync(join(tree, 'sub', '.git', 'info'), { recursive: true }), mkfifo(join(tree, 'sub', '.git', 'info', 'exclude')), 'sub/.git/info/exclude'),
  },
  { name: 'sub/.ignore a link to a FIFO', root: '', build: (tree) => (mkfifo(join(tree, 'p.fifo')), symlinkSync('../p.fifo', join(tree, 'sub', '.ignore')), 'sub/.ignore') },
  { name: "the root's parent's .ignore", root: 'sub', build: (tree) => (mkfifo(join(tree, '.ignore')), join(tree, '.ignore')) },
  // A worktree: sub/.git names its gitdir, whose commondir names the common dir with info/exclude (the regression adversary's).
  { name: "worktree sub/.git: the common dir's info/exclude", root: '', build: (tree) => worktree(tree, 'exclude') },
  { name: "worktree sub/.git: the gitdir's commondir", root: '', build: (tree) => worktree(tree, 'commondir') },
];

/** sub/ a worktree whose git files live beside the tree; `fifo`: which of them is a FIFO (its native path returned). */
function worktree(tree: string, fifo: 'exclude' | 'commondir'): string {
  const gitdir = `${tree}-gitdir`;
  const common = `${tree}-common`;
  mkdirSync(join(common, 'info'), { recursive: true });
  mkdirSync(gitdir);
  writeFileSync(join(tree, 'sub', '.git'), `gitdir: ${gitdir}\n`);
  if (fifo === 'commondir') {
    mkfifo(join(gitdir, 'commondir'));
    return join(gitdir, 'commondir');
  }
  writeFileSync(join(gitdir, 'commondir'), `../${basename(common)}\n`);
  mkfifo(join(common, 'info', 'exclude'));
  return join(common, 'info', 'exclude');
}

const MANY = Array.from({ length: 600 }, (_, i) => `a-file-with-a-name-long-enough-to-fill-a-buffer-${i}.txt`);

function buildTree(shape: Shape, i: number): { tree: string; fifo: string } {
  const tree = join(base, `t${i}`);
  mkdirSync(join(tree, 'sub'), { recursive: true });
  writeFileSync(join(tree, 'top.txt'), 'other\n');
  writeFileSync(join(tree, 'sub', 'a.txt'), 'needle\n');
  const fifo = shape.build(tree);
  if (shape.name.startsWith('deep')) writeFileSync(join(tree, 'sub', 'er', 'b.txt'), 'needle\n');
  if (shape.name.endsWith('600 files')) for (const name of MANY) writeFileSync(join(tree, name), '');
  return { tree, fifo };
}

/** Runs `body` (an async function's text over `lib`, `cases`) in a child; it must print JSON within `seconds`. */
function inChild(body: string, cases: unknown, seconds: number): Promise<unknown> {
  return jsonFromChild(`const lib = await import(${JSON.stringify(DIST)}); const cases = ${JSON.stringify(cases)};\n${body}`, seconds);
}

/**
 * `inChild` for a beforeAll that runs many tests' cases, in groups (each group's cases side by side,
 * the groups one after another), their answers in order: a child that fails (a hang past its
 * deadline) fails each of those tests with its error, and not the others of the group (the command's).
 */
async function childAnswers(body: string, groups: unknown[][], seconds: number): Promise<unknown[]> {
  try {
    return (await inChild(body, groups, seconds)) as unknown[];
  } catch (error) {
    return groups.flat().map(() => ({ error: `the child failed: ${error instanceof Error ? error.message : String(error)}` }));
  }
}

/** One search, in every engine and form, as the child runs it: what it answered, in how long. */
const SEARCH = `
async function search({ fn, backend, root, budget, ignoreFiles, gitignore = true }) {
  const o = { root, backend, gitignore, ...(budget ? { timeBudgetMs: budget } : {}), ...(ignoreFiles ? { ignoreFiles } : {}) };
  const t = Date.now();
  try {
    let r;
    if (fn === 'findFiles') r = await lib.findFiles({ ...o, pattern: '**/*.txt' });
    else if (fn === 'findFilesStream') {
      const s = lib.findFilesStream({ ...o, pattern: '**/*.txt' });
      const matches = [];
      for await (const path of s) matches.push(path);
      r = { ...(await s.summary), matches };
    } else if (fn === 'searchContent') r = await lib.searchContent({ ...o, query: 'needle' });
    else {
      const s = lib.searchContentStream({ ...o, query: 'needle' });
      const hits = [];
      for await (const hit of s) hits.push(hit);
      r = { ...(await s.summary), hits };
    }
    const found = (r.matches ?? r.hits.map((h) => h.path)).slice().sort();
    return { ms: Date.now() - t, found, complete: r.complete, reasons: r.incompleteReasons, skipped: r.skipped, backend: r.backend, fallback: r.fallbackReason ?? null, failure: r.recovery?.failureKind ?? null };
  } catch (e) {
    return { ms: Date.now() - t, error: e.code ?? String(e) };
  }
}
const answers = [];
for (const group of cases) answers.push(...(await Promise.all(group.map(search))));
console.log(JSON.stringify(answers));`;

const FORMS = ['findFiles', 'findFilesStream', 'searchContent', 'searchContentStream'] as const;
const BACKENDS = ['walker', 'ripgrep', 'auto'] as const;
const BUDGETS = [undefined, 20_000] as const;

interface Answer {
  ms: number;
  found?: string[];
  complete?: boolean;
  reasons?: string[];
  skipped?: { path: string; code: string }[];
  backend?: string;
  fallback?: string | null;
  failure?: string | null;
  error?: string;
}

describeIf(posix('mkfifo'), needsRg)('a FIFO where ripgrep reads an ignore file: every engine answers, none hangs', () => {
  /** Each shape's FIFO and cases, built in beforeAll, with its cases' answers in order. */
  interface Built {
    fifo: string;
    run: { fn: (typeof FORMS)[number]; backend: (typeof BACKENDS)[number]; root: string; budget: number | undefined }[];
    answers: Answer[];
  }
  const built: Built[] = [];
  const OFF = ['findFiles', 'searchContent'].flatMap((fn) => ['ripgrep', 'auto'].map((backend) => ({ fn, backend })));
  let offAnswers: Answer[] = [];

  // Every shape's cases, and the ignore-files-off ones, in one child: Node starts and imports the
  // library once, not twelve times (~0.07 s of CPU each). A shape's cases run side by side, each
  // waiting out the stall check's 1 s of silence beside the others, and the shapes one after
  // another: all ~290 searches side by side took 15-16 s each under npm run test:busy, past the 10 s
  // an answer may take. The tests read their own answers.
  beforeAll(async () => {
    for (const [i, shape] of SHAPES.entries()) {
      const { tree, fifo } = buildTree(shape, i);
      const root = join(tree, shape.root);
      const cases = FORMS.flatMap((fn) => BACKENDS.flatMap((backend) => BUDGETS.map((budget) => ({ fn, backend, root, budget }))));
      // Forced ripgrep is refused by the walker-only stream: not a case.
      built.push({ fifo, run: cases.filter((c) => !(c.fn === 'findFilesStream' && c.backend === 'ripgrep')), answers: [] });
    }
    const off = buildTree(SHAPES[0]!, 100).tree;
    const groups = [...built.map((b) => b.run), OFF.map((c) => ({ ...c, root: off, gitignore: false }))];
    // A ceiling for a hang: 13 groups of ~1-2 s each idle, several times that on a busy machine.
    const answers = (await childAnswers(SEARCH, groups, 240)) as Answer[];
    let k = 0;
    for (const b of built) b.answers = b.run.map(() => answers[k++]!);
    offAnswers = answers.slice(k);
  }, 300_000);

  it.each(SHAPES.map((shape, i) => [shape.name, shape, i] as const))('%s: walker, ripgrep, auto x 4 forms x with and without a budget', (_, shape, i) => {
    const { fifo, run, answers } = built[i]!;
    expect(answers).toHaveLength(run.length);
    const under = shape.root === '' ? 'sub/' : '';
    const content = [`${under}a.txt`, ...(shape.name.startsWith('deep') ? [`${under}er/b.txt`] : [])].sort();
    const files = shape.root === '' ? [...content, 'top.txt', ...(shape.name.endsWith('600 files') ? MANY : [])].sort() : content;
    run.forEach((c, k) => {
      const answer = answers[k]!;
      const label = `${shape.name} ${c.fn} ${c.backend} budget=${c.budget}: ${JSON.stringify(answer).slice(0, 600)}`;
      expect(answer.error, label).toBeUndefined();
      // The stall check comes after 1 s of silence: an answer well inside the budget, never the budget's end.
      expect(answer.ms, label).toBeLessThan(10_000);
      const expected = c.fn.startsWith('find') ? files : content;
      // Content search hands each hit on as found: after one, auto keeps ripgrep's answer (as after any failure), stopped, not hung.
      const handedOn = c.backend === 'auto' && c.fn.startsWith('search') && answer.backend === 'ripgrep';
      if (c.backend === 'ripgrep' || handedOn) {
        if (handedOn) expect(answer.found!.length, label).toBeGreaterThan(0);
        // Stopped, not hung: what it listed before it blocked, incomplete, the FIFO named.
        expect(answer.complete, label).toBe(false);
        expect(answer.failure, label).toBe('blocked');
        expect(answer.reasons, label).toContain('io-error');
        expect(answer.skipped, label).toContainEqual({ path: fifo, code: 'FF_SPECIAL_IGNORE_FILE' });
        for (const path of answer.found!) expect(expected, label).toContain(path);
        return;
      }
      // The walker never opens it (not a gap: a special file is no ignore file), and auto answers as the walker does.
      expect(answer.found, label).toEqual(expected);
      expect(answer.complete, label).toBe(true);
      expect(answer.backend, label).toBe('walker');
      if (c.backend === 'auto' && c.fn !== 'findFilesStream') expect([answer.fallback, answer.failure], label).toEqual(['blocked', 'blocked']);
    });
  });

  it('ignore files off: ripgrep never opens them, and answers as before (nothing is checked)', () => {
    expect(offAnswers).toHaveLength(OFF.length);
    for (const answer of offAnswers) expect([answer.complete, answer.backend, answer.failure]).toEqual([true, 'ripgrep', null]);
  });

  it('the command, with its defaults (`--contains` runs auto, ignore files on): answers, complete', () => {
    const { tree } = buildTree(SHAPES[0]!, 101);
    const run = spawnSync(process.execPath, [BIN, '--contains', 'needle'], { cwd: tree, encoding: 'utf8', timeout: 20_000, env: cleanEnv() });
    expect(run.error, 'the command did not answer within 20 s').toBeUndefined();
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toBe('sub/a.txt:1:1: needle\n');
    expect(run.stderr).toContain('complete');
  });
});

describeIf(posix('mkfifo'), needsRg)('`ignoreFiles` naming a FIFO, a link to one or a device: every engine rejects at once', () => {
  const tree = join(base, 'named');
  mkdirSync(tree, { recursive: true });
  writeFileSync(join(tree, 'a.txt'), 'needle\n');
  const named = { fifo: join(base, 'rules.fifo'), link: join(base, 'rules.link'), device: '/dev/null', directory: tree };
  const cases = FORMS.flatMap((fn) => BACKENDS.flatMap((backend) => [undefined, 1000].map((budget) => ({ fn, backend, root: tree, budget }))));
  const run = cases.filter((c) => !(c.fn === 'findFilesStream' && c.backend === 'ripgrep'));
  // Each kind's cases, all in one child (one Node start, not four); each test reads its kind's answers.
  const answers = new Map<string, Answer[]>();
  beforeAll(async () => {
    mkfifo(named.fifo);
    mkfifo(named.link + '.target');
    symlinkSync(named.link + '.target', named.link);
    const kinds = Object.values(named);
    const all = (await childAnswers(SEARCH, [kinds.flatMap((file) => run.map((c) => ({ ...c, ignoreFiles: [file] })))], 20)) as Answer[];
    Object.keys(named).forEach((kind, i) => answers.set(kind, all.slice(i * run.length, (i + 1) * run.length)));
  }, 60_000);
  it.each(Object.keys(named))('%s: walker, ripgrep, auto x 4 forms x with and without a budget: FF_IGNORE_FILE', (kind) => {
    const got = answers.get(kind)!;
    expect(got).toHaveLength(run.length);
    run.forEach((c, k) => expect(got[k], `${kind} ${c.fn} ${c.backend} budget=${c.budget}`).toMatchObject({ error: 'FF_IGNORE_FILE' }));
  });

  it('the command: `--contains needle --ignore-file FIFO` fails at once (status 1), with or without a budget', () => {
    const fifo = join(base, 'cli.fifo');
    mkfifo(fifo);
    for (const budget of [[], ['--time-budget-ms', '1000']]) {
      const run = spawnSync(process.execPath, [BIN, '--contains', 'needle', '--ignore-file', fifo, ...budget], { cwd: tree, encoding: 'utf8', timeout: 20_000, env: cleanEnv() });
      expect(run.error, 'the command did not answer within 20 s').toBeUndefined();
      expect([run.status, run.stdout, run.stderr]).toEqual([1, '', `find-file: error: ignore file ${fifo} cannot be read (it does not exist, is not a regular file, or access is denied)\n`]);
    }
  });
});

describe('the stall check', () => {
  it('is armed only where ripgrep reads ignore files in the tree', async () => {
    const { buildStallWatch } = await import('../../src/rg/blocking.js');
    const { buildFindPlan } = await import('../../src/plan/search-plan.js');
    const { Deadline } = await import('../../src/limits.js');
    const deadline = (plan: { limits: { clock: never } }) => new Deadline(plan.limits.clock, Infinity);
    const on = buildFindPlan({ root: base, pattern: '*', gitignore: true });
    const off = buildFindPlan({ root: base, pattern: '*', gitignore: false, ignoreFiles: [join(base, 'x')] });
    expect(buildStallWatch(on, deadline(on as never))).toBeDefined();
    expect(buildStallWatch(off, deadline(off as never))).toBeUndefined();
  });
});

/** The pids of the processes whose parent is `ppid` and whose command is `name` (Linux /proc). */
function childrenOf(ppid: number, name: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const [, comm, rest] = /^\d+ \((.*)\) (.*)$/s.exec(stat) ?? [];
      if (comm === name && Number(rest!.split(' ')[1]) === ppid) pids.push(Number(entry));
    } catch {
      // gone while read
    }
  }
  return pids;
}

/** Alive and not a zombie. */
const isRunning = (pid: number) => existsSync(`/proc/${pid}`) && !/^\d+ \(.*\) Z/s.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));

describeIf(linux('/proc names the children'), needsRg)('a process ended by SIGTERM leaves no ripgrep running', () => {
  it.each(['SIGTERM', 'SIGHUP'] as const)('%s to node alone, ripgrep blocked on a FIFO .gitignore: ripgrep is killed, node ends by the signal', async (signal) => {
    const { tree } = buildTree(SHAPES[0]!, signal === 'SIGTERM' ? 102 : 103);
    const script = `const lib = await import(${JSON.stringify(DIST)}); await lib.searchContent({ root: ${JSON.stringify(tree)}, query: 'needle', gitignore: true, backend: 'ripgrep' }); console.log('answered');`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    const ended = new Promise<string | null>((resolve) => child.on('exit', (_, how) => resolve(how)));
    let rg: number[] = [];
    // Before the stall check (1 s): ripgrep is there, blocked.
    for (let waited = 0; rg.length === 0 && waited < 900; waited += 20) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      rg = childrenOf(child.pid!, 'rg');
    }
    expect(rg, 'ripgrep was started').toHaveLength(1);
    child.kill(signal);
    expect(await ended).toBe(signal);
    // The kill is sent before node ends; a loaded machine may take a while to run ripgrep's death.
    for (let waited = 0; isRunning(rg[0]!) && waited < 5000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
    const orphan = isRunning(rg[0]!);
    if (orphan) process.kill(rg[0]!); // the test's own leftover, by its pid
    expect(orphan, 'ripgrep outlived the node that started it').toBe(false);
  });
});
