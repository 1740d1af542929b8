/**
 * The long search's tree (bench/suites/waits.mjs): issue 31's long-search row is "a search where rg
 * itself takes a second or more". Not /usr: ripgrep's own folder is there, and find-file never runs
 * an rg found inside the searched root; and /usr/lib alone takes rg ~0.45 s on this project's
 * machine. So: /usr/lib twice and /usr/share, as hard links in bench/.scratch/long-search (the same
 * files, read from the same page cache; no data copied), ~1.1 s for rg. Built once; the fallback
 * (/usr/lib) where links cannot be made, whatever the reason (another filesystem, a scratch folder
 * that cannot be written, no GNU cp): the benchmark then says so and runs, it does not fail.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

export const LONG_PARTS = [['lib', '/usr/lib'], ['lib-again', '/usr/lib'], ['share', '/usr/share']];

/**
 * The corpus under `scratch` (its `long-search` folder), built where a part lacks its `.complete`
 * marker, or `fallback` with a line on stderr. Deletes nothing but `scratch/long-search` and its parts.
 * `cp`: the command that links (tests name one that does not exist).
 */
export function longCorpus(scratch, { parts = LONG_PARTS, fallback = '/usr/lib', cp = 'cp' } = {}) {
  const corpus = path.join(scratch, 'long-search');
  const giveUp = (source, why) => {
    console.error(`long search: no hard links from ${source} (${why}): searching ${fallback} instead`);
    try {
      fs.rmSync(corpus, { recursive: true, force: true });
    } catch {
      // What could not be written may not be removable either: the next run tries again.
    }
    return fallback;
  };
  if (parts.every(([name]) => fs.existsSync(path.join(corpus, name, '.complete')))) return corpus;
  for (const [name, source] of parts) {
    const target = path.join(corpus, name);
    try {
      if (fs.existsSync(path.join(target, '.complete'))) continue;
      fs.mkdirSync(corpus, { recursive: true });
      fs.rmSync(target, { recursive: true, force: true });
      // GNU cp: -a keeps the tree as it is (links not followed), -l links each file instead of copying it.
      const run = spawnSync(cp, ['-al', '--', source, target], { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
      // A cp that could not start has no stderr (spawnSync's `error`, e.g. ENOENT): it was read as a string.
      if (run.status !== 0) return giveUp(source, run.error?.message ?? run.stderr?.trim().split('\n')[0] ?? `status ${run.status}`);
      fs.writeFileSync(path.join(target, '.complete'), '');
    } catch (error) {
      return giveUp(source, error instanceof Error ? error.message : String(error));
    }
  }
  return corpus;
}
