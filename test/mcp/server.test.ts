/**
 * The MCP server end to end: the real server spawned by the SDK's `StdioClientTransport` and
 * driven by its `Client`, as a host does. As root, the server runs as nobody (a chmod 000
 * directory then really is unreadable to it). Tool listing, a complete answer (the same text as
 * the JS tools), a truncated one, an incomplete one, nothing found with similar names, escape
 * attempts, bad input, and what the flags fix.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GLOB_INPUT_SCHEMA, GREP_INPUT_SCHEMA, globTool } from '../../src/agent/index.js';
import { buildNobodySandbox, isRoot, writeProbe } from '../helpers/unprivileged.js';
import { connect, serverCommand, textOf, type Session, type Spawn } from './helpers.js';

let tree: string;
let sandboxDir: string | undefined;
let session: Session;

/** The server for `--root tree` and `flags`: as nobody when we are root (through the compiled sources in a sandbox). */
function spawnFor(flags: string[]): Spawn {
  if (!isRoot) return serverCommand(['--root', tree, ...flags]);
  const sandbox = buildNobodySandbox();
  sandboxDir = sandbox.dir;
  const probe = writeProbe(sandbox, 'mcp.mjs', "import { main } from './dist/mcp/bundle.cjs';\nawait main(process.argv.slice(2));\n");
  const [command, ...prefix] = ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups', '--'];
  return { command: command!, args: [...prefix, sandbox.reachable(process.execPath), probe, '--root', tree, ...flags], cwd: sandbox.dir };
}

beforeAll(async () => {
  tree = mkdtempSync(join(tmpdir(), 'ff-mcp-'));
  mkdirSync(join(tree, 'src', 'auth'), { recursive: true });
  mkdirSync(join(tree, 'logs'));
  mkdirSync(join(tree, 'locked'));
  writeFileSync(join(tree, 'src', 'auth', 'loginService.ts'), 'export class LoginService {\n  login(user: string) {}\n}\n');
  writeFileSync(join(tree, 'src', 'index.ts'), "import { LoginService } from './auth/loginService';\n");
  for (let i = 0; i < 30; i++) writeFileSync(join(tree, 'logs', `run${String(i).padStart(2, '0')}.log`), 'ok\n');
  writeFileSync(join(tree, 'locked', 'secret.ts'), 'LoginService\n');
  for (const dir of [tree, join(tree, 'src'), join(tree, 'src', 'auth'), join(tree, 'logs')]) chmodSync(dir, 0o755);
  chmodSync(join(tree, 'locked'), 0o000);
  session = await connect(spawnFor(['--max-results', '20']));
}, 60_000);

afterAll(async () => {
  await session?.close();
  chmodSync(join(tree, 'locked'), 0o755);
  rmSync(tree, { recursive: true, force: true });
  if (sandboxDir !== undefined) rmSync(sandboxDir, { recursive: true, force: true });
});

describe('tools/list', () => {
  it('glob and grep, with the JS tools\' input schemas, one output schema, read-only', async () => {
    const { tools } = await session.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['glob', 'grep']);
    expect(tools[0]!.inputSchema).toEqual(GLOB_INPUT_SCHEMA);
    expect(tools[1]!.inputSchema).toEqual(GREP_INPUT_SCHEMA);
    for (const tool of tools) {
      expect(tool.outputSchema).toMatchObject({ type: 'object', required: ['tool', 'ok'] });
      expect(tool.annotations).toMatchObject({ readOnlyHint: true });
    }
  });
});

describe('tools/call', () => {
  it('a complete answer: the JS tool\'s own text, and the contract in structuredContent', async () => {
    const result = await session.client.callTool({ name: 'glob', arguments: { pattern: '*.ts', path: 'src' } });
    const local = await globTool({ pattern: '*.ts', path: 'src' }, { root: tree });
    expect(textOf(result)).toBe(local.content);
    expect(textOf(result)).toBe(['src/auth/loginService.ts', 'src/index.ts'].join('\n'));
    expect(result.isError).toBe(false);
    expect(result.structuredContent).toEqual({
      tool: 'glob', ok: true, complete: true, incompleteReasons: [], truncated: false, returned: 2, total: { count: 2, kind: 'exact' },
      searchRoot: join(tree, 'src'), skipped: { count: 0, paths: [] }, policy: { excluded: 0, symlinksNotFollowed: 0, ignored: 0 },
      paths: ['src/auth/loginService.ts', 'src/index.ts'], linksOnTheWay: { count: 0, paths: [] },
    });
  });

  it('a truncated answer: the page, how many there are, and the cap the flags set (--max-results 20)', async () => {
    const result = await session.client.callTool({ name: 'glob', arguments: { pattern: '*.log', path: 'logs', limit: 100 } });
    expect(result.structuredContent).toMatchObject({ complete: true, truncated: true, returned: 20, total: { count: 30, kind: 'exact' } });
    expect(textOf(result)).toContain('(truncated: showing 20 of 30)');
    expect(textOf(result)).toContain('(limit 100 is above the maximum: capped at 20)');
  });

  it('an incomplete answer: the unreadable directory is named, the matches found are kept, absence is not claimed', async () => {
    const result = await session.client.callTool({ name: 'grep', arguments: { query: 'LoginService' } });
    expect(result.structuredContent).toMatchObject({
      ok: true, complete: false, incompleteReasons: ['permission-denied'], skipped: { count: 1, paths: [{ path: 'locked', code: 'EACCES' }] },
    });
    expect((result.structuredContent as { hits: { path: string }[] }).hits.map((h) => h.path)).toEqual(['src/auth/loginService.ts', 'src/index.ts']);
    expect(textOf(result).split('\n').slice(2, 4)).toEqual(['(incomplete)', expect.stringMatching(/^Warning: /)]);
  });

  it('nothing found, complete: says so, with the names it saw that come closest', async () => {
    const result = await session.client.callTool({ name: 'glob', arguments: { pattern: 'loginServce.ts', path: 'src' } });
    expect(result.structuredContent).toMatchObject({ ok: true, complete: true, returned: 0, total: { count: 0, kind: 'exact' } });
    expect(textOf(result)).toContain(`No files matching "loginServce.ts" under ${join(tree, 'src')} (search complete).`);
    expect(textOf(result)).toContain('Similar file names seen in the search: src/auth/loginService.ts');
  });

  it.each([['../..'], ['/etc'], ['src/../../x']])('an escape attempt (%s) is refused as an isError answer', async (path) => {
    const result = await session.client.callTool({ name: 'glob', arguments: { pattern: '*', path } });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ tool: 'glob', ok: false, error: { code: expect.stringMatching(/^path-/) } });
    expect(textOf(result)).toMatch(/^Refused: path /);
  });

  it('bad input and an unknown tool are isError answers; the server goes on answering', async () => {
    const bad = await session.client.callTool({ name: 'grep', arguments: { query: 'x', limit: 'ten' } });
    expect(bad).toMatchObject({ isError: true, structuredContent: { ok: false, error: { code: 'invalid-input' } } });
    const unknown = await session.client.callTool({ name: 'find', arguments: {} });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toBe('unknown tool "find": this server has glob and grep');
    const after = await session.client.callTool({ name: 'glob', arguments: { pattern: 'index.ts', path: 'src' } });
    expect(textOf(after)).toBe('src/index.ts');
  });
});
