/**
 * The ignore rules' reads answered from an `fs` (src/walk/ignore.ts asks them as a generator), in
 * the sync walk's way and the async walk's: the same answers, in the same order.
 *
 * A file that exists but cannot be read (`EACCES`) is answered as `Unreadable`, not as absent: one
 * `!` rule in it could have re-included a file that a parent's rule ignores, so the walk names it
 * as a gap (src/walk/engine.ts `acceptIgnoreTexts`) instead of reading it as no rules.
 */
import type { FsLike } from '../fs.js';
import { unreadable, type IgnoreRead, type IgnoreReads, type ReadAnswer } from './ignore.js';
import { parseInSlices, sliceParser, type ParsedAhead } from './rule-reader.js';

/** Answers the ignore rules' reads one by one: a file's text (undefined when it cannot be read), or whether a path exists. */
export function answerSync<T>(fs: FsLike, reads: IgnoreReads<T>): T {
  for (let step = reads.next(); ; ) {
    if (step.done) return step.value;
    step = reads.next(readSync(fs, step.value));
  }
}

/** A walk left between two slices of work: `resume` goes on (and may leave it again). */
export type Paused<R> = { resume(): R | Paused<R> };

/**
 * `answerSync` for the sync walk run in slices (main-thread.ts): a long text is parsed ahead a
 * slice at a time (`sliceParser`), the walk's driver let go between slices (`Paused`), so that a
 * file of 100,000 rules does not hold Ctrl-C and a stream's reader for a second. `then` takes the
 * answer; what it returns is returned.
 */
export function answerInSlices<T, R>(fs: FsLike, reads: IgnoreReads<T>, stopped: () => boolean, then: (answer: T) => R | Paused<R>): R | Paused<R> {
  let step = reads.next();
  let parse: { texts: string[]; ahead: ParsedAhead; at: number; slice: (() => boolean) | undefined } | undefined;
  const go = (): R | Paused<R> => {
    for (;;) {
      if (parse !== undefined) {
        for (; parse.at < parse.texts.length; parse.at++, parse.slice = undefined) {
          parse.slice ??= sliceParser(parse.texts[parse.at]!, parse.ahead, stopped);
          if (parse.slice !== undefined && !parse.slice()) return { resume: go };
        }
        parse = undefined;
        step = reads.next(undefined);
      }
      if (step.done) return then(step.value);
      const read = step.value;
      if (read.kind === 'parse') parse = { ...read, at: 0, slice: undefined };
      else step = reads.next(readSync(fs, read));
    }
  };
  return go();
}

/** What a read answers when it fails: nothing read, no such path, or the path as given. */
function failed(read: IgnoreRead): ReadAnswer {
  return read.kind === 'text' || read.kind === 'parse' ? undefined : read.kind === 'exists' ? false : read.path;
}

/*
 * An ignore file (or a `.git` file) is read only when it is a regular file, its links followed: a
 * named pipe called `.git` or `.gitignore` would hold the read (and a pool thread) until a writer
 * came, past every budget. `exists` follows links too: a `.git` link that leads nowhere is no
 * repository (rg 13 asks `Path::exists`, which follows it). An fs without `stat` is asked as before.
 */
function readSync(fs: FsLike, read: IgnoreRead): ReadAnswer {
  // The sync walk holds the thread whatever it does: its texts are parsed where they are used.
  if (read.kind === 'parse') return undefined;
  try {
    if (read.kind === 'text') return fs.statSync === undefined || fs.statSync(read.path).isFile() ? readTextSync(fs, read.path) : undefined;
    if (read.kind === 'realpath') return fs.realpathSync?.(read.path) ?? read.path;
    if (fs.statSync !== undefined) fs.statSync(read.path);
    else fs.lstatSync(read.path);
    return true;
  } catch {
    return failed(read);
  }
}

/** A regular file's contents; one that cannot be read for another reason than being gone, `Unreadable`. */
function readTextSync(fs: FsLike, path: string): ReadAnswer {
  try {
    return fs.readFileSync!(path);
  } catch (error) {
    return unreadable(error);
  }
}

/**
 * The same answers, with the callback calls, in order; long texts parsed in slices, the event loop
 * running between them (`parseInSlices`), until `stopped()`.
 */
export async function answerAsync<T>(fs: FsLike, reads: IgnoreReads<T>, stopped: () => boolean = () => false): Promise<T> {
  for (let step = reads.next(); ; ) {
    if (step.done) return step.value;
    const read = step.value;
    if (read.kind === 'parse') {
      for (const text of read.texts) await parseInSlices(text, read.ahead, stopped);
      step = reads.next(undefined);
    } else {
      step = reads.next(await readAsync(fs, read));
    }
  }
}

function readAsync(fs: FsLike, read: Exclude<IgnoreRead, { kind: 'parse' }>): Promise<ReadAnswer> {
  return new Promise((resolve) => {
    const attempt = (call: () => void) => {
      try {
        call();
      } catch {
        resolve(failed(read));
      }
    };
    // A file that could not be read is a gap, whether the call failed or threw (as readTextSync).
    const readFile = () => {
      try {
        fs.readFile!(read.path, (error, contents) => resolve(error ? unreadable(error) : contents));
      } catch (error) {
        resolve(unreadable(error));
      }
    };
    attempt(() => {
      if (read.kind === 'text') {
        if (fs.stat === undefined) readFile();
        else fs.stat(read.path, (error, stats) => (error || !stats.isFile() ? resolve(undefined) : readFile()));
      } else if (read.kind === 'exists') {
        if (fs.stat !== undefined) fs.stat(read.path, (error) => resolve(!error));
        else fs.lstat(read.path, (error) => resolve(!error));
      } else if (fs.realpath === undefined) resolve(read.path);
      else fs.realpath(read.path, (error, real) => resolve(error ? read.path : real));
    });
  });
}

