/** A process's CPU in seconds (its own, its reaped children's) and its parent: scripts/proc-stat.mjs. */
export interface ProcStat {
  ppid: number;
  own: number;
  reaped: number;
}

export function readProcStat(path?: string): ProcStat | undefined;
