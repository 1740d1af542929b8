/**
 * Runs a command's bundle once and keeps the code V8 compiled for it beside it (bin/load-bundle.mjs),
 * with everything that ran compiled in it, so the bins start from compiled code. scripts/bundle.mjs
 * runs this after each build, on whatever Node builds (Node >= 22.1 too, whose bins use its own cache):
 *
 *   node scripts/code-cache.mjs BUNDLE [ARGS...]    (ARGS: the run, e.g. a search; output discarded)
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { cachePathOf, compileBundle, runBundle } from '../bin/load-bundle.mjs';

const [path, ...args] = process.argv.slice(2);
const bundle = resolve(path);
const { script, mark } = compileBundle(bundle);
if (mark === undefined) throw new Error(`${bundle} does not end with its mark (scripts/bundle.mjs writes it)`);
// At the end of the run: the code of every function that ran is compiled by then.
process.once('exit', () => writeFileSync(cachePathOf(bundle), Buffer.concat([mark, script.createCachedData()])));
const { main } = runBundle(script, bundle);
await main(args);
