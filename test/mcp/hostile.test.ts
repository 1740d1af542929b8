/**
 * Issue 26 over MCP: a glob built to make a backtracking matcher run for minutes (`*a*a*a*a*a*a*x`
 * against names of 250 `a`s) must not hold the server. The hostile call walks a slow chain (the test
 * preload delays each directory read) whose every directory holds such a name; a second call, to a
 * one-directory sibling, is answered while the first still runs, and the first, cancelled, ends as
 * "cancelled", never "complete". Every wait is on an event: the answers' order and a stderr line.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connect, serverCommand, textOf } from './helpers.js';

const HOSTILE = '*a*a*a*a*a*a*x';
let base: string;

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'ff-mcp-hostile-'));
  let dir = join(base, 'chain');
  for (let i = 0; i < 40; i++) {
    mkdirSync(dir, { recursive: true });
    // 250 bytes, the most a name may hold: each is a minute's backtracking for a naive matcher.
    writeFileSync(join(dir, 'a'.repeat(247) + String(i).padStart(3, '0')), '');
    dir = join(dir, 'd');
  }
  mkdirSync(join(base, 'other'));
  writeFileSync(join(base, 'other', 'x.txt'), '');
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

it('a hostile glob does not hold the server: a second call is answered first, and the cancelled one ends "cancelled"', async () => {
  const session = await connect(serverCommand(['--root', base], 100));
  try {
    const order: string[] = [];
    const controller = new AbortController();
    let running!: () => void;
    const started = new Promise<void>((resolve) => (running = resolve));
    const hostile = session.client
      .callTool({ name: 'glob', arguments: { pattern: HOSTILE, path: 'chain' } }, undefined, { signal: controller.signal, onprogress: () => running(), timeout: 120_000 })
      .then(
        () => order.push('hostile answered'),
        () => order.push('hostile cancelled'),
      );
    // Progress proves the hostile search is under way (it has read, and matched, a directory).
    await started;
    const second = await session.client.callTool({ name: 'glob', arguments: { pattern: '*.txt', path: 'other' } });
    order.push('second answered');
    expect(textOf(second)).toBe('other/x.txt');
    controller.abort();
    await hostile;
    expect(order).toEqual(['second answered', 'hostile cancelled']);
    const stderr = await session.waitForStderr('glob cancelled by the client');
    expect(stderr).toMatch(/glob cancelled by the client: Incomplete search \(cancelled\)/);
  } finally {
    await session.close();
  }
}, 60_000);

it('the hostile glob, left to run, answers right: complete, no match, as bash would', async () => {
  const session = await connect(serverCommand(['--root', base]));
  try {
    const result = await session.client.callTool({ name: 'glob', arguments: { pattern: HOSTILE, path: 'chain' } });
    expect(result.structuredContent).toMatchObject({ complete: true, returned: 0 });
    const near = await session.client.callTool({ name: 'glob', arguments: { pattern: '*a*a*a*a*a*a*0', path: 'chain' } });
    expect(near.structuredContent).toMatchObject({ complete: true, returned: 4 });
  } finally {
    await session.close();
  }
}, 60_000);
