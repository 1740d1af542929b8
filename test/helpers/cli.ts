/**
 * The harness of the end-to-end CLI tests (test/cli/): run the real bin/find-file.mjs with `node`
 * (no shell) on a real temp tree, as fd's `tests/testenv` does, and read what a user or a script
 * sees: stdout, stderr, the exit status.
 *
 * - `runFindFile` runs it to the end; as root, `asUser` runs it as nobody (real permissions; a file
 *   with such runs calls `prepareAsUser` in `beforeAll` and `releaseAsUser` in `afterAll`);
 *   an env naming a `FIND_FILE_TEST_*` variable preloads test/helpers/cli-test-fs.mjs, which delays
 *   or fails chosen directory reads;
 * - `spawnFindFile` and `collect` run it in the background (to close its pipe or interrupt it);
 * - `inTerminal` runs it on a pseudo-terminal (POSIX `script`).
 */
import { spawn, spawnSync, type ChildProcess, type SpawnSyncOptions } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildNobodySandbox } from './unprivileged.js';

export const BIN = fileURLToPath(new URL('../../bin/find-file.mjs', import.meta.url));
const LOADER = fileURLToPath(new URL('../../bin/load-bundle.mjs', import.meta.url));
export const TEST_FS = fileURLToPath(new URL('./cli-test-fs.mjs', import.meta.url));
export const VERSION: string = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version;
export const isPosix = process.platform !== 'win32';
const isRoot = process.getuid?.() === 0;

export interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  cwd: string;
  env?: Record<string, string>;
  /** Run as an unprivileged user (when we are root, who reads everything). */
  asUser?: boolean;
}

/** An environment without the caller's colour or ripgrep settings leaking in. */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  for (const name of ['NO_COLOR', 'FORCE_COLOR', 'FIND_FILE_RG', 'NODE_OPTIONS']) if (!(name in extra)) delete env[name];
  // Windows spells it Path: replace every spelling, or the child would see two.
  if ('PATH' in extra) for (const name of Object.keys(env)) if (name.toUpperCase() === 'PATH' && name !== 'PATH') delete env[name];
  return env;
}

let nobodyCommand: { node: string; bin: string; dir: string } | undefined;

/**
 * As root, the unprivileged run cannot use this checkout (CI's clone may sit under a 0700 folder):
 * it gets a copy of the command, in a sandbox everyone can read (test/helpers/unprivileged.ts).
 */
function commandForNobody(): { node: string; bin: string } {
  if (nobodyCommand === undefined) {
    const sandbox = buildNobodySandbox();
    const bin = join(sandbox.dir, 'bin', 'find-file.mjs');
    // The bin and the loader it imports (bin/load-bundle.mjs).
    for (const file of [BIN, LOADER]) {
      const copy = join(sandbox.dir, 'bin', basename(file));
      copyFileSync(file, copy);
      chmodSync(copy, 0o644);
    }
    const manifest = join(sandbox.dir, 'package.json');
    writeFileSync(manifest, JSON.stringify({ type: 'module', version: VERSION }));
    chmodSync(manifest, 0o644);
    nobodyCommand = { node: sandbox.reachable(process.execPath), bin, dir: sandbox.dir };
  }
  return nobodyCommand;
}

/**
 * For a file with `asUser` runs: as root, builds their copy of the command in `beforeAll`, whose
 * timeout is sized for it. Built inside the first such test instead, it took that test's time: the
 * first compile of a run takes seconds (tens on a busy machine), and it once ran a test past its 30 s.
 */
export function prepareAsUser(): void {
  if (isRoot) commandForNobody();
}

/** Removes the copy `prepareAsUser` built (for `afterAll`). */
export function releaseAsUser(): void {
  if (nobodyCommand !== undefined) rmSync(nobodyCommand.dir, { recursive: true, force: true });
  nobodyCommand = undefined;
}

/** Runs the command to the end. */
export function runFindFile(args: string[], options: RunOptions): Run {
  // maxBuffer: a test may print tens of MB (the --json cap's); Node's default 1 MiB fails the spawn (ENOBUFS).
  const spawnOptions: SpawnSyncOptions = { cwd: options.cwd, env: cleanEnv(options.env), encoding: 'utf8', timeout: 20_000, maxBuffer: 256 << 20 };
  let node = process.execPath;
  let bin = BIN;
  // Root reads everything: the permission cases run the command as an unprivileged user.
  if (options.asUser && isRoot) {
    ({ node, bin } = commandForNobody());
    Object.assign(spawnOptions, { uid: 65534, gid: 65534 });
  }
  const preload = Object.keys(options.env ?? {}).some((name) => name.startsWith('FIND_FILE_TEST_')) ? ['--import', TEST_FS] : [];
  const result = spawnSync(node, [...preload, bin, ...args], spawnOptions);
  if (result.error) throw result.error;
  return { status: result.status, stdout: String(result.stdout), stderr: String(result.stderr) };
}

/** Starts the command in the background with test/helpers/cli-test-fs.mjs preloaded (`env` sets its delays and faults). */
export function spawnFindFile(args: string[], options: { cwd: string; env: Record<string, string> }): ChildProcess {
  return spawn(process.execPath, ['--import', TEST_FS, BIN, ...args], { cwd: options.cwd, env: cleanEnv(options.env), stdio: ['ignore', 'pipe', 'pipe'] });
}

/** What a background run printed, and its status, once it has ended. */
export function collect(child: ChildProcess): Promise<Run> {
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((done) => child.on('close', (status) => done({ status, stdout, stderr })));
}

/** Runs the command with stdin, stdout and stderr on a pseudo-terminal (via `script`); returns what the terminal showed. */
export function inTerminal(args: string[], cwd: string, env: Record<string, string>): Run {
  const { command, argv, options } = terminalRun(args, cwd, env);
  const result = spawnSync(command, argv, { ...options, encoding: 'utf8', timeout: 20_000 });
  if (result.error) throw result.error;
  return { status: result.status, stdout: result.stdout.replace(/\r\n/g, '\n'), stderr: result.stderr };
}

/** The same in the background: tests run side by side (`concurrent`) go on while it runs. */
export async function inTerminalAsync(args: string[], cwd: string, env: Record<string, string>): Promise<Run> {
  const { command, argv, options } = terminalRun(args, cwd, env);
  const child = spawn(command, argv, { ...options, timeout: 20_000 });
  const run = await new Promise<Run>((done, fail) => {
    child.once('error', fail);
    void collect(child).then(done);
  });
  return { ...run, stdout: run.stdout.replace(/\r\n/g, '\n') };
}

function terminalRun(args: string[], cwd: string, env: Record<string, string>) {
  const argv = [process.execPath, ...(env.FIND_FILE_TEST_SLOW_MS ? ['--import', TEST_FS] : []), BIN, ...args];
  // util-linux `script` runs one command line through a shell, so each element is quoted; BSD
  // (macOS) `script` takes the argv itself.
  const scriptArgs = process.platform === 'linux' ? ['-qfec', argv.map(shellQuote).join(' '), '/dev/null'] : ['-q', '/dev/null', ...argv];
  const options = { cwd, env: cleanEnv({ ...env, SHELL: '/bin/sh', TERM: 'xterm' }), stdio: ['ignore', 'pipe', 'pipe'] as ['ignore', 'pipe', 'pipe'] };
  return { command: 'script', argv: scriptArgs, options };
}

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** The non-empty lines of some output. */
export function lines(text: string): string[] {
  return text.split('\n').filter((line) => line !== '');
}

/** What printed JSON must equal: the library's result, minus the one field that depends on timing. */
export function comparable<T extends { stats?: { elapsedMs: number } }>(result: Partial<T>): unknown {
  const { stats, ...rest } = result;
  if (stats === undefined) return rest;
  const { elapsedMs: _elapsedMs, ...counters } = stats;
  return { ...rest, stats: counters };
}

/** Writes a tree: each file holds its own path, or the content given for it. */
export function writeTree(root: string, files: string[] | Record<string, string | Buffer>): void {
  const entries = Array.isArray(files) ? files.map((file) => [file, file] as const) : Object.entries(files);
  for (const [file, data] of entries) {
    mkdirSync(join(root, file, '..'), { recursive: true });
    writeFileSync(join(root, file), data);
  }
}

/** The path separator of the platform: what the command prints. */
export function sep(): string {
  return resolve('/') === '/' ? '/' : '\\';
}

/** A root-relative `/` path as the command prints it on this platform. */
export function native(rel: string): string {
  return rel.split('/').join(sep());
}

/** The text as a literal in a regular expression. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Waits until `condition` holds (polled every 20 ms: the condition is a file the command writes).
 * The limit is a ceiling for a hang, not a speed check: a command starting on a busy machine may
 * take seconds, so it is the test's own timeout (60 s) less room to report.
 */
export async function waitFor(condition: () => boolean, timeoutMs = 45_000): Promise<void> {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for the command to reach the point the test waits for`);
    await new Promise((later) => setTimeout(later, 20));
  }
}

/**
 * A complete empty answer's absence clause over a tree that, on POSIX, holds a symlinked directory
 * the pattern leads into (src-link -> src, link-to-docs): absence is claimed outside such links
 * only (issue 27). `aside` is what left out by choice; the clause ends where the headline does.
 */
export function absenceOutsideLinks(what: string, aside = ''): string {
  return isPosix ? `no matching ${what} outside symlinked directories${aside};` : `so no matching ${what} exists there${aside}\n`;
}
