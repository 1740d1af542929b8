#!/usr/bin/env node
/**
 * A minimal CLI over find-file's streaming API, for the whole-process benchmark: what the library
 * costs as a process, without bin/find-file.mjs's argument parsing, summary and output layer.
 * `node bench/targets/stream-cli.mjs [DIR]` prints every file under DIR (default `.`), written in chunks.
 * It reads the stream in batches (one promise per batch, as the CLI does) where the stream offers
 * them, else path by path.
 *
 * It loads the package's entry, dist/lib/index.js (the bundle a host's `import 'find-file'` gets),
 * not tsc's dist/index.js: as a process its load time counts, and the unbundled module graph, which
 * the package does not ship, took 840 ms against 750 over the synthetic tree (11 interleaved runs).
 * The in-process suites keep dist/index.js, whose profiles name the source files.
 */
import { findFilesStream } from '../../dist/lib/index.js';

const root = process.argv[2] ?? '.';
const stream = findFilesStream({ root, pattern: '**/*' });
const CHUNK = 4096; // paths per write
let lines = [];
const flush = () => {
  process.stdout.write(lines.join('\n') + '\n');
  lines = [];
};
if (typeof stream.batches === 'function') {
  for await (const batch of stream.batches()) {
    for (const path of batch) lines.push(path);
    if (lines.length >= CHUNK) flush();
  }
} else {
  for await (const path of stream) {
    lines.push(path);
    if (lines.length >= CHUNK) flush();
  }
}
if (lines.length > 0) flush();
