/**
 * The client's roots, however its first messages are timed (src/mcp/roots.ts). An adversarial run:
 * `notifications/initialized` written right behind `initialize` is handled before `initialize`'s
 * handler stored the client's capabilities (the SDK's request handlers start a promise hop later),
 * so the roots were never asked and every call of the session answered "No files ... (search
 * complete)" about the server's current directory; a call written before `initialized` did the
 * same once; a client that offers roots and never answers `roots/list` held every call 60 s (the
 * SDK's request timeout). Raw JSON-RPC lines over the real server's stdio, each ordering written
 * as a client may write it; every wait is on a message, never on a timer.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { MCP_BIN } from './helpers.js';

let base = '';
let client = '';
let serverCwd = '';

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'ff-mcp-roots-'));
  client = join(base, 'client');
  serverCwd = join(base, 'server');
  mkdirSync(join(client, 'src'), { recursive: true });
  mkdirSync(serverCwd);
  writeFileSync(join(client, 'src', 'a.js'), '');
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

type Message = { id?: number; method?: string; result?: { content?: { text: string }[]; isError?: boolean } };

/** The server over raw stdio: `send` writes a line, `next` waits for the next message that passes `want`. */
function rawServer(args: string[]) {
  const child: ChildProcess = spawn(process.execPath, [MCP_BIN, ...args], { cwd: serverCwd, stdio: ['pipe', 'pipe', 'pipe'], env: { PATH: process.env.PATH ?? '' } });
  const seen: Message[] = [];
  const waiters: { want: (m: Message) => boolean; resolve: (m: Message) => void }[] = [];
  let buffer = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    buffer += chunk;
    for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
      const message = JSON.parse(buffer.slice(0, nl)) as Message;
      buffer = buffer.slice(nl + 1);
      const waiter = waiters.findIndex((w) => w.want(message));
      if (waiter >= 0) waiters.splice(waiter, 1)[0]!.resolve(message);
      else seen.push(message);
    }
  });
  return {
    send: (message: object) => child.stdin!.write(`${JSON.stringify(message)}\n`),
    next: (want: (m: Message) => boolean) =>
      new Promise<Message>((resolve) => {
        const at = seen.findIndex(want);
        if (at >= 0) resolve(seen.splice(at, 1)[0]!);
        else waiters.push({ want, resolve });
      }),
    close: () => child.kill(),
  };
}

const INITIALIZE = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: { roots: { listChanged: true } }, clientInfo: { name: 'raw', version: '1' } } };
const INITIALIZED = { jsonrpc: '2.0', method: 'notifications/initialized' };
const call = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'glob', arguments: { pattern: '*.js' } } });
const answerOf = (m: Message) => m.result?.content?.[0]?.text ?? '';

describe('the client\'s roots, whatever the order of its first messages', () => {
  // Each ordering: what the client writes before it reads anything, then after initialize's answer.
  const orderings = [
    { name: 'initialized and the call right behind initialize', before: [INITIALIZE, INITIALIZED, call(2)], after: [] },
    { name: 'the call before initialized, initialized after initialize\'s answer', before: [INITIALIZE, call(2)], after: [INITIALIZED] },
    { name: 'each after the answer before it', before: [INITIALIZE], after: [INITIALIZED, call(2)] },
  ];
  for (const { name, before, after } of orderings) {
    it(`${name}: every call searches the client's root`, async () => {
      const server = rawServer([]);
      try {
        for (const message of before) server.send(message);
        await server.next((m) => m.id === 1);
        for (const message of after) server.send(message);
        const ask = await server.next((m) => m.method === 'roots/list');
        server.send({ jsonrpc: '2.0', id: ask.id, result: { roots: [{ uri: pathToFileURL(client).href }] } });
        expect(answerOf(await server.next((m) => m.id === 2))).toBe('src/a.js');
        server.send(call(3));
        expect(answerOf(await server.next((m) => m.id === 3))).toBe('src/a.js');
      } finally {
        server.close();
      }
    });
  }

  it('roots offered and never listed: the call fails within its budget, naming why, and searches nowhere else', async () => {
    const server = rawServer(['--time-budget-ms', '300']);
    try {
      server.send(INITIALIZE);
      await server.next((m) => m.id === 1);
      server.send(INITIALIZED);
      server.send(call(2));
      await server.next((m) => m.method === 'roots/list'); // never answered
      const answer = await server.next((m) => m.id === 2);
      expect(answer.result?.isError).toBe(true);
      expect(answerOf(answer)).toMatch(/roots are not known yet \(roots\/list not answered within 300 ms\): no search was made/);
      expect(answerOf(answer)).not.toContain('No files');
    } finally {
      server.close();
    }
  });
});

describe('a client that goes away', () => {
  // An orphaned server (its client killed mid-call) spun at 60% of a core for good: the answer's
  // write failed (EPIPE), the error was logged to the closed stderr, whose write failed, and so on.
  it('closed stdout and stderr (stdin still open): the server ends at its next write, it does not spin', { timeout: 20_000 }, async () => {
    const child = spawn(process.execPath, [MCP_BIN, '--root', client], { cwd: serverCwd, stdio: ['pipe', 'pipe', 'pipe'], env: { PATH: process.env.PATH ?? '' } });
    // Whatever the verdict (a timeout too), no server is left behind.
    onTestFinished(() => void child.kill('SIGKILL'));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const answered = new Promise<void>((resolve) => child.stdout!.once('data', () => resolve()));
    child.stdin!.write(`${JSON.stringify(INITIALIZE)}\n`);
    await answered;
    child.stdout!.destroy();
    child.stderr!.destroy();
    child.stdin!.write(`${JSON.stringify(INITIALIZED)}\n${JSON.stringify(call(2))}\n`);
    expect(await exited).toBe(0);
    child.stdin!.end();
  });
});
