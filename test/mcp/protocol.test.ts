/**
 * JSON-RPC at the edge of the real server (issue 27): a line that is not JSON gets the parse error
 * reply (-32700, id null); JSON that is no JSON-RPC message gets -32600; a request before
 * `initialize` is refused (-32600) and never run, `ping` excepted; the session goes on after each.
 * The server is spawned as a host spawns it and spoken to line by line; every wait is on a line.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LineTransport, MAX_LINE_CHARS } from '../../src/mcp/stdio.js';
import { MCP_BIN, serverCommand, type Spawn } from './helpers.js';

let base: string;
let child: ChildProcessWithoutNullStreams | undefined;

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'ff-mcp-protocol-'));
  mkdirSync(join(base, 'src'));
  writeFileSync(join(base, 'src', 'a.ts'), '');
  // A chain of folders for a search that is still running when it is cancelled (the preload makes each read slow).
  mkdirSync(join(base, 'chain', ...Array.from({ length: 30 }, () => 'd')), { recursive: true });
});

afterAll(() => rmSync(base, { recursive: true, force: true }));

afterEach(async () => {
  if (child === undefined) return;
  child.stdin.end();
  if (child.exitCode === null) await new Promise((resolve) => child!.on('close', resolve));
  child = undefined;
});

/** The real server; `next()` resolves with its next stdout line, parsed. */
function startServer(command: Spawn = { command: process.execPath, args: [MCP_BIN, '--root', base], env: {} }) {
  child = spawn(command.command, command.args, { stdio: ['pipe', 'pipe', 'pipe'], env: { PATH: process.env.PATH ?? '', ...command.env } });
  let stderr = '';
  const stderrWaiters: { text: string; resolve: () => void }[] = [];
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
    for (const w of stderrWaiters.splice(0)) (stderr.includes(w.text) ? w.resolve() : stderrWaiters.push(w));
  });
  const lines: unknown[] = [];
  const waiting: ((line: unknown) => void)[] = [];
  let buffer = '';
  child.stdout.on('data', (chunk: Buffer) => {
    buffer += chunk;
    for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
      const line = JSON.parse(buffer.slice(0, nl));
      buffer = buffer.slice(nl + 1);
      const waiter = waiting.shift();
      if (waiter) waiter(line);
      else lines.push(line);
    }
  });
  const write = (text: string) => child!.stdin.write(text + '\n');
  return {
    write,
    send: (message: object) => write(JSON.stringify({ jsonrpc: '2.0', ...message })),
    next: (): Promise<any> => (lines.length > 0 ? Promise.resolve(lines.shift()) : new Promise((resolve) => waiting.push(resolve))),
    stderrHas: (text: string): Promise<void> => (stderr.includes(text) ? Promise.resolve() : new Promise((resolve) => stderrWaiters.push({ text, resolve }))),
  };
}

/** A transport over in-memory streams, started; `got`: the messages it passed on. */
async function openTransport(highWaterMark?: number) {
  const input = new PassThrough(highWaterMark === undefined ? {} : { highWaterMark });
  const output = new PassThrough();
  const transport = new LineTransport(input, output);
  const got: any[] = [];
  transport.onmessage = (message) => void got.push(message);
  await transport.start();
  return { input, output, transport, got };
}

const INITIALIZE = { method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };
const CALL = { method: 'tools/call', params: { name: 'glob', arguments: { pattern: '*.ts' } } };

describe('the server at the JSON-RPC edge', () => {
  it('malformed JSON gets -32700 with id null, and the session goes on', async () => {
    const server = startServer();
    server.write('{"jsonrpc": "2.0", "id": 1, "method": ');
    expect(await server.next()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
    server.send({ id: 2, ...INITIALIZE });
    expect(await server.next()).toMatchObject({ id: 2, result: { serverInfo: { name: 'find-file' } } });
    server.send({ method: 'notifications/initialized' });
    server.write('not json at all');
    expect(await server.next()).toMatchObject({ id: null, error: { code: -32700, message: expect.stringMatching(/^Parse error/) } });
    server.send({ id: 3, ...CALL });
    expect((await server.next()).result.content[0].text).toBe('src/a.ts');
  });

  it('tools/call and tools/list before initialize are refused with -32600 (never run); ping is answered; after initialize the same call runs', async () => {
    const server = startServer();
    server.send({ id: 'early', ...CALL });
    expect(await server.next()).toEqual({ jsonrpc: '2.0', id: 'early', error: { code: -32600, message: 'Server not initialized: send "initialize" before "tools/call"' } });
    server.send({ id: 7, method: 'tools/list' });
    expect(await server.next()).toMatchObject({ id: 7, error: { code: -32600 } });
    server.send({ id: 'p', method: 'ping' });
    expect(await server.next()).toEqual({ jsonrpc: '2.0', id: 'p', result: {} });
    // Pipelined: the call written right behind initialize, without waiting, is answered.
    server.send({ id: 1, ...INITIALIZE });
    server.send({ method: 'notifications/initialized' });
    server.send({ id: 2, ...CALL });
    expect(await server.next()).toMatchObject({ id: 1, result: { protocolVersion: '2025-06-18' } });
    expect(await server.next()).toMatchObject({ id: 2, result: { content: [{ text: 'src/a.ts' }] } });
  });

  it.each([
    ['arguments null', { name: 'glob', arguments: null }, 'params.arguments'],
    ['arguments a string', { name: 'glob', arguments: '*.ts' }, 'params.arguments'],
    ['name a number', { name: 5, arguments: { pattern: '*.ts' } }, 'params.name'],
    ['no name', { arguments: { pattern: '*.ts' } }, 'params.name'],
  ])('tools/call with %s gets -32602 naming what is wrong (not -32603, a server failure), and the session goes on', async (_what, params, where) => {
    const server = startServer();
    server.send({ id: 1, ...INITIALIZE });
    expect(await server.next()).toMatchObject({ id: 1, result: {} });
    server.send({ method: 'notifications/initialized' });
    server.send({ id: 'bad', method: 'tools/call', params });
    const reply = (await server.next()) as { id: unknown; error: { code: number; message: string } };
    expect(reply).toMatchObject({ id: 'bad', error: { code: -32602 } });
    expect(reply.error.message).toContain(`Invalid params: ${where}`);
    server.send({ id: 2, ...CALL });
    expect(await server.next()).toMatchObject({ id: 2, result: { content: [{ text: 'src/a.ts' }] } });
  });

  it('an initialize with bad params gets -32602 and opens no session; tools/list with bad params gets -32602', async () => {
    const server = startServer();
    server.send({ id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {} } });
    expect(await server.next()).toMatchObject({ id: 1, error: { code: -32602 } });
    server.send({ id: 2, ...CALL });
    expect(await server.next()).toMatchObject({ id: 2, error: { code: -32600 } });
    server.send({ id: 3, ...INITIALIZE });
    expect(await server.next()).toMatchObject({ id: 3, result: {} });
    server.send({ id: 4, method: 'tools/list', params: { cursor: 7 } });
    expect(await server.next()).toMatchObject({ id: 4, error: { code: -32602 } });
  });

  it('JSON that is no JSON-RPC message gets -32600, with its id when it has one; a batch gets -32600 with id null', async () => {
    const server = startServer();
    server.write('{"jsonrpc":"1.0","id":9,"method":"ping"}');
    expect(await server.next()).toMatchObject({ id: 9, error: { code: -32600 } });
    server.write('[{"jsonrpc":"2.0","id":1,"method":"ping"}]');
    expect(await server.next()).toMatchObject({ id: null, error: { code: -32600 } });
    server.write('42');
    expect(await server.next()).toMatchObject({ id: null, error: { code: -32600 } });
    // A blank line is no message: nothing comes back for it, and the next request is answered.
    server.write('');
    server.send({ id: 'after', method: 'ping' });
    expect(await server.next()).toMatchObject({ id: 'after', result: {} });
  });
});

describe('request ids 0 and "" (an adversarial run: the SDK drops a falsy requestId, so they could not be cancelled)', () => {
  it('a call with each is cancelled by notifications/cancelled: no answer, the cancel line on stderr; the session goes on', async () => {
    for (const id of [0, '']) {
      const server = startServer(serverCommand(['--root', base], 200));
      server.send({ id: 1, ...INITIALIZE });
      expect(await server.next()).toMatchObject({ id: 1 });
      server.send({ method: 'notifications/initialized' });
      // Progress proves the search is under way; each directory read takes 200 ms (the test preload).
      server.send({ id, method: 'tools/call', params: { name: 'glob', arguments: { pattern: '**/*.ts', path: 'chain' }, _meta: { progressToken: 'p' } } });
      expect(await server.next()).toMatchObject({ method: 'notifications/progress' });
      server.send({ method: 'notifications/cancelled', params: { requestId: id } });
      await server.stderrHas('glob cancelled by the client');
      // The next answer is the ping's: the cancelled call got none.
      server.send({ id: 7, method: 'ping' });
      let next = await server.next();
      while (next.method === 'notifications/progress') next = await server.next();
      expect(next, JSON.stringify(id)).toMatchObject({ id: 7, result: {} });
      child!.stdin.end();
      await new Promise((resolve) => child!.on('close', resolve));
      child = undefined;
    }
  }, 60_000);

  it('a response keeps its id (the server\'s own requests are numbered from 0); a request with id 0 is answered with id 0', async () => {
    const { input, output, transport, got } = await openTransport();
    input.write(JSON.stringify({ jsonrpc: '2.0', id: 0, ...INITIALIZE }) + '\n');
    input.write('{"jsonrpc":"2.0","id":0,"result":{"roots":[]}}\n');
    expect(got[0].id).not.toBe(0);
    expect(got[1]).toEqual({ jsonrpc: '2.0', id: 0, result: { roots: [] } });
    void transport.send({ jsonrpc: '2.0', id: got[0].id, result: {} });
    expect(JSON.parse(String(output.read()))).toEqual({ jsonrpc: '2.0', id: 0, result: {} });
  });

  it('a client id that looks like an inner one is its own: each request in flight is answered on its id', async () => {
    const { input, output, transport, got } = await openTransport();
    const ids = [0, '', '\u0000find-file:0', '\u0000find-file:""', '\u0000find-file:=0', '\u0000find-file:', 'plain', 7];
    input.write(JSON.stringify({ jsonrpc: '2.0', id: 'init', ...INITIALIZE }) + '\n');
    for (const id of ids) input.write(JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' }) + '\n');
    const inner = got.slice(1).map((m) => m.id);
    // Inside the server, every id in flight is distinct.
    expect(new Set(inner).size).toBe(ids.length);
    const answered: unknown[] = [];
    for (const id of inner) {
      void transport.send({ jsonrpc: '2.0', id, result: {} });
      answered.push(JSON.parse(String(output.read())).id);
    }
    expect(answered).toEqual(ids);
  });
});

describe('LineTransport', () => {
  it('a line over the cap is dropped up to its newline with -32600 (id null), and the session goes on (an adversarial run: deaf after it)', async () => {
    const { input, output, got } = await openTransport(1 << 24);
    const ping = (id: number) => `{"jsonrpc":"2.0","id":${id},"method":"ping"}\n`;
    input.write(ping(1));
    // A valid message too long, in pieces, its newline in a later chunk with the next message behind it.
    const huge = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping', params: { pad: 'x'.repeat(MAX_LINE_CHARS) } });
    for (let at = 0; at < huge.length; at += 1 << 20) input.write(huge.slice(at, at + (1 << 20)));
    input.write('\n' + ping(3));
    input.write(ping(4));
    expect(got).toEqual([{ jsonrpc: '2.0', id: 1, method: 'ping' }, { jsonrpc: '2.0', id: 3, method: 'ping' }, { jsonrpc: '2.0', id: 4, method: 'ping' }]);
    const replies = String(output.read()).trim().split('\n').map((l) => JSON.parse(l));
    expect(replies).toEqual([{ jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringMatching(/^Invalid Request: a line longer than 10485760 characters was dropped/) } }]);
  });

  it('a notification before initialize is dropped; a character split across two chunks arrives whole; an initialize answered with an error closes the session again', async () => {
    const { input, output, transport, got } = await openTransport();
    // A notification before initialize is dropped.
    input.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
    expect(got).toEqual([]);
    const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { ...INITIALIZE.params, clientInfo: { name: 'é', version: '1' } } };
    const bytes = Buffer.from(JSON.stringify(initialize) + '\n');
    const cut = bytes.indexOf(Buffer.from('é')) + 1;
    input.write(bytes.subarray(0, cut));
    input.write(bytes.subarray(cut));
    expect(got).toEqual([initialize]);
    await transport.send({ jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'bad params' } });
    input.write('{"jsonrpc":"2.0","id":2,"method":"tools/list"}\n');
    expect(got).toHaveLength(1);
    const replies = String(output.read()).trim().split('\n').map((l) => JSON.parse(l));
    expect(replies.at(-1)).toMatchObject({ id: 2, error: { code: -32600 } });
  });
});
