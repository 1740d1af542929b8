/**
 * Test-only preload for the CLI tests (`node --import ./test/helpers/cli-test-fs.mjs bin/find-file.mjs`).
 * It changes the directory reads the walker uses, driven by the environment: the asynchronous one,
 * and the synchronous one (content search's one-thread path, src/content/one-thread.ts, with no time budget):
 *
 * - FIND_FILE_TEST_SLOW_MS: delay every read by this many milliseconds, so that a search over a
 *   small tree runs long enough to be interrupted or to show its progress line;
 * - FIND_FILE_TEST_FAIL: a JSON object from directory (relative to the current directory, `/`
 *   separators) to error code: reading it fails with that code, as an unreadable folder does, on
 *   any platform and whoever runs the test (root reads every directory);
 * - FIND_FILE_TEST_MARKER: a file created at the first read: the command is then past start-up,
 *   its handlers installed, and a test may signal it. Each read the command has then handled adds
 *   a line `read DIR` to it, so a test can wait for the walk to reach a point (an event, not a
 *   sleep that a busy machine outlasts).
 * - FIND_FILE_TEST_READ_LOG: a file each directory read appends a line to, `sync DIR` or `async DIR`:
 *   which of the walk's drivers read it (the command's listing reads on the main thread without a
 *   time budget, in libuv's pool with one).
 */
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import path from 'node:path';

const delayMs = Number(process.env.FIND_FILE_TEST_SLOW_MS ?? '0');
const failures = JSON.parse(process.env.FIND_FILE_TEST_FAIL ?? '{}');
const marker = process.env.FIND_FILE_TEST_MARKER;
const readLog = process.env.FIND_FILE_TEST_READ_LOG;
const readdir = fs.readdir;
const readdirSync = fs.readdirSync;
let first = true;

/** A directory read begins: the marker's first write, the directory's name as the tests write it, and the failure injected for it, if any. */
function beginRead(dir, how) {
  if (first && marker) fs.writeFileSync(marker, String(process.pid));
  first = false;
  const rel = path.relative(process.cwd(), String(dir)).split(path.sep).join('/') || '.';
  if (readLog) fs.appendFileSync(readLog, `${how} ${rel}\n`);
  const code = failures[rel];
  const failure = code ? Object.assign(new Error(`${code}: injected by the test, scandir '${dir}'`), { code, syscall: 'scandir', path: String(dir) }) : undefined;
  return { rel, failure };
}

function noteHandled(rel) {
  if (marker) fs.appendFileSync(marker, `read ${rel}\n`);
}

fs.readdir = function testReaddir(dir, ...rest) {
  const { rel, failure } = beginRead(dir, 'async');
  const callback = rest[rest.length - 1];
  // The walker has handled an answer once its callback returns (the matches in it counted).
  const answer = marker
    ? (...args) => {
        callback(...args);
        noteHandled(rel);
      }
    : callback;
  rest[rest.length - 1] = answer;
  const read = failure ? () => answer(failure) : () => readdir.call(fs, dir, ...rest);
  setTimeout(read, delayMs);
};
fs.readdirSync = function testReaddirSync(dir, ...rest) {
  const { rel, failure } = beginRead(dir, 'sync');
  if (delayMs > 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, delayMs);
  try {
    if (failure) throw failure;
    return readdirSync.call(fs, dir, ...rest);
  } finally {
    // Noted as the read is answered: the walker handles it before its next read, and before a signal can be heard.
    noteHandled(rel);
  }
};
// The library reads `node:fs` through its ES module namespace: publish the patched function there too.
syncBuiltinESMExports();
