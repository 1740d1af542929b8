/**
 * The command and the MCP server read no directory at start-up (a hung mount above the current
 * directory, or the share it is on, held both for good): yargs, created, guesses a version by
 * reading every directory from the cwd up to the first holding a package.json, before any budget.
 * The bundles give its search nothing to read (scripts/bundle.mjs `noFindUp`). The oracle is the
 * test preload's record of every directory read (FIND_FILE_TEST_MARKER: a `read DIR` line each,
 * relative to the cwd): at start-up there is none, and a search reads its root's folders only.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { BIN, TEST_FS } from '../helpers/cli.js';
import { MCP_BIN } from '../mcp/helpers.js';

let base: string;
let cwd: string;
let marker: string;
beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'ff-startup-reads-'));
  // Three folders above the cwd with no package.json: yargs's guess read each of them, and more.
  cwd = join(base, 'a', 'b', 'c');
  mkdirSync(join(cwd, 'root', 'sub'), { recursive: true });
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** The directories read, as the preload recorded them; none when it never wrote its marker. */
function reads(): string[] {
  if (!existsSync(marker)) return [];
  // The preload writes its pid at the first read, with no line end: the first line is `PIDread DIR`.
  return readFileSync(marker, 'utf8').split('\n').map((line) => line.replace(/^\d+/, '')).filter((line) => line.startsWith('read ')).map((line) => line.slice(5)).sort();
}

function env(): NodeJS.ProcessEnv {
  marker = join(base, `marker-${Math.random().toString(36).slice(2)}`);
  return { PATH: process.env.PATH, FIND_FILE_TEST_MARKER: marker };
}

describe('the command', () => {
  // Each through yargs (the fast parse hands it anything it is not sure of): help, a usage error, a search it parses.
  const lines: [string, string[], number, string[]][] = [
    ['--help', ['--help'], 0, []],
    ['an unknown flag (a usage error)', ['--no-such-flag', '*'], 2, []],
    ['a search yargs parses (a negated flag)', ['*', '--root', 'root', '--no-hidden'], 0, ['root', 'root/sub']],
    ['a search the fast parse takes', ['*', '--root', 'root'], 0, ['root', 'root/sub']],
  ];
  for (const [what, args, status, expected] of lines) {
    it(`${what}: reads ${expected.length === 0 ? 'no directory' : 'the root\'s folders only'}`, () => {
      const run = spawnSync(process.execPath, ['--import', TEST_FS, BIN, ...args], { cwd, env: env(), encoding: 'utf8' });
      expect(run.status, run.stderr).toBe(status);
      expect(reads()).toEqual(expected);
    });
  }
});

it('the MCP server answers initialize having read no directory', async () => {
  const child = spawn(process.execPath, ['--import', TEST_FS, MCP_BIN, '--root', join(cwd, 'root')], { cwd, env: env(), stdio: ['pipe', 'pipe', 'pipe'] });
  onTestFinished(() => void child.kill('SIGKILL'));
  const answered = new Promise<string>((resolve) => child.stdout.setEncoding('utf8').once('data', resolve));
  child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } } })}\n`);
  expect(await answered).toContain('"protocolVersion"');
  expect(reads()).toEqual([]);
});
