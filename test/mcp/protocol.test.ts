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
import { LineTransport } from '../../src/mcp/stdio.js';
import { MCP_BIN } from './helpers.js';

let base: string;
let child: ChildProcessWithoutNullStreams | undefined;

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'ff-mcp-protocol-'));
  mkdirSync(join(base, 'src'));
  writeFileSync(join(base, 'src', 'a.ts'), '');
});

afterAll(() => rmSync(base, { recursive: true, force: true }));

afterEach(async () => {
  if (child === undefined) return;
  child.stdin.end();
  if (child.exitCode === null) await new Promise((resolve) => child!.on('close', resolve));
  child = undefined;
});

/** The real server; `next()` resolves with its next stdout line, parsed. */
function startServer() {
  child = spawn(process.execPath, [MCP_BIN, '--root', base], { stdio: ['pipe', 'pipe', 'pipe'] });
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
  };
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

describe('LineTransport', () => {
  it('a notification before initialize is dropped; a character split across two chunks arrives whole; an initialize answered with an error closes the session again', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const transport = new LineTransport(input, output);
    const got: unknown[] = [];
    transport.onmessage = (message) => void got.push(message);
    await transport.start();
    // A notification before initialize is dropped.
    input.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
    expect(got).toEqual([]);
    const bytes = Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { name: 'é' } }) + '\n');
    const cut = bytes.indexOf(Buffer.from('é')) + 1;
    input.write(bytes.subarray(0, cut));
    input.write(bytes.subarray(cut));
    expect(got).toEqual([{ jsonrpc: '2.0', id: 1, method: 'initialize', params: { name: 'é' } }]);
    await transport.send({ jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'bad params' } });
    input.write('{"jsonrpc":"2.0","id":2,"method":"tools/list"}\n');
    expect(got).toHaveLength(1);
    const replies = String(output.read()).trim().split('\n').map((l) => JSON.parse(l));
    expect(replies.at(-1)).toMatchObject({ id: 2, error: { code: -32600 } });
  });
});
