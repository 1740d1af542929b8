/**
 * Whole-process times, hyperfine-style but in node: each command prints every file of a tree to
 * /dev/null, run in turn (interleaved, so that a noisy neighbour hurts every command alike), after
 * one warm-up run each; the median wall time is kept. Peak RSS comes from GNU time (`/usr/bin/time
 * -f %M`) on separate runs, so that its own fork does not add to the times.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './stats.mjs';

const BENCH = path.dirname(path.dirname(fileURLToPath(import.meta.url))); // bench/ (this file is bench/lib/process.mjs)
const REPO = path.dirname(BENCH);
export const CLI = path.join(REPO, 'bin', 'find-file.mjs');
const GNU_TIME = '/usr/bin/time';

/** The executable `command` on the PATH, or undefined. */
export function which(command) {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const full = path.join(dir, command);
    try {
      fs.accessSync(full, fs.constants.X_OK);
      return full;
    } catch {
      // not here
    }
  }
  return undefined;
}

/**
 * The Node scripts that print every file of the tree they run in, by the name `suites/profile.mjs …
 * cli` knows them: the whole-process table runs them and the `cli` profile profiles them, the same
 * command lines. `-u`: the command reads ignore files by default (as fd and rg) and leaves `.git/`
 * out; every other command here lists everything, so find-file does too (same lines, same work).
 */
export const NODE_LISTERS = {
  'find-file CLI': [CLI, '**/*', '-u'],
  'fdir CLI': [path.join(BENCH, 'targets', 'fdir-cli.mjs'), '.'],
  'stream script': [path.join(BENCH, 'targets', 'stream-cli.mjs'), '.'],
};

/** The commands, each printing every regular file of the tree it runs in (cwd = the tree's root). */
export function processCommands() {
  const node = process.execPath;
  const rg = fs.existsSync('/usr/bin/rg') ? '/usr/bin/rg' : which('rg');
  const fd = which('fdfind') ?? which('fd');
  return [
    { name: 'find-file CLI', file: node, args: NODE_LISTERS['find-file CLI'], missing: fs.existsSync(CLI) ? undefined : 'bin/find-file.mjs does not exist yet' },
    { name: 'fdir CLI (bench/targets/fdir-cli.mjs)', file: node, args: NODE_LISTERS['fdir CLI'] },
    { name: 'findFilesStream script (bench/targets/stream-cli.mjs)', file: node, args: NODE_LISTERS['stream script'] },
    { name: 'GNU find -type f', file: 'find', args: ['.', '-type', 'f'], missing: which('find') ? undefined : 'find is not installed' },
    { name: 'rg --files -uu', file: rg ?? 'rg', args: ['--files', '-uu'], missing: rg ? undefined : 'ripgrep is not installed (apt-get install ripgrep)' },
    { name: 'fdfind -u -t f', file: fd ?? 'fdfind', args: ['-u', '-t', 'f'], missing: fd ? undefined : 'fd is not installed (apt-get install fd-find)' },
    { name: 'node -e 0 (start-up only)', file: node, args: ['-e', '0'], startupOnly: true },
  ];
}

/** An argument as a reader would type it: repository files relative to the repository. */
function showArg(arg) {
  return path.isAbsolute(arg) && arg.startsWith(REPO + path.sep) ? path.relative(REPO, arg) : arg;
}

function timeOnce(command, cwd, devNull) {
  const started = process.hrtime.bigint();
  const result = spawnSync(command.file, command.args, { cwd, stdio: ['ignore', devNull, 'ignore'] });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0) throw new Error(`${command.name} exited with ${result.status ?? result.signal}`);
  return ms;
}

function countLines(command, cwd) {
  const result = spawnSync(command.file, command.args, { cwd, stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 1 << 30 });
  let lines = 0;
  for (let i = 0; i < result.stdout.length; i++) if (result.stdout[i] === 10) lines++;
  return lines;
}

function peakRssBytes(command, cwd) {
  if (!fs.existsSync(GNU_TIME)) return NaN;
  const out = path.join(os.tmpdir(), `find-file-bench-rss-${process.pid}.txt`);
  const result = spawnSync(GNU_TIME, ['-f', '%M', '-o', out, command.file, ...command.args], { cwd, stdio: ['ignore', 'ignore', 'ignore'] });
  const kib = result.status === 0 ? Number(fs.readFileSync(out, 'utf8').trim().split('\n').pop()) : NaN;
  fs.rmSync(out, { force: true });
  return kib * 1024;
}

/**
 * Runs every available command `runs` times on `root`; returns one record per command with its
 * median, all samples, line count and peak RSS, or the reason it was skipped.
 */
export function measureProcesses(root, { runs, log = console.log }) {
  const commands = processCommands();
  const devNull = fs.openSync('/dev/null', 'w');
  // Warm-up (page cache, code cache), which also finds a command that cannot run here.
  for (const c of commands) {
    if (c.missing) continue;
    try {
      timeOnce(c, root, devNull);
    } catch (error) {
      c.missing = error.message;
    }
  }
  for (const c of commands) if (c.missing) log(`  skipping ${c.name}: ${c.missing}`);
  const available = commands.filter((c) => !c.missing);
  const samples = new Map(available.map((c) => [c.name, []]));
  try {
    for (let run = 0; run < runs; run++) {
      // Rotate the order each run: no command always follows the same neighbour.
      for (let i = 0; i < available.length; i++) {
        const c = available[(run + i) % available.length];
        samples.get(c.name).push(timeOnce(c, root, devNull));
      }
    }
  } finally {
    fs.closeSync(devNull);
  }
  return commands.map((c) => {
    if (c.missing) return { name: c.name, skipped: c.missing };
    const rss = [0, 1, 2].map(() => peakRssBytes(c, root));
    return {
      name: c.name,
      command: [path.basename(c.file), ...c.args.map(showArg)].join(' '),
      medianMs: median(samples.get(c.name)),
      samplesMs: samples.get(c.name),
      lines: c.startupOnly ? 0 : countLines(c, root),
      peakRssBytes: median(rss),
      startupOnly: c.startupOnly === true,
    };
  });
}
