/**
 * The stdio transport: MCP's stdio framing (one JSON-RPC message per line, UTF-8, on stdin and
 * stdout), with the two rules the SDK's `StdioServerTransport` leaves out (it drops such lines in
 * silence, and answers any request at any time):
 *
 * - A line that is not JSON gets JSON-RPC's parse error reply: `-32700`, `id: null`. A line that is
 *   JSON but no JSON-RPC message (a batch array, no `method`, a bad `jsonrpc`) gets `-32600`
 *   (Invalid Request), with its `id` when it has a string or number one, else `id: null`, as JSON-RPC
 *   2.0 says. A blank line is no message and gets nothing.
 * - Before an `initialize` request, a request other than `ping` is refused with `-32600` (MCP's
 *   lifecycle: initialization "MUST be the first interaction", and only pings may come before it;
 *   `-32600` is what the Java SDK answers, JSON-RPC's code for a request that is not valid). The
 *   session opens when `initialize` arrives, not when it is answered: a client may write its next
 *   requests behind it without waiting (pipelining), and they are answered in order. An
 *   `initialize` answered with an error closes it again. A notification before `initialize` is
 *   dropped (nothing answers a notification, and none means anything before the session).
 */
import { StringDecoder } from 'node:string_decoder';
import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  InitializeRequestSchema,
  JSONRPCMessageSchema,
  ListToolsRequestSchema,
  type JSONRPCMessage,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const INVALID_PARAMS = -32602;

/**
 * The requests this server answers, with the shape of their params. The SDK checks them too, but
 * answers a bad one (`"arguments": null`) with `-32603`, an internal error, as if the server had
 * failed: JSON-RPC's code for it is `-32602`, with what was wrong.
 */
interface ParamsShape {
  safeParse(value: unknown): { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } };
}
const PARAMS_SHAPES = new Map<string, ParamsShape>([
  ['initialize', InitializeRequestSchema as ParamsShape],
  ['tools/list', ListToolsRequestSchema as ParamsShape],
  ['tools/call', CallToolRequestSchema as ParamsShape],
]);

/** What is wrong with a request's params, or undefined when its shape is right (or not checked here). */
function paramsProblem(message: JSONRPCMessage): string | undefined {
  if (!('method' in message) || !('id' in message)) return undefined;
  const checked = PARAMS_SHAPES.get(message.method)?.safeParse(message);
  if (checked === undefined || checked.success) return undefined;
  const issue = checked.error?.issues[0];
  return issue === undefined ? 'Invalid params' : `Invalid params: ${issue.path.map(String).join('.')}: ${issue.message}`;
}

/**
 * The longest line read: one longer is dropped, up to its newline, with a `-32600` reply (`id:
 * null`: it was never parsed), and the session goes on. It ended the session once, as the SDK's
 * transport does, but left stdin open: an adversarial run's client got no answer to anything
 * after, from a server that never exited.
 */
export const MAX_LINE_CHARS = 10 * 1024 * 1024;

/**
 * Request ids the SDK cannot cancel: its `notifications/cancelled` handler drops a falsy
 * `requestId` (`0`, `""`), so a client that numbers from 0 could not cancel that request (an
 * adversarial run: the search ran its whole budget and answered). Inside the server they are
 * carried as strings of the server's own (`INNER`, a NUL first), and restored on the way out. A
 * client's string id that starts so is carried escaped (`INNER` `=` the id): the mapping is one to
 * one, so a client that writes `"\u0000find-file:0"` beside `0` gets each answer on its own id (an
 * adversarial run: both answered as 0, one answer lost).
 */
const INNER = '\u0000find-file:';

/** The id a client's request is carried under inside the server; undefined: as it is. */
function innerId(id: RequestId): string | undefined {
  if (id === 0) return `${INNER}0`;
  if (id === '') return `${INNER}""`;
  return typeof id === 'string' && id.startsWith(INNER) ? `${INNER}=${id}` : undefined;
}

/** The client's id back from its inner string; undefined for any other id. */
function outerId(id: RequestId): RequestId | undefined {
  if (typeof id !== 'string' || !id.startsWith(INNER)) return undefined;
  const rest = id.slice(INNER.length);
  return rest === '0' ? 0 : rest === '""' ? '' : rest.startsWith('=') ? rest.slice(1) : undefined;
}

/**
 * A client's request with a falsy id (and a cancellation of one) carried as its inner string. A
 * response keeps its id: it answers one of the server's own requests (`roots/list`), numbered by the SDK from 0.
 */
function inward(message: JSONRPCMessage): JSONRPCMessage {
  const inner = 'method' in message && 'id' in message && message.id !== undefined ? innerId(message.id) : undefined;
  if (inner !== undefined) return { ...message, id: inner } as JSONRPCMessage;
  if ('method' in message && message.method === 'notifications/cancelled') {
    const requestId = (message.params as { requestId?: RequestId } | undefined)?.requestId;
    const cancelled = requestId === undefined ? undefined : innerId(requestId);
    if (cancelled !== undefined) return { ...message, params: { ...message.params, requestId: cancelled } };
  }
  return message;
}

/** The requests a client may send before `initialize`. */
const BEFORE_INITIALIZE: ReadonlySet<string> = new Set(['initialize', 'ping']);

export class LineTransport implements Transport {
  onmessage?: Transport['onmessage'];
  onerror?: (error: Error) => void;
  onclose?: () => void;
  private readonly decoder = new StringDecoder('utf8');
  private pending = '';
  /** Inside a line over the cap: its rest is dropped up to its newline. */
  private skipping = false;
  private initialized = false;
  /** The ids of `initialize` requests not answered yet: an error reply to one closes the session again. */
  private readonly initializeIds = new Set<RequestId>();

  constructor(
    private readonly input: Readable = process.stdin,
    private readonly output: Writable = process.stdout,
  ) {}

  async start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.on('error', this.onInputError);
  }

  async close(): Promise<void> {
    this.input.off('data', this.onData);
    this.input.off('error', this.onInputError);
    this.pending = '';
    this.onclose?.();
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (('result' in message || 'error' in message) && message.id !== undefined && this.initializeIds.delete(message.id)) this.initialized = 'result' in message;
    const outer = 'id' in message && message.id !== undefined ? outerId(message.id) : undefined;
    return this.write(outer === undefined ? message : { ...message, id: outer });
  }

  private readonly onInputError = (error: Error) => this.onerror?.(error);

  private readonly onData = (chunk: Buffer | string) => {
    // A StringDecoder keeps a character split across two chunks whole.
    this.pending += typeof chunk === 'string' ? chunk : this.decoder.write(chunk);
    if (this.skipping) {
      const end = this.pending.indexOf('\n');
      this.pending = end < 0 ? '' : this.pending.slice(end + 1);
      if (end < 0) return;
      this.skipping = false;
    }
    for (let newline = this.pending.indexOf('\n'); newline >= 0; newline = this.pending.indexOf('\n')) {
      const line = this.pending.slice(0, newline).replace(/\r$/, '');
      this.pending = this.pending.slice(newline + 1);
      this.accept(line);
    }
    if (this.pending.length > MAX_LINE_CHARS) {
      this.pending = '';
      this.skipping = true;
      this.onerror?.(new Error(`a message longer than ${MAX_LINE_CHARS} characters was dropped`));
      void this.reply(null, INVALID_REQUEST, `Invalid Request: a line longer than ${MAX_LINE_CHARS} characters was dropped (MCP sends one message per line)`);
    }
  };

  /** One line: a message passed on, or the error reply it gets. */
  private accept(line: string): void {
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      void this.reply(null, PARSE_ERROR, `Parse error: ${(error as Error).message}`);
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (!parsed.success) {
      const id = (value as { id?: unknown } | null)?.id;
      const usable = typeof id === 'string' || typeof id === 'number' ? id : null;
      void this.reply(Array.isArray(value) ? null : usable, INVALID_REQUEST, Array.isArray(value) ? 'Invalid Request: batches are not supported (MCP sends one message per line)' : 'Invalid Request: not a JSON-RPC 2.0 message');
      return;
    }
    const message = inward(parsed.data);
    if (!this.initialized && 'method' in message && !BEFORE_INITIALIZE.has(message.method)) {
      // A notification gets no answer: it is dropped (`notifications/initialized` before `initialize` would start the session's roots).
      if ('id' in message) void this.reply(message.id, INVALID_REQUEST, `Server not initialized: send "initialize" before "${message.method}"`);
      return;
    }
    const problem = paramsProblem(message);
    if (problem !== undefined && 'id' in message && message.id !== undefined) {
      void this.reply(message.id, INVALID_PARAMS, problem);
      return;
    }
    if ('method' in message && 'id' in message && message.method === 'initialize') {
      this.initialized = true;
      this.initializeIds.add(message.id);
    }
    this.onmessage?.(message);
  }

  private reply(id: RequestId | null, code: number, message: string): Promise<void> {
    return this.write({ jsonrpc: '2.0', id, error: { code, message } });
  }

  private write(message: object): Promise<void> {
    return new Promise((resolve) => {
      if (this.output.write(JSON.stringify(message) + '\n')) resolve();
      else this.output.once('drain', resolve);
    });
  }
}
