/**
 * Runs one program many times, each with its own arguments, from a single bash: for an oracle tool
 * (fd) asked one question per run. A fork from vitest's worker, whose memory grows with every file
 * it has run (isolate: false), costs many times one from a small bash (docs/reliability.md), and
 * each run's own stdout, stderr and status are kept apart (in files: an answer may hold NULs).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface EachRun {
  status: number;
  stdout: string;
  stderr: string;
}

/** Each argument list is preceded by its length; bash never parses an argument as code (`"${@:1:n}"`). */
const SCRIPT = `
program=$1 out=$2; shift 2; i=0
while (( $# )); do
  n=$1; shift
  "$program" "\${@:1:n}" >"$out/$i.out" 2>"$out/$i.err"
  echo $? >"$out/$i.status"
  shift "$n"; i=$((i + 1))
done`;

/** `program argv...` for every argv, in `cwd`, one after another; their answers in the same order. */
export function runEach(program: string, argvs: readonly (readonly string[])[], cwd: string, env: NodeJS.ProcessEnv = process.env): EachRun[] {
  const out = mkdtempSync(join(tmpdir(), 'ff-run-each-'));
  try {
    const args = argvs.flatMap((argv) => [String(argv.length), ...argv]);
    const run = spawnSync('bash', ['--norc', '--noprofile', '-c', SCRIPT, 'bash', program, out, ...args], { cwd, env, encoding: 'utf8' });
    if (run.error !== undefined || run.status !== 0) throw new Error(`bash running ${program} failed (${run.status}): ${run.error?.message ?? run.stderr}`);
    return argvs.map((_, i) => ({
      status: Number(readFileSync(join(out, `${i}.status`), 'utf8')),
      stdout: readFileSync(join(out, `${i}.out`), 'utf8'),
      stderr: readFileSync(join(out, `${i}.err`), 'utf8'),
    }));
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}
