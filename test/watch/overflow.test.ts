/**
 * A real inotify queue overflow, forced on the kernel: the event loop is blocked (spawnSync) while
 * another process makes more changes than the queue holds (`max_queued_events`), the last of them in
 * a directory no delivered event names. libuv drops `IN_Q_OVERFLOW`, so only the count of events in
 * one turn of the loop can tell (src/watch/burst.ts); without it the index keeps that directory's
 * listing and answers a stale "not there".
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect } from 'vitest';
import { itIf, linux, type Need } from '../helpers/skip-why.js';
import { openIndex, type FileIndex } from '../../src/watch/watched-index.js';
import { expectSameAnswer, makeTree, removeTree } from './helpers.js';

const QUEUE_FILE = '/proc/sys/fs/inotify/max_queued_events';

function queueSize(): number | undefined {
  try {
    return Number(readFileSync(QUEUE_FILE, 'utf8'));
  } catch {
    return undefined;
  }
}

const queue = queueSize();
/** More than this many creates would make the test slow, not better. */
const LARGEST_QUEUE = 200_000;
const smallQueue: Need = [queue !== undefined && queue <= LARGEST_QUEUE, `${QUEUE_FILE} is ${queue ?? 'unreadable'}: flooding it would take too long`];

/**
 * Makes `count` changes in `flood`, then creates one file in `quiet`: run with the caller's loop
 * blocked. The changes are one file renamed back and forth (`f0` -> `f1` -> `f0`...), each rename two
 * events naming entries that come and go, as creates do; creating `count` files instead cost ~16
 * times the CPU (3.2 s, nearly all the kernel's, against 0.2) and left them all to remove. (Writes
 * to a file are events too, but `change` ones: the index then answered right with the overflow
 * undetected, and the test no longer showed the stale answer it is about.)
 */
const WRITER = `
const { renameSync, writeFileSync } = require('node:fs');
const [flood, quiet, count] = process.argv.slice(1);
writeFileSync(flood + '/f0', '');
for (let i = 0; i < Number(count) / 2; i++) renameSync(flood + '/f' + (i % 2), flood + '/f' + ((i + 1) % 2));
writeFileSync(quiet + '/late.txt', '');
`;

let index: FileIndex | undefined;
let root: string | undefined;
afterEach(() => {
  index?.close();
  if (root !== undefined) removeTree(root);
});

itIf(linux('inotify'), smallQueue)('an overflow while the loop is blocked is detected: the change whose event was lost is in the next answer', async () => {
  root = makeTree(['flood/a.txt', 'quiet/b.txt']);
  index = await openIndex({ root });
  expect((await index.find({ pattern: '**/*.txt' })).matches).toEqual(['flood/a.txt', 'quiet/b.txt']);
  // The queue fills with the flood's events; quiet/late.txt's is dropped. The first answer before
  // the index counted the burst kept quiet/'s listing and missed it.
  const wrote = spawnSync(process.execPath, ['-e', WRITER, join(root, 'flood'), join(root, 'quiet'), String(queue! + 1000)], { stdio: 'inherit' });
  expect(wrote.status).toBe(0);
  const answer = await expectSameAnswer(index, { root }, { pattern: 'quiet/*' });
  expect(answer.matches).toEqual(['quiet/b.txt', 'quiet/late.txt']);
  expect(index.stats().overflows).toBeGreaterThanOrEqual(1);
}, 120_000);
