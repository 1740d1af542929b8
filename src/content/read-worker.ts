/**
 * Content search's reads on the real disk, in a worker thread: synchronous `open`, `fstat`, the
 * place check and `read` there, the bytes handed over in a shared ring. Perf: on the main thread a
 * file cost three or four trips through libuv's pool (open, fstat, read, and their callbacks);
 * /usr/include's 7,900 files took 1.09 s against 0.45 s for a `readFileSync` loop. The main thread
 * keeps the walk, the scanning and the clock: the budget and the caller's signal stop the search
 * while the worker is inside a read, as they did while a pool thread was.
 *
 * The defences are the same ones, in the same order (file-io.ts): `O_NOFOLLOW | O_NONBLOCK` (a link
 * swapped in is not followed; a FIFO or a file that waits for data cannot hold the worker), a file
 * that is not regular any more is closed unread (`EFTYPE`), and on Linux the descriptor must be
 * the file at root/rel (`/proc/self/fd`, `ELOOP`). Every answer is a value: the worker never throws.
 *
 * The bytes: a `SharedArrayBuffer` of `SLOTS` chunk-sized slots. The worker reads into a free slot
 * and names it in its answer; the main thread gives the slot back once the scanner has taken the
 * chunk (the scanner keeps no view of it). Perf: fresh buffers moved between threads cost more
 * than the reads (the kernel faulted each new page in as it copied, and the garbage collector
 * freed them): the ring is touched once. Slots are enough for the read-ahead's window of first
 * chunks plus two batches of the file being searched, so the worker can always answer the file
 * the main thread waits for.
 *
 * File descriptors stay the worker's: Node tracks what a worker opens and closes it when the worker
 * ends, so a descriptor handed to the main thread could be closed under it. A file longer than one
 * chunk stays open in the worker; the main thread asks for its next chunks, and closes it through it.
 */
import { Worker } from 'node:worker_threads';
import { ByteLines } from './byte-lines.js';
import { HITS_IN_WORKER, SLOTS, SyncReader, TOGETHER, type ChunkAnswer, type Command, type FirstAnswer, type ReaderInit, type WholeFileVerdict } from './sync-reader.js';

interface Port {
  on(event: 'message', listener: (commands: Command[]) => void): void;
  postMessage(value: unknown): void;
}

/**
 * The worker's loop. Slots given back are taken first, then the requests for the next chunks of
 * the file being searched (the main thread waits on those), then the first reads in order. Answers
 * go out every few files, and between them the loop lets new messages in.
 */
function workerLoop(reader: Pick<SyncReader, 'free' | 'first' | 'more' | 'close'>, port: Port, setImmediate: (callback: () => void) => void) {
  const firsts: Extract<Command, { 0: 0 }>[] = [];
  const mores: number[] = [];
  let answers: (FirstAnswer | ChunkAnswer)[] = [];
  let scheduled = false;
  const work = () => {
    scheduled = false;
    for (let done = 0; done < 8; done++) {
      let answer: FirstAnswer | ChunkAnswer | undefined;
      if (mores.length > 0) {
        answer = reader.more(mores[0]!);
        if (answer !== undefined) mores.shift();
      } else if (firsts.length > 0) {
        const [, id, path, expected] = firsts[0]!;
        answer = reader.first(id, path, expected);
        if (answer !== undefined) firsts.shift();
      }
      if (answer === undefined) break; // nothing to do, or no free slot: a slot given back resumes the work
      answers.push(answer);
    }
    if (answers.length > 0) {
      port.postMessage(answers);
      answers = [];
    }
    if (reader.free.length > 0 && (mores.length > 0 || firsts.length > 0)) schedule();
  };
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(work);
  };
  port.on('message', (commands) => {
    for (const command of commands) {
      if (command[0] === 0) firsts.push(command);
      else if (command[0] === 1) mores.push(command[1]);
      else if (command[0] === 2) reader.close(command[1]);
      else reader.free.push(command[1]);
    }
    schedule();
  });
  port.postMessage('ready');
}

const WORKER_SOURCE = `'use strict';
const { parentPort, workerData } = require('node:worker_threads');
(${workerLoop.toString()})(new (${SyncReader.toString()})(require('node:fs'), workerData, new (${ByteLines.toString()})()), parentPort, setImmediate);`;

/** A chunk for the scanner; `done`: it has taken it (its slot goes back). */
export type ChunkResult = { ok: true; data: Uint8Array; done?: () => void } | { ok: false; error: unknown };
/** A file's first chunk; or, with `verdict`, what the worker decided for the file (it read `bytes`, none are handed over). */
export type FirstResult =
  | { ok: true; data: Uint8Array; eof: boolean; error?: unknown; done?: () => void; verdict?: undefined }
  | { ok: true; verdict: WholeFileVerdict; bytes: number; eof: true; hits?: (number | string)[] }
  | { ok: false; error: unknown };

/** The rest of a file that did not end within its first chunk: the next chunk (no bytes: the end), and closing it. */
export interface Rest {
  read(): Promise<ChunkResult>;
  close(): void;
}

/** The code a read answers with when the worker ended before answering: the caller reads a first chunk itself. */
export const WORKER_GONE = 'FF_READ_WORKER_GONE';

/**
 * The main thread's side. Reads asked for are sent together once per turn of the microtasks (one
 * message for a whole read-ahead fill), slots given back with them or when this thread next waits.
 * `ready` once the worker runs: until then, and after it is gone, the caller reads as before.
 */
export class WorkerReader {
  ready = false;
  gone = false;
  /** Settles once the worker runs or has ended. */
  readonly running: Promise<void>;
  private readonly worker: Worker;
  private readonly ring: Uint8Array;
  private readonly chunkBytes: number;
  private readonly waiting = new Map<number, (answer: FirstAnswer & ChunkAnswer) => void>();
  private outbox: Command[] = [];
  private flushSoon = false;
  private flushLater: NodeJS.Immediate | undefined;
  private nextId = 1;

  constructor(init: Omit<ReaderInit, 'ring' | 'together' | 'hitCap'>) {
    // The worker is given its own copy of the needle (its buffer may be a pooled one).
    init = { ...init, needle: init.needle === undefined ? undefined : Uint8Array.from(init.needle) };
    const ring = new SharedArrayBuffer(init.chunkBytes * SLOTS);
    this.ring = new Uint8Array(ring);
    this.chunkBytes = init.chunkBytes;
    this.worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { ...init, ring, together: TOGETHER, hitCap: HITS_IN_WORKER } satisfies ReaderInit });
    let settle!: () => void;
    this.running = new Promise((resolve) => (settle = resolve));
    this.worker.on('message', (message: 'ready' | (FirstAnswer & ChunkAnswer)[]) => {
      if (message !== 'ready') for (const answer of message) this.answer(answer);
      else {
        this.ready = !this.gone;
        settle();
      }
    });
    // A worker that fails to start or dies: what it owed is answered `WORKER_GONE`.
    this.worker.on('error', () => (this.end(), settle()));
    this.worker.on('exit', () => (this.end(), settle()));
  }

  /** Opens `path` and reads its first chunk; `expected`: what /proc/self/fd must name (Linux), or ''. */
  async first(path: string, expected: string): Promise<FirstResult & { rest?: Rest }> {
    const id = this.nextId++;
    const raw = await this.ask([0, id, path, expected]);
    if (raw.verdict !== undefined) return { ok: true, verdict: raw.verdict, bytes: raw.bytes!, eof: true, hits: raw.hits };
    if (raw.slot === undefined) return { ok: false, error: errorOf(raw) };
    const chunk = this.chunk(raw.slot, raw.bytes!);
    if (raw.code !== undefined) return { ...chunk, eof: false, error: errorOf(raw) };
    return raw.eof === true ? { ...chunk, eof: true } : { ...chunk, eof: false, rest: this.rest(id) };
  }

  /**
   * The search is over. Files still open in the worker are closed by Node as the worker ends (it
   * tracks a worker's descriptors); a read in progress finishes first. Nothing is awaited: a
   * worker inside a read that hangs cannot hold the search's answer.
   */
  dispose(): void {
    this.end();
    void this.worker.terminate();
  }

  /** A file's chunks after the first: asked for `TOGETHER` at a time, the next batch while the last is read. */
  private rest(id: number): Rest {
    const atHand: { ok: true; data: Uint8Array; done: () => void }[] = [];
    let error: Error | undefined;
    let asked: Promise<void> | undefined;
    let ended = false;
    let closed = false;
    /** The chunk last handed out: given back at close too, should its reader have left without taking it. */
    let handedOut: { done: () => void } | undefined;
    const askMore = () => {
      asked = this.ask([1, id]).then((raw) => {
        asked = undefined;
        raw.slots.forEach((slot, i) => atHand.push(this.chunk(slot, raw.sizes[i]!)));
        if (raw.code !== undefined) error = errorOf(raw);
        ended = error !== undefined || raw.sizes.at(-1) === 0;
        if (closed) for (const chunk of atHand.splice(0)) chunk.done();
      });
    };
    return {
      read: async () => {
        if (atHand.length === 0 && !ended) {
          if (asked === undefined) askMore();
          await asked;
        }
        const chunk = (handedOut = atHand.shift());
        // Perf: the next batch is asked for while this one is searched.
        if (atHand.length < TOGETHER / 2 && !ended && asked === undefined && !closed) askMore();
        return chunk ?? (error !== undefined ? { ok: false, error } : { ok: true, data: new Uint8Array(0) });
      },
      close: () => {
        if (closed) return;
        closed = true;
        handedOut?.done();
        for (const chunk of atHand.splice(0)) chunk.done();
        if (!ended) this.send([2, id]);
      },
    };
  }

  /** A slot's bytes for the scanner, and `done` (once) to give the slot back. */
  private chunk(slot: number, bytes: number): { ok: true; data: Uint8Array; done: () => void } {
    let given = false;
    const done = () => {
      if (given) return;
      given = true;
      this.send([3, slot]);
    };
    return { ok: true, data: this.ring.subarray(slot * this.chunkBytes, slot * this.chunkBytes + bytes), done };
  }

  private ask(command: [0, number, string, string] | [1, number]): Promise<FirstAnswer & ChunkAnswer> {
    const id = command[1];
    const answer = new Promise<FirstAnswer & ChunkAnswer>((resolve) => this.waiting.set(id, resolve));
    this.send(command);
    return answer;
  }

  private send(command: Command): void {
    if (this.gone) {
      if (command[0] === 0 || command[0] === 1) this.answer(gone(command[1]));
      return;
    }
    // Perf: a read asked for goes out at once (once this turn's microtasks are done: a whole fill
    // in one message); a slot given back waits for one, or for this thread to wait (an immediate).
    if (command[0] === 3) this.flushLater ??= setImmediate(() => this.flush());
    else if (!this.flushSoon) {
      this.flushSoon = true;
      queueMicrotask(() => this.flush());
    }
    this.outbox.push(command);
  }

  private flush(): void {
    this.flushSoon = false;
    if (this.flushLater !== undefined) clearImmediate(this.flushLater);
    this.flushLater = undefined;
    const commands = this.outbox;
    this.outbox = [];
    if (!this.gone && commands.length > 0) this.worker.postMessage(commands);
  }

  private answer(raw: FirstAnswer & ChunkAnswer): void {
    const resolve = this.waiting.get(raw.id);
    if (resolve === undefined) return;
    this.waiting.delete(raw.id);
    resolve(raw);
  }

  private end(): void {
    if (this.gone) return;
    this.gone = true;
    this.ready = false;
    this.outbox = [];
    for (const id of [...this.waiting.keys()]) this.answer(gone(id));
  }
}

/** What a read the ended worker owed is answered with. */
function gone(id: number): FirstAnswer & ChunkAnswer {
  return { id, slots: [], sizes: [], code: WORKER_GONE, message: 'the read worker has ended' };
}

function errorOf(raw: { code?: string; message?: string }): Error {
  return Object.assign(new Error(raw.message ?? raw.code), { code: raw.code });
}
