/**
 * Runs a search in a child Node process with a deadline, so a hang fails the test instead of
 * hanging the suite, and without blocking the worker, so tests that wait (a stall check's second of
 * silence) can run side by side.
 */
import { spawn } from 'node:child_process';
import { expect } from 'vitest';

/** Runs `script` (an ES module's text); it must exit 0 having printed one JSON value within `seconds`. */
export async function jsonFromChild(script: string, seconds: number): Promise<unknown> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'], timeout: seconds * 1000 });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  const [status, signal] = await new Promise<[number | null, string | null]>((resolve) => child.on('close', (code, how) => resolve([code, how])));
  expect(signal, `the child did not answer within ${seconds} s`).toBeNull();
  expect(status, stderr).toBe(0);
  return JSON.parse(stdout);
}
