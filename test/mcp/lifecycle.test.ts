/**
 * The MCP server over a session: the client's roots (and their change), cancellation mid-search,
 * progress notifications, 2,000 sequential and 50 concurrent calls with flat memory after warm-up, stdout
 * holding protocol messages only, a call that throws becoming an isError answer, and usage errors.
 * Slow searches use the test preload that delays each directory read (test/helpers/cli-test-fs.mjs),
 * and every wait is on an event (a progress notification, a stderr line), never on a timer.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from '../../src/mcp/server.js';
import { BIN } from '../helpers/cli.js';
import { MCP_BIN, connect, serverCommand, textOf } from './helpers.js';

let base: string;
/** A chain of directories `d/d/d/...`, `depth` deep, with `leaf.txt` at the bottom: read one level at a time. */
function chain(name: string, depth: number): string {
  const root = join(base, name);
  let dir = root;
  for (let i = 0; i < depth; i++) dir = join(dir, 'd');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'leaf.txt'), 'needle\n');
  return root;
}

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'ff-mcp-life-'));
  for (const name of ['one', 'two']) {
    mkdirSync(join(base, name, 'src'), { recursive: true });
    writeFileSync(join(base, name, 'src', `${name}.ts`), `export const ${name} = 1;\n`);
  }
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('roots', () => {
  it('without --root, the client\'s roots; a change of roots applies to the next call', async () => {
    let roots = [join(base, 'one'), join(base, 'two')];
    const session = await connect(serverCommand([]), { roots: { listChanged: true } });
    session.client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: roots.map((r) => ({ uri: pathToFileURL(r).href, name: r })) }));
    try {
      expect(textOf(await session.client.callTool({ name: 'glob', arguments: { pattern: '*.ts' } }))).toBe('src/one.ts');
      const other = await session.client.callTool({ name: 'glob', arguments: { pattern: '*.ts', path: join(base, 'two') } });
      expect(textOf(other)).toBe(join(base, 'two', 'src', 'two.ts'));
      roots = [join(base, 'two')];
      await session.client.sendRootsListChanged();
      expect(textOf(await session.client.callTool({ name: 'glob', arguments: { pattern: '*.ts' } }))).toBe('src/two.ts');
      const gone = await session.client.callTool({ name: 'glob', arguments: { pattern: '*.ts', path: join(base, 'one') } });
      expect(gone).toMatchObject({ isError: true, structuredContent: { error: { code: 'path-absolute-outside' } } });
    } finally {
      await session.close();
    }
  });

  it('--root wins over the client\'s roots', async () => {
    const session = await connect(serverCommand(['--root', join(base, 'two')]), { roots: {} });
    session.client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: [{ uri: pathToFileURL(join(base, 'one')).href }] }));
    try {
      expect(textOf(await session.client.callTool({ name: 'glob', arguments: { pattern: '*.ts' } }))).toBe('src/two.ts');
    } finally {
      await session.close();
    }
  });
});

describe('long searches', () => {
  it('progress notifications while a search runs, counting directories read', async () => {
    const root = chain('progress', 15);
    const session = await connect(serverCommand(['--root', root], 100));
    try {
      const seen: { progress: number; message?: string }[] = [];
      const result = await session.client.callTool({ name: 'glob', arguments: { pattern: 'leaf.txt' } }, undefined, { onprogress: (p) => seen.push(p) });
      expect(result.structuredContent).toMatchObject({ complete: true, returned: 1 });
      expect(seen.length).toBeGreaterThan(0);
      expect(seen[0]!.progress).toBeGreaterThan(0);
      expect(seen[0]!.message).toMatch(/^\d+ directories read$/);
      expect(seen.map((p) => p.progress)).toEqual([...seen.map((p) => p.progress)].sort((a, b) => a - b));
    } finally {
      await session.close();
    }
  });

  it('cancellation mid-search aborts the search through its signal; the server answers the next call', async () => {
    const root = chain('cancel', 60);
    const session = await connect(serverCommand(['--root', root], 100));
    try {
      const controller = new AbortController();
      const call = session.client.callTool({ name: 'grep', arguments: { query: 'needle' } }, undefined, { signal: controller.signal, onprogress: () => controller.abort() });
      await expect(call).rejects.toThrow();
      const stderr = await session.waitForStderr('grep cancelled by the client');
      expect(stderr).toMatch(/grep cancelled by the client: Incomplete search \(cancelled\): 0 matches for "needle" found in the part searched/);
      // Asked in the chain's last folder: one read (100 ms), where asking from the top read all 60.
      const last = Array(60).fill('d').join('/');
      const next = await session.client.callTool({ name: 'glob', arguments: { pattern: 'leaf.txt', path: last } });
      expect(next.isError).toBe(false);
      expect(textOf(next)).toBe(`${last}/leaf.txt`);
    } finally {
      await session.close();
    }
    // 1 s idle (a server start, a search slowed to 100 ms a read, a second call); busy CI machines
    // ran the slowest tests of this kind 4-7 times slower than idle: a ceiling for a hang, not a speed check.
  }, 120_000);
});

describe('many calls', () => {
  it('2,000 sequential and 50 concurrent calls: every answer right, memory flat after warm-up', async () => {
    // V8's old space capped at 48 MiB: garbage is then collected rather than kept, so what RSS
    // shows is what the server holds on to (uncapped, the heap grows to ~120 MiB and plateaus).
    // Not 40: the server's heap sits near 40 MiB, so every call ran a full collection (5-11 s of
    // the server's CPU for the 2,050 calls, 2.5 s at 48), and a planted leak of 1,024 numbers a
    // call passed at 40 (+2.9 MiB in 1,000 calls) where 48 caught it (+19.5 MiB).
    const command = serverCommand(['--root', join(base, 'one')]);
    const session = await connect({ ...command, env: { ...command.env, NODE_OPTIONS: '--max-old-space-size=48' } });
    try {
      const call = () => session.client.callTool({ name: 'glob', arguments: { pattern: '*.ts' } });
      // Warm-up first: the bundled server (dist/mcp/bundle.cjs) settles after some hundreds of calls
      // (68 MiB after 100, 82 after 1,000, then 82-83 through 5,000: measured at a 40 MiB
      // cap; 96-98 after 1,000 at 48), so the baseline is taken at 1,000 and the next 1,000 must not grow it.
      for (let i = 0; i < 1000; i++) expect(textOf(await call())).toBe('src/one.ts');
      const warm = session.rssKiB();
      for (let i = 0; i < 1000; i++) expect(textOf(await call())).toBe('src/one.ts');
      const sequential = session.rssKiB();
      const answers = await Promise.all(Array.from({ length: 50 }, call));
      for (const answer of answers) expect(textOf(answer)).toBe('src/one.ts');
      const concurrent = session.rssKiB();
      // The figures go to the closing note; "flat": 1,000 more calls grow the server by less than 8 MiB.
      console.log(`mcp memory: after 1000 calls ${warm} KiB, after 2000 ${sequential} KiB, after 50 concurrent ${concurrent} KiB`);
      expect(sequential - warm).toBeLessThan(8 * 1024);
      expect(concurrent - warm).toBeLessThan(16 * 1024);
    } finally {
      await session.close();
    }
  }, 120_000);
});

describe('the process', () => {
  it('stdout carries JSON-RPC messages and nothing else; the start-up line goes to stderr', async () => {
    const child = spawn(process.execPath, [MCP_BIN, '--root', join(base, 'one')], { stdio: ['pipe', 'pipe', 'pipe'] });
    const lines: string[] = [];
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c));
    const done = new Promise<void>((resolve) => {
      let buffer = '';
      child.stdout.on('data', (c: Buffer) => {
        buffer += c;
        for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
          lines.push(buffer.slice(0, nl));
          buffer = buffer.slice(nl + 1);
          if (lines.length === 2) resolve();
        }
      });
    });
    const send = (message: object) => child.stdin.write(JSON.stringify({ jsonrpc: '2.0', ...message }) + '\n');
    send({ id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
    send({ method: 'notifications/initialized' });
    send({ id: 2, method: 'tools/call', params: { name: 'glob', arguments: { pattern: '*.ts' } } });
    await done;
    child.stdin.end();
    await new Promise((resolve) => child.on('close', resolve));
    expect(lines.map((l) => JSON.parse(l)).map((m) => [m.jsonrpc, m.id])).toEqual([['2.0', 1], ['2.0', 2]]);
    expect(JSON.parse(lines[1]!).result.content[0].text).toBe('src/one.ts');
    expect(stderr).toMatch(/^find-file mcp .+: serving glob and grep over stdio for /);
  });

  it('a call that throws (a host setting the library refuses) is an isError answer, and the server goes on', async () => {
    const log: string[] = [];
    const server = createServer({ version: 't', roots: [join(base, 'one')], context: { countCap: 5 }, log: (line) => log.push(line) });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 't', version: '1' });
    await client.connect(clientSide);
    const result = await client.callTool({ name: 'glob', arguments: { pattern: '*' } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe('glob could not run: countCap must be above 500 (the largest limit), got 5');
    expect(log.join('\n')).toContain('find-file mcp: glob failed');
    expect((await client.listTools()).tools).toHaveLength(2);
    await client.close();
  });

  it.each([
    [['--root', '/no/such/dir'], '--root "/no/such/dir" is not a directory'],
    [['--max-results', '501'], '--max-results must be an integer from 1 to 500, got "501"'],
    [['--frobnicate'], 'Unknown argument: frobnicate'],
  ])('usage errors exit 2 before serving: %j', (args, message) => {
    // Both ways in: find-file-mcp, and find-file mcp.
    for (const argv of [[MCP_BIN, ...args], [BIN, 'mcp', ...args]]) {
      const run = spawnSync(process.execPath, argv, { encoding: 'utf8', input: '' });
      expect(run.status).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toContain(message);
    }
  });
});
