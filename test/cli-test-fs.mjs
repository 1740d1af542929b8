/**
 * Test-only preload for the CLI tests (`node --import ./test/cli-slow-fs.mjs bin/find-file.mjs`):
 * delays every asynchronous directory read by FIND_FILE_TEST_SLOW_MS milliseconds, so that a
 * search over a small tree runs long enough to be interrupted or to show its progress line.
 * When FIND_FILE_TEST_MARKER names a file, that file is created at the first read: the command is
 * then past start-up, its handlers installed, and a test may signal it.
 */
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';

const delayMs = Number(process.env.FIND_FILE_TEST_SLOW_MS ?? '200');
const marker = process.env.FIND_FILE_TEST_MARKER;
const readdir = fs.readdir;
let first = true;

fs.readdir = function slowReaddir(...args) {
  if (first && marker) fs.writeFileSync(marker, String(process.pid));
  first = false;
  setTimeout(() => readdir.apply(fs, args), delayMs);
};
// The library reads `node:fs` through its ES module namespace: publish the patched function there too.
syncBuiltinESMExports();
