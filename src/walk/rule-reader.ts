/**
 * An ignore file's text read into rules, line by line (gitignore-rules.ts `parseLine` reads each):
 * at once where the walk uses them (`parseIgnoreFile`), or ahead, in slices, by the async walk
 * (`parseInSlices`), so that a long file does not hold the event loop.
 */
import { monotonicClock } from '../plan/clock.js';
import { MAX_IGNORE_RULE_LENGTH, isRuleTooLarge, parseLine, type IgnoreRule } from './gitignore-rules.js';

/** The rules of an ignore file's text; `ahead`: rules already parsed (`parseInSlices`), taken instead; `shouldStop` asked as it goes (`RuleReader`). */
export function parseIgnoreFile(text: string, shouldStop?: () => boolean, ahead?: ParsedAhead): IgnoreRule[] {
  const ready = ahead?.get(text);
  if (ready !== undefined) return ready;
  const reader = new RuleReader(text, shouldStop);
  reader.read();
  return reader.rules;
}

/** Rules parsed ahead of the walk's use of them, by the file's text (`parseInSlices`); `parseIgnoreFile` takes them. */
export type ParsedAhead = Map<string, IgnoreRule[]>;

/** A file's text longer than this is parsed in slices by the async walk (`parseInSlices`). */
export const SLICED_TEXT = 8_192;
/** How long a slice parses before the event loop runs. */
const SLICE_MS = 10;

/**
 * Parses a long ignore file in slices of ~10 ms, the event loop running between them, into `ahead`.
 * Compiling 20,000 rules holds the thread ~5 s: the clock's budget was asked as it went, but a
 * timer's abort or a server's cancel could not be heard until the end (an adversarial run: an
 * abort at 200 ms answered after 5.3 s). Stopped (`stopped()`, asked as `parseIgnoreFile` asks):
 * nothing is kept, and the walk, stopped too, judges nothing with it.
 */
export async function parseInSlices(text: string, ahead: ParsedAhead, stopped: () => boolean): Promise<void> {
  const slice = sliceParser(text, ahead, stopped);
  if (slice === undefined) return;
  while (!slice()) await new Promise((resolve) => setImmediate(resolve));
}

/**
 * One long text's parsing, a slice of ~10 ms at each call, true once it is over (its rules then in
 * `ahead`, unless stopped); undefined when there is nothing to parse ahead. The async walk waits a
 * turn between slices (`parseInSlices`); the sync walk run in slices (main-thread.ts) returns to its
 * driver (ignore-io.ts `answerInSlices`).
 */
export function sliceParser(text: string, ahead: ParsedAhead, stopped: () => boolean): (() => boolean) | undefined {
  if (text.length <= SLICED_TEXT || ahead.has(text)) return undefined;
  const reader = new RuleReader(text, stopped);
  return () => {
    const until = monotonicClock.now() + SLICE_MS;
    if (!reader.read(() => monotonicClock.now() >= until)) return false;
    if (!reader.stopped) ahead.set(text, reader.rules);
    return true;
  };
}

/** One file's rules, read line by line; `read` may break off where `pause` asks and go on at the next call. */
class RuleReader {
  readonly rules: IgnoreRule[] = [];
  stopped = false;
  private readonly lines: string[];
  private at = 0;
  private chars = 0;

  constructor(
    text: string,
    private readonly shouldStop: (() => boolean) | undefined,
  ) {
    this.lines = text.split(/\r?\n/);
  }

  /** Parses on: true when the file is read (or the caller stopped), false when `pause` asked for a break. */
  read(pause?: () => boolean): boolean {
    const { lines } = this;
    while (this.at < lines.length) {
      const line = lines[this.at]!;
      // A file of 30,000 rules took seconds to compile past a 200 ms budget (an adversarial run): the
      // caller's stop is asked as it goes, and a stop leaves the rules read so far, which the walk
      // then never judges with (it has stopped). Every 64 lines, or sooner when lines are long (64
      // rules of the longest length would compile for minutes between two asks).
      this.chars += line.length;
      const ask = this.at % 64 === 63 || this.chars >= MAX_IGNORE_RULE_LENGTH;
      if (ask && this.shouldStop?.() === true) {
        this.stopped = true;
        return true;
      }
      if (this.chars >= MAX_IGNORE_RULE_LENGTH) this.chars = 0;
      const rule = isRuleTooLarge(line) ? undefined : parseLine(line);
      if (rule !== undefined) this.rules.push(rule);
      this.at++;
      if (ask && pause?.() === true) return this.at >= lines.length;
    }
    return true;
  }
}

