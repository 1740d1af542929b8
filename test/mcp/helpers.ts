/**
 * The MCP end-to-end harness: the real server (bin/find-file-mcp.mjs, or the compiled server in an
 * unprivileged sandbox) spawned by the SDK's own `StdioClientTransport`, as a host spawns it, and
 * driven by the SDK's `Client`. Its stderr is collected, so tests can read what it logged.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { TEST_FS } from '../helpers/cli.js';

export const MCP_BIN = fileURLToPath(new URL('../../bin/find-file-mcp.mjs', import.meta.url));

export interface Session {
  client: Client;
  transport: StdioClientTransport;
  /** Everything the server wrote on stderr so far. */
  stderr(): string;
  /** Resolves once stderr holds `text`. */
  waitForStderr(text: string): Promise<string>;
  /** The server's resident memory, in KiB (Linux: /proc). */
  rssKiB(): number;
  close(): Promise<void>;
}

export interface Spawn {
  command: string;
  args: string[];
  env?: Record<string, string>;
  cwd?: string;
}

/** The server as a host starts it: `node bin/find-file-mcp.mjs ARGS` (with the slow-fs preload when `slowMs` is set). */
export function serverCommand(args: string[], slowMs?: number): Spawn {
  const preload = slowMs === undefined ? [] : ['--import', TEST_FS];
  return { command: process.execPath, args: [...preload, MCP_BIN, ...args], env: slowMs === undefined ? {} : { FIND_FILE_TEST_SLOW_MS: String(slowMs) } };
}

export async function connect(spawn: Spawn, capabilities: Record<string, unknown> = {}): Promise<Session> {
  const env: Record<string, string> = { PATH: process.env.PATH ?? '', ...spawn.env };
  const transport = new StdioClientTransport({ command: spawn.command, args: spawn.args, env, stderr: 'pipe', ...(spawn.cwd === undefined ? {} : { cwd: spawn.cwd }) });
  let stderr = '';
  const waiters: { text: string; resolve: (all: string) => void }[] = [];
  transport.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
    for (const w of waiters.splice(0)) {
      if (stderr.includes(w.text)) w.resolve(stderr);
      else waiters.push(w);
    }
  });
  const client = new Client({ name: 'find-file-test-host', version: '1.0.0' }, { capabilities });
  await client.connect(transport);
  return {
    client,
    transport,
    stderr: () => stderr,
    waitForStderr: (text) => (stderr.includes(text) ? Promise.resolve(stderr) : new Promise((resolve) => waiters.push({ text, resolve }))),
    rssKiB: () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${transport.pid}/status`, 'utf8'))![1]),
    close: () => client.close(),
  };
}

/** The text of a tool answer. */
export function textOf(result: object): string {
  const [first] = (result as { content: { type: string; text: string }[] }).content;
  return first!.text;
}
