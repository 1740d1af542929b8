/**
 * Runs a compiled node-glob call (glob-compile.ts) in each of node-glob's forms: the whole answer
 * (`glob`, `globSync`), and one item at a time as the walk finds it (`globIterate`, `globStream`).
 * Every form ends with the same verdict: the walk's, with the links a pattern goes below
 * (links.ts) and the entries whose lstat failed (path-entry.ts) named in it.
 */
import { findFiles, findFilesStream, findFilesSync } from '../find.js';
import type { FindResult, FindSummary, SkippedEntry } from '../result.js';
import type { Compiled } from './glob-compile.js';
import { nameLinksEntered, nameLinksEnteredAsync } from './links.js';
import { PathEntry, lstatEntries, lstatEntriesSync, withLstatFailures, type Lstated } from './path-entry.js';
import { climbed, findClimbing, findClimbingSync } from './rebase.js';
import { withResult } from './shared.js';

/** An item of node-glob's answer: a path, or an entry with `withFileTypes`. */
export type GlobItem = string | PathEntry;

/**
 * The stats made after the walk (where a returned link leads, `stat: true`), raced against the
 * signal: one that hung held an aborted call for as long as it hung (20 s; an adversary's find).
 * Aborted, it rejects with the signal's reason, as node-glob does; the stat itself goes on, unheard.
 */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return work;
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => (signal.removeEventListener('abort', onAbort), signal.aborted ? onAbort() : resolve(value)),
      (error: unknown) => (signal.removeEventListener('abort', onAbort), reject(error)),
    );
  });
}

/** node-glob rejects an aborted walk with the signal's reason: the caller asked to stop, so no partial array is passed off as an answer. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw signal.reason;
}

/** The answer from entries: lstat'ed where node-glob lstats, those it drops named in the verdict. */
function fromEntries(compiled: Compiled, result: FindResult, { kept, failed }: Lstated): GlobItem[] & { readonly result: FindResult } {
  return withResult(kept.map(compiled.form), withLstatFailures(result, failed));
}

/** The whole answer, as `glob` gives it: sorted, carrying the verdict as `result`. */
export async function runAll(compiled: Compiled, signal: AbortSignal | undefined): Promise<GlobItem[] & { readonly result: FindResult }> {
  throwIfAborted(signal);
  const { ran, found } = await findClimbing(compiled, findFiles);
  const result = await untilAborted(nameLinksEnteredAsync(found, ran.linkNotes, found.matches), signal);
  if (!ran.asEntries) return withResult(ran.shape(result), result);
  const lstated = await untilAborted(lstatEntries(ran.entries(result), ran.statAll), signal);
  return fromEntries(ran, result, lstated);
}

/** `runAll` without the event loop, as `globSync` gives it. */
export function runAllSync(compiled: Compiled, signal: AbortSignal | undefined): GlobItem[] & { readonly result: FindResult } {
  throwIfAborted(signal);
  const { ran, found } = findClimbingSync(compiled, findFilesSync);
  const result = nameLinksEntered(found, ran.linkNotes);
  if (!ran.asEntries) return withResult(ran.shape(result), result);
  return fromEntries(ran, result, lstatEntriesSync(ran.entries(result), ran.statAll));
}

/** How an iteration hands its verdict over once it has ended: `settle` once, `fail` with the walk's error. */
export interface VerdictSink {
  settle(summary: FindSummary): void;
  fail(error: unknown): void;
}

/**
 * The items one at a time, each as the walk finds it (discovery order, not sorted): what
 * `globIterate` and `globStream` hand out. `cwd` itself comes first where node-glob names it. An
 * entry that must be lstat'ed is lstat'ed before it is handed out (one at a time: the walk waits
 * for the reader anyway), and dropped, named in the verdict, when that fails. The verdict reaches
 * `sink` once the iteration has ended: at its end, or when the reader left (the walk then stops
 * and says `aborted`). An aborted `signal` ends the iteration with its reason, as `glob` rejects.
 */
export async function* iterateItems(compiled: Compiled, signal: AbortSignal | undefined, sink: VerdictSink): AsyncGenerator<GlobItem, void, void> {
  const failed: SkippedEntry[] = [];
  // A streamed walk's summary holds no matches: the links among them are kept here, for links.ts.
  const matchedLinks: string[] = [];
  const { links, rel } = compiled.linkNotes;
  const stream = findFilesStream(compiled.options);
  const matches = stream[Symbol.asyncIterator]();
  let ended = false;
  const handOut = async (entry: PathEntry): Promise<GlobItem | undefined> => {
    const { kept, failed: lost } = await untilAborted(lstatEntries([entry], compiled.statAll), signal);
    failed.push(...lost);
    return kept[0] === undefined ? undefined : compiled.form(kept[0]);
  };
  try {
    throwIfAborted(signal);
    // The first step before anything is handed out: a missing start of absolute patterns climbs.
    let step: IteratorResult<string>;
    try {
      step = await matches.next();
    } catch (error) {
      const up = climbed(compiled, error);
      if (up === undefined) throw error;
      ended = true;
      yield* iterateItems(up, signal, sink);
      return;
    }
    // An abort while the first step was read (the walk then ends quietly, a missing root unread): no item.
    throwIfAborted(signal);
    if (compiled.cwdFirst) {
      const item = compiled.asEntries ? await handOut(compiled.cwdEntry()) : compiled.cwdPath;
      if (item !== undefined) yield item;
    }
    for (; step.done !== true; step = await matches.next()) {
      // Aborted: no item found before it is handed out after it (node-glob stops at once).
      throwIfAborted(signal);
      const match = step.value;
      if (!compiled.keeps(match)) continue;
      if (links.has(rel(match))) matchedLinks.push(match);
      const item = compiled.asEntries ? await handOut(compiled.entryOf(match)) : compiled.pathOf(match);
      if (item !== undefined) yield item;
    }
    const summary = await stream.summary;
    throwIfAborted(signal);
    sink.settle(withLstatFailures(await untilAborted(nameLinksEnteredAsync(summary, compiled.linkNotes, matchedLinks), signal), failed));
    ended = true;
  } catch (error) {
    ended = true;
    await matches.return?.();
    // A stream's reader that left (`break` out of its `for await`, `destroy()`) ends the iteration
    // with an AbortError of its own: the reader left, as a `break` here; not a failed search.
    if (isReaderGone(error, signal)) stream.summary.then((summary) => sink.settle(withLstatFailures(summary, failed)), sink.fail);
    else sink.fail(error);
    throw error;
  } finally {
    // The reader left early (`break`, also before the first match): the walk stops, and its
    // summary says what the reader took (`aborted`).
    if (!ended) {
      await matches.return?.();
      stream.summary.then((summary) => sink.settle(withLstatFailures(summary, failed)), sink.fail);
    }
  }
}

/** An AbortError that is not the caller's signal's: the stream around the iteration was destroyed by its reader. */
function isReaderGone(error: unknown, signal: AbortSignal | undefined): boolean {
  return (error as { name?: unknown } | null)?.name === 'AbortError' && !(signal?.aborted ?? false) && error !== signal?.reason;
}

/**
 * An iteration left before its first item was asked for (`return()` first, a stream destroyed
 * before it read): the generator never ran, so its own `finally` cannot settle the verdict. It
 * rejects then, with an AbortError: nothing was searched, so there is no verdict to give.
 */
export function settleIfLeftUnstarted<T>(items: AsyncGenerator<T, void, void>, sink: VerdictSink): AsyncGenerator<T, void, void> {
  let started = false;
  const next = items.next.bind(items);
  const leave = items.return.bind(items);
  const fail = items.throw.bind(items);
  const unstarted = () => {
    if (!started) sink.fail(new DOMException('the iteration was left before its first item: nothing was searched', 'AbortError'));
  };
  items.next = (...args) => ((started = true), next(...args));
  items.return = (value) => (unstarted(), leave(value));
  items.throw = (error) => (unstarted(), fail(error));
  return items;
}

/** `iterateItems` without the event loop: the walk is made whole first (`globSync`'s), then handed out. */
export function* iterateItemsSync(items: readonly GlobItem[]): Generator<GlobItem, void, void> {
  yield* items;
}
