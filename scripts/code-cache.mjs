/**
 * Runs a command's bundle once and keeps the code V8 compiled for it beside it (bin/load-bundle.mjs),
 * so the bins start from compiled code. scripts/bundle.mjs runs this after each build:
 *
 *   node scripts/code-cache.mjs BUNDLE [ARGS...]    (ARGS: the run, e.g. a search; output discarded)
 */
import { resolve } from 'node:path';
import { loadBundle } from '../bin/load-bundle.mjs';

const [path, ...args] = process.argv.slice(2);
const bundle = resolve(path);
const { main } = loadBundle(bundle, { keepCache: true });
await main(args);
