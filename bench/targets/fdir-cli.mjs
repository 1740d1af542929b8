#!/usr/bin/env node
/**
 * The JavaScript peer in the whole-process benchmark: the smallest honest CLI one could build on
 * fdir. `node bench/targets/fdir-cli.mjs [DIR]` prints every regular file under DIR (default `.`), one
 * root-relative path a line, symlinks left out as find-file leaves them out. It builds the whole
 * array first (fdir has no streaming API), then writes it in large chunks.
 */
import { fdir } from 'fdir';

const root = process.argv[2] ?? '.';
const paths = await new fdir({ excludeSymlinks: true }).withRelativePaths().crawl(root).withPromise();

const CHUNK = 4096; // paths per write: few syscalls, no single giant string
for (let i = 0; i < paths.length; i += CHUNK) {
  process.stdout.write(paths.slice(i, i + CHUNK).join('\n') + '\n');
}
