/**
 * One process's CPU from /proc/PID/stat (Linux), for scripts/suite-cpu.mjs and the per-file counts
 * it asks the suite for (test/helpers/file-cpu.ts). A process that has ended but is not yet reaped
 * (a zombie) still has its entry and its CPU there.
 */
import { readFileSync } from 'node:fs';

/** /proc counts CPU in clock ticks: 100 a second on Linux (`getconf CLK_TCK`). */
const TICKS = 100;

/**
 * The CPU of the process whose stat file is `path`, in seconds: its own, and its reaped children's
 * (the kernel adds a child's to its parent's when the parent reaps it); and its parent. Undefined
 * once the process is gone.
 */
export function readProcStat(path = '/proc/self/stat') {
  let stat;
  try {
    stat = readFileSync(path, 'utf8');
  } catch {
    return undefined; // ended (and reaped) between a listing of /proc and this read
  }
  // The fields after the command name, which may hold spaces and parentheses: it ends at the last ") ".
  const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ').map(Number);
  // proc(5): ppid is field 4, utime, stime, cutime, cstime 14-17 (1 and 11-14 after the name and state).
  return { ppid: fields[1], own: (fields[11] + fields[12]) / TICKS, reaped: (fields[13] + fields[14]) / TICKS };
}
