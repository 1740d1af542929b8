/**
 * The walk that feeds content search's pure-TS path: the file set exactly as `findFiles` would find
 * it (the same plan, the same walk), streamed into a short queue. The walk pauses while `FILE_QUEUE`
 * files wait, so memory stays flat however many files there are.
 */
import type { ContentPlan } from '../plan/content-plan.js';
import { AsyncDriver } from '../walk/drivers.js';
import { Walk } from '../walk/engine.js';
import { SpecialFiles, contentWalkPolicy } from './walk-policy.js';

/** Files the walk may find ahead of the search before it pauses. */
const FILE_QUEUE = 256;

export class FileQueue {
  readonly walk: Walk;
  /** The special files the patterns matched: named in the summary, never opened. */
  readonly specials = new SpecialFiles();
  /** Settles when the walk has ended (its error, if any, is kept in `error`, never thrown here). */
  readonly done: Promise<void>;
  ended = false;
  error: unknown;
  private readonly driver: AsyncDriver;
  private files: string[] = [];
  private head = 0;
  private wake: (() => void) | undefined;

  constructor(plan: ContentPlan) {
    // The walk has no match limit of its own: `maxResults` counts hits here, not files. A symlinked
    // directory, matching or not, is named on the way (ContentSummary.linksOnTheWay).
    this.walk = new Walk(plan, (base, name) => {
      this.files.push(base + name);
      this.wake?.();
    }, contentWalkPolicy(this.specials));
    this.driver = new AsyncDriver(this.walk, { isPaused: () => this.files.length - this.head >= FILE_QUEUE });
    this.done = this.driver.done
      .then(
        () => {},
        (error: unknown) => {
          this.error = error;
        },
      )
      .finally(() => {
        this.ended = true;
        this.wake?.();
      });
  }

  /** The next file found, or undefined when none waits. Taking resumes a paused walk in time. */
  take(): string | undefined {
    if (this.head >= this.files.length) return undefined;
    const rel = this.files[this.head++]!;
    if (this.head === this.files.length) {
      this.files = [];
      this.head = 0;
      this.driver.resume();
    } else if (this.files.length - this.head === FILE_QUEUE / 2) {
      this.driver.resume();
    }
    return rel;
  }

  /** Waits for the next file or the walk's end, whichever comes first, unless `race` gives up first. */
  async waitForFile(race: (io: Promise<void>) => Promise<unknown>): Promise<void> {
    await race(new Promise<void>((resolve) => (this.wake = resolve)));
    this.wake = undefined;
  }

  /** Ends the walk (the search stopped): the driver settles at once once resumed. */
  stop(): void {
    this.walk.abort();
    this.driver.resume();
  }
}
