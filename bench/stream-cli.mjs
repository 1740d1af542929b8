#!/usr/bin/env node
/**
 * A minimal CLI over find-file's streaming API, for the whole-process benchmark: what the library
 * costs as a process, without bin/find-file.mjs's argument parsing, summary and output layer.
 * `node bench/stream-cli.mjs [DIR]` prints every file under DIR (default `.`), written in chunks.
 */
import { findFilesStream } from '../dist/index.js';

const root = process.argv[2] ?? '.';
const CHUNK = 4096; // paths per write
let lines = [];
for await (const path of findFilesStream({ root, pattern: '**/*' })) {
  lines.push(path);
  if (lines.length === CHUNK) {
    process.stdout.write(lines.join('\n') + '\n');
    lines = [];
  }
}
if (lines.length > 0) process.stdout.write(lines.join('\n') + '\n');
