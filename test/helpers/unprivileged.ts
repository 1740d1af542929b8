/**
 * Running find-file as a user who can really be denied: root reads every directory, so a real
 * `chmod 000` test run as root proves nothing. As root, the search is re-run in a child process as
 * uid/gid 65534 (nobody) through `setpriv` (util-linux) or `runuser`.
 *
 * The child cannot be trusted to see the project: CI runs from a fresh clone in an unknown folder
 * (often under /root, mode 0700). So everything it needs is put in a temp dir readable by all: the
 * sources compiled there by tsc, or the project's `dist/` when its build is newer than every input
 * of the build (never a stale one), the runtime dependencies, the probe script,
 * and, when the unprivileged user cannot execute them where they are, copies of `node` and `rg`.
 */
import { execFile, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';

const PROJECT = fileURLToPath(new URL('../..', import.meta.url));
const NOBODY = 65534;

export const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

/** How to run a command as nobody, or undefined when this machine has no way. */
export function dropPrivilegesPrefix(): string[] | undefined {
  const has = (cmd: string) => spawnSync(cmd, ['--help'], { stdio: 'ignore' }).error === undefined;
  if (has('setpriv')) return ['setpriv', `--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', '--'];
  if (has('runuser')) return ['runuser', '-u', 'nobody', '--'];
  return undefined;
}

/** Makes a directory tree readable (and traversable) by everyone. */
function openUp(path: string): void {
  const stats = statSync(path);
  chmodSync(path, stats.isDirectory() ? 0o755 : stats.mode & 0o111 ? 0o755 : 0o644);
  if (stats.isDirectory()) for (const name of readdirSync(path)) openUp(join(path, name));
}

/** Finds `name` as Node would from `from`: in node_modules folders up to the project root. */
function locatePackage(from: string, name: string): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dir === PROJECT || dirname(dir) === dir) return undefined;
  }
}

/**
 * Copies the package's production dependencies, and theirs, into `dest`, each at the same place
 * relative to the project (nested `node_modules` included), so Node resolves them as it does here.
 */
function copyRuntimeDependencies(dest: string): void {
  const copied = new Set<string>();
  const queue = [PROJECT];
  while (queue.length > 0) {
    const dir = queue.shift()!;
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    for (const name of Object.keys(manifest.dependencies ?? {})) {
      const found = locatePackage(dir, name);
      if (found === undefined || copied.has(found)) continue; // an optional dependency not installed
      copied.add(found);
      cpSync(found, join(dest, relative(PROJECT, found)), { recursive: true, dereference: true });
      queue.push(found);
    }
  }
}

export interface Sandbox {
  dir: string;
  /** Runs `node <script> ...args` as nobody; returns stdout, or throws with stderr. */
  runAsNobody(script: string, args: string[], env: Record<string, string>): string;
  /** The same, without blocking the worker: tests run side by side (`it.concurrent`) go on meanwhile. */
  runAsNobodyAsync(script: string, args: string[], env: Record<string, string>): Promise<string>;
  /** An executable path nobody can run: the given one, or a copy in the sandbox. */
  reachable(executable: string): string;
}

/** What `npm run build` reads: a build finished after each of them last changed is what a compile now would give. */
const BUILD_INPUTS = ['src', 'tsconfig.json', 'scripts/bundle.mjs', 'scripts/code-cache.mjs', 'bin/load-bundle.mjs', 'package.json', 'package-lock.json'];
/** What `npm run build` writes: tsc's output (dist/index.js), the bundles, then their compiled code (the server's is the last). */
const BUILD_OUTPUTS = ['dist/index.js', 'dist/lib/index.js', 'dist/mcp/bundle.cjs', 'dist/cli/bundle.cjs', 'dist/cli/bundle.cjs.v8-cache', 'dist/mcp/bundle.cjs.v8-cache'];

function newestChange(path: string): number {
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  return readdirSync(path).reduce((newest, name) => Math.max(newest, newestChange(join(path, name))), stats.mtimeMs);
}

/**
 * The project's dist/ when it was built after every input last changed (`npm test` builds first),
 * else undefined: a copy of it is then what a compile would give, without the compile's 8-10 s of
 * CPU. Anything missing or older (sources edited since, a failed build) means compiling.
 */
function freshBuild(): string | undefined {
  try {
    const built = Math.min(...BUILD_OUTPUTS.map((file) => statSync(join(PROJECT, file)).mtimeMs));
    return BUILD_INPUTS.every((input) => newestChange(join(PROJECT, input)) < built) ? join(PROJECT, 'dist') : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Puts the built package into `dir` with the runtime dependencies beside it: a copy of a fresh
 * dist/, or the sources compiled by tsc and bundled (seconds of CPU).
 */
function compileInto(dir: string): void {
  const fresh = freshBuild();
  if (fresh !== undefined) cpSync(fresh, join(dir, 'dist'), { recursive: true });
  else {
    const require = createRequire(join(PROJECT, 'package.json'));
    const tsc = require.resolve('typescript/bin/tsc');
    const built = spawnSync(process.execPath, [tsc, '-p', join(PROJECT, 'tsconfig.json'), '--outDir', join(dir, 'dist'), '--sourceMap', 'false', '--declaration', 'false'], {
      encoding: 'utf8',
    });
    if (built.status !== 0) throw new Error(`compiling the sources for the unprivileged run failed:\n${built.stdout}${built.stderr}`);
  }
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
  copyRuntimeDependencies(dir);
  if (fresh !== undefined) return;
  // The command runs from its bundle, as the package's build makes it (its dependencies now in place).
  const bundled = spawnSync(process.execPath, [join(PROJECT, 'scripts', 'bundle.mjs'), join(dir, 'dist')], { encoding: 'utf8' });
  if (bundled.status !== 0) throw new Error(`bundling the command for the unprivileged run failed:\n${bundled.stdout}${bundled.stderr}`);
}

/**
 * Fills a new sandbox with the compiled sources. In a vitest run, test/helpers/sandbox-template.ts
 * gives every worker one folder: the first sandbox of the run compiles into it and the others copy
 * it (a copy takes milliseconds; each compile took 8-12 s of CPU, six to seven times a run, and on
 * a busy machine pushed the unprivileged tests towards their timeouts). The sources do not change
 * during a run, so the copy is what a compile would give. Two workers may compile at once: both
 * build in a staging folder and the first rename wins; the other's equal copy is removed.
 */
function fillSandbox(dir: string): void {
  const template = sandboxTemplate();
  if (template === undefined) return compileInto(dir);
  const ready = join(template, 'ready');
  if (!existsSync(ready)) {
    const staging = mkdtempSync(join(template, 'staging-'));
    compileInto(staging);
    try {
      renameSync(staging, ready);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw error;
      rmSync(staging, { recursive: true, force: true });
    }
  }
  cpSync(ready, dir, { recursive: true });
}

/** This run's template folder (vitest's globalSetup provides it), or undefined outside a vitest run that has one. */
function sandboxTemplate(): string | undefined {
  try {
    return inject('sandboxTemplate');
  } catch {
    return undefined;
  }
}

/** Builds the sandbox (the first of a run takes seconds: it compiles the sources; later ones copy them). */
export function buildSandbox(prefix: string[]): Sandbox {
  const dir = mkdtempSync(join(tmpdir(), 'ff-nobody-'));
  fillSandbox(dir);
  mkdirSync(join(dir, 'bin'));
  openUp(dir);

  const canRun = (exe: string) => spawnSync(prefix[0]!, [...prefix.slice(1), exe, '--version'], { stdio: 'ignore', cwd: dir }).status === 0;
  const reachable = (exe: string): string => {
    if (canRun(exe)) return exe;
    const copy = join(dir, 'bin', exe.split(/[\\/]/).pop()!);
    copyFileSync(exe, copy);
    chmodSync(copy, 0o755);
    if (!canRun(copy)) throw new Error(`${exe}: the unprivileged user cannot run it, nor a copy of it`);
    return copy;
  };
  const node = reachable(process.execPath);

  return {
    dir,
    reachable,
    runAsNobody(script, args, env) {
      const result = spawnSync(prefix[0]!, [...prefix.slice(1), node, script, ...args], { cwd: dir, env, encoding: 'utf8' });
      if (result.status !== 0) throw new Error(`unprivileged run failed (${result.status ?? result.signal}):\n${result.stdout}\n${result.stderr}`);
      return result.stdout;
    },
    runAsNobodyAsync(script, args, env) {
      return new Promise((resolve, reject) => {
        // maxBuffer: the oracle's JSON answer can pass execFile's 1 MiB default.
        execFile(prefix[0]!, [...prefix.slice(1), node, script, ...args], { cwd: dir, env, encoding: 'utf8', maxBuffer: 256 << 20 }, (error, stdout, stderr) => {
          if (error) reject(new Error(`unprivileged run failed (${error.code ?? error.signal}):\n${stdout}\n${stderr}`));
          else resolve(stdout);
        });
      });
    },
  };
}

/** The sandbox for running as nobody on this machine; throws when there is no way to drop to nobody. */
export function buildNobodySandbox(): Sandbox {
  const prefix = dropPrivilegesPrefix();
  if (prefix === undefined) throw new Error('running as root, and neither setpriv nor runuser is here to drop to an unprivileged user');
  return buildSandbox(prefix);
}

/** Where a probe script sits in the sandbox, next to its compiled find-file. */
export function writeProbe(sandbox: Sandbox, name: string, source: string): string {
  const file = join(sandbox.dir, name);
  writeFileSync(file, source);
  chmodSync(file, 0o644);
  return file;
}

