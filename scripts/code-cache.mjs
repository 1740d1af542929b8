/**
 * Runs a command's bundle once and keeps the code V8 compiled for it beside it (bin/load-bundle.mjs),
 * with everything that ran compiled in it, so the bins start from compiled code. scripts/bundle.mjs
 * runs this after each build, on whatever Node builds (Node >= 22.1 too, whose bins use its own cache):
 *
 *   node scripts/code-cache.mjs BUNDLE [ARGS...] [--- ARGS...]    (ARGS: a run, e.g. a search; output discarded)
 *
 * Several runs (split by `---`) go in one process, so the code of each is kept: a content search
 * compiled the consumer of ripgrep's events on its first hits, on the main thread while rg ran, when
 * only a listing had made the cache (Round 27 in docs/performance.md).
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { cachePathOf, compileBundle, runBundle } from '../bin/load-bundle.mjs';

const [path, ...args] = process.argv.slice(2);
const runs = [[]];
for (const arg of args) (arg === '---' ? runs.push([]) : runs.at(-1).push(arg));
const bundle = resolve(path);
const { script, mark } = compileBundle(bundle);
if (mark === undefined) throw new Error(`${bundle} does not end with its mark (scripts/bundle.mjs writes it)`);
let failed = false;
// At the end of the run: the code of every function that ran is compiled by then.
process.once('exit', () => failed || writeFileSync(cachePathOf(bundle), Buffer.concat([mark, script.createCachedData()])));
const { main } = runBundle(script, bundle);
// The command ends with process.exit: every run but the last ends where it asks for it instead (the
// first status counts), and one that did not end with 0 fails this script.
const exit = process.exit;
for (const run of runs.slice(0, -1)) {
  let status;
  process.exit = (code = 0) => void (status ??= code);
  await main(run);
  if (status !== 0) {
    failed = true;
    process.stderr.write(`code-cache: the run ${run.join(' ')} exited ${status ?? 'without a status'}\n`);
    exit(1);
  }
}
process.exit = exit;
await main(runs.at(-1));
