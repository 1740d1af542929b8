/**
 * The burst gauge (src/watch/burst.ts) that tells an inotify overflow libuv does not report: events
 * are counted per turn of the event loop, and a turn that reaches the limit calls every subscriber
 * once, at the limit, before the turn's later events.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { expect, it } from 'vitest';
import { BurstGauge, burstLimit, loopGauge } from '../../src/watch/burst.js';
import { nodeWatcher } from '../../src/watch/watcher.js';
import { itIf, linux } from '../helpers/skip-why.js';
import { makeTree, removeTree } from './helpers.js';

function events(gauge: BurstGauge, count: number): void {
  for (let i = 0; i < count; i++) gauge.event();
}

it('a turn that reaches the limit calls each subscriber once, at the limit', () => {
  const gauge = new BurstGauge(5);
  const seen: number[] = [];
  let count = 0;
  gauge.subscribe(() => seen.push(count));
  gauge.subscribe(() => seen.push(-count));
  for (; count < 12; count++) gauge.event();
  // Called while the fifth event is delivered (count is 4 before it is incremented), not again after.
  expect(seen).toEqual([4, -4]);
});

it('events of different turns are not added up: the queue was read empty between them', async () => {
  const gauge = new BurstGauge(5);
  let bursts = 0;
  gauge.subscribe(() => bursts++);
  events(gauge, 4);
  await nextTurn();
  events(gauge, 4);
  await nextTurn();
  expect(bursts).toBe(0);
  events(gauge, 5);
  expect(bursts).toBe(1);
  await nextTurn();
  events(gauge, 5);
  expect(bursts).toBe(2);
});

it('an unsubscribed handler is not called', () => {
  const gauge = new BurstGauge(2);
  let calls = 0;
  const stop = gauge.subscribe(() => calls++);
  stop();
  events(gauge, 3);
  expect(calls).toBe(0);
});

it('the loop\'s gauge is one per thread, at half the kernel\'s queue (max_queued_events), at most half its default', () => {
  const queue = Number(readFileSync('/proc/sys/fs/inotify/max_queued_events', 'utf8'));
  expect(loopGauge()).toBe(loopGauge());
  expect(loopGauge().limit).toBe(Math.floor(Math.min(queue, 16_384) / 2));
});

/**
 * An adversarial run (E): the limit was half the sysctl read when the index opened, but libuv's
 * inotify instance took its queue size at the thread's first fs.watch. Raised in between (16,384 ->
 * 65,536), a real overflow at 16,384 never reached the limit of 32,768.
 */
it('the limit is half the smaller of the sysctl now and the kernel\'s default: a queue made before a raise is never larger', () => {
  expect(burstLimit(16_384)).toBe(8_192);
  expect(burstLimit(65_536)).toBe(8_192);
  expect(burstLimit(1_000_000)).toBe(8_192);
  expect(burstLimit(1_000)).toBe(500);
  expect(burstLimit(1)).toBe(1);
  for (const unreadable of [undefined, NaN, 0, -5, 2.5]) expect(burstLimit(unreadable)).toBe(8_192);
});

itIf(linux('inotify'))('a watch closed while its events are queued goes after the turn\'s read: they are counted, and its listener hears none of them', async () => {
  const root = makeTree([]);
  try {
    // Three creates queue at least three events in one read (the loop is not free until they are made).
    const gauge = new BurstGauge(3);
    let bursts = 0;
    gauge.subscribe(() => bursts++);
    const heard: (string | undefined)[] = [];
    const turnRead = new Promise<void>((resolve) => {
      const handle = nodeWatcher(gauge).watch(root, {
        change: (name) => {
          heard.push(name);
          handle.close();
          setImmediate(resolve);
        },
        lost: () => {},
      });
    });
    for (const name of ['a', 'b', 'c']) writeFileSync(join(root, name), 'x');
    await turnRead;
    // Closed at once, libuv would have dropped the rest of the queue as stale: one event counted.
    expect(heard).toEqual(['a']);
    expect(bursts).toBe(1);
  } finally {
    removeTree(root);
  }
});
