/**
 * Telling an inotify queue overflow that libuv does not report.
 *
 * The kernel queues at most `max_queued_events` events per inotify instance; past that it drops
 * events and queues one `IN_Q_OVERFLOW`, which libuv discards (its watch descriptor is -1, no
 * watcher has it). But libuv reads the instance until it is empty each time the descriptor is
 * ready, and runs every watch's callback as it reads, all within one turn of the event loop. So
 * when the queue was full, the turn that reads it delivers at least `max_queued_events` events:
 * counting the events of every watch in one turn tells an overflow, at the cost of taking a large
 * burst with no overflow for one (a rescan, never a wrong answer).
 *
 * The count is process-wide because the queue is: libuv keeps one inotify instance per event loop,
 * shared by every `fs.watch` of the thread. Events the count cannot see are those of watches that
 * are not ours (a host's own `fs.watch` on the same loop) and those queued for a watch closed before
 * they were read (libuv drops them: no watcher has their descriptor). So our watches are closed
 * only after the turn's read of the queue (`closeLater`), which leaves the events that arrive
 * between that read and the close; the threshold is half the queue to leave room for those
 * (docs/index.md, "Limits"), and the queue is taken at most the kernel's default (`burstLimit`).
 */
import { readFileSync } from 'node:fs';

/** The kernel's setting, read once; its default where it cannot be read. */
const QUEUE_FILE = '/proc/sys/fs/inotify/max_queued_events';
const DEFAULT_QUEUE = 16_384;

/**
 * The count of one turn taken for an overflow: half the queue of the loop's inotify instance. That
 * queue's size is the sysctl's value when libuv made the instance, at the thread's first `fs.watch`
 * (the host's, maybe, long before the index), not its value now: raised in between, the queue is
 * smaller than the sysctl says, and a real overflow at the smaller size was never told (a turn of
 * 16,384 events under a threshold of half of 65,536). So the size taken is at most the kernel's
 * default: the smaller of the sysctl now and 16,384. Too small a threshold costs only a needless
 * rescan (a burst of half the default, 8,192, taken for an overflow), never a wrong answer. What it
 * cannot see: a sysctl below the default when the instance was made and raised since (docs/index.md,
 * "Limits").
 */
export function burstLimit(sysctl: number | undefined): number {
  const now = sysctl !== undefined && Number.isInteger(sysctl) && sysctl > 0 ? sysctl : DEFAULT_QUEUE;
  return Math.max(1, Math.floor(Math.min(now, DEFAULT_QUEUE) / 2));
}

/** Counts events per turn of the event loop and calls every subscriber once in a turn that reaches `limit`. */
export class BurstGauge {
  private count = 0;
  private turnOpen = false;
  private readonly subscribers = new Set<() => void>();
  private readonly closing: (() => void)[] = [];

  constructor(readonly limit: number) {}

  /** One event of any watch. */
  event(): void {
    if (!this.turnOpen) {
      this.turnOpen = true;
      // Runs after the poll phase that is delivering events now: libuv's read of the queue is over.
      setImmediate(() => {
        this.turnOpen = false;
        this.count = 0;
      });
    }
    // Called at the limit itself, within the turn, before any later event (a cookie's) is delivered.
    if (++this.count === this.limit) for (const subscriber of [...this.subscribers]) subscriber();
  }

  /**
   * Runs `close` (a watch's) after the read of the queue in progress or next, not now: the events
   * queued for that watch and not yet read are then read, and counted, before it goes.
   */
  closeLater(close: () => void): void {
    if (this.closing.push(close) === 1) {
      setImmediate(() => {
        for (const next of this.closing.splice(0)) next();
      });
    }
  }

  /** Calls `subscriber` at each burst; returns what stops that. */
  subscribe(subscriber: () => void): () => void {
    this.subscribers.add(subscriber);
    return () => this.subscribers.delete(subscriber);
  }
}

function queueSize(): number | undefined {
  try {
    return Number(readFileSync(QUEUE_FILE, 'utf8'));
  } catch {
    return undefined;
  }
}

let shared: BurstGauge | undefined;

/** The gauge of this thread's event loop (one inotify instance per loop), made at first use. */
export function loopGauge(): BurstGauge {
  shared ??= new BurstGauge(burstLimit(queueSize()));
  return shared;
}
