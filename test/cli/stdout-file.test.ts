/**
 * A stdout that is a file or a device is written with `writeSync` on its descriptor (cli/output.ts
 * `stdoutSink`: Node copied each chunk into a new Buffer first), a pipe through the stream. The
 * bytes must be the same either way, in order, the summary line of `--ndjson` last; `/dev/null`
 * takes them all (status 0) and a full device is a fatal error (status 1), as before.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/cli.js';

let root: string;
let out: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'ff-stdout-file-'));
  out = mkdtempSync(join(tmpdir(), 'ff-stdout-out-'));
  // Past several 64 KiB chunks: 40 folders x 60 files with long names.
  for (let d = 0; d < 40; d++) {
    mkdirSync(join(root, `folder-${d}`));
    for (let f = 0; f < 60; f++) writeFileSync(join(root, `folder-${d}`, `a-rather-long-file-name-${'x'.repeat(f)}-${f}.txt`), '');
  }
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(out, { recursive: true, force: true });
});

const env = { PATH: process.env.PATH ?? '' };
const FORMS: string[][] = [['*'], ['*', '--ndjson'], ['*', '-0'], ['*.txt', '--sort', 'path'], ['*', '--json']];

describe('stdout to a file holds what a pipe gets', () => {
  for (const args of FORMS) {
    it(args.join(' '), () => {
      const piped = spawnSync(process.execPath, [BIN, ...args, '--root', root], { env, encoding: 'buffer' });
      expect(piped.status).toBe(0);
      const file = join(out, `${args.join('_').replace(/\W/g, '')}.out`);
      const fd = openSync(file, 'w');
      try {
        const written = spawnSync(process.execPath, [BIN, ...args, '--root', root], { env, stdio: ['ignore', fd, 'pipe'] });
        expect(written.status).toBe(0);
      } finally {
        closeSync(fd);
      }
      expect(piped.stdout.length).toBeGreaterThan(2 * 65536);
      // The summary's elapsed time is the one thing two runs may differ in.
      const timeless = (bytes: Buffer) => bytes.toString('latin1').replace(/"elapsedMs":[-\d.e+]+/g, '"elapsedMs":0');
      expect(timeless(readFileSync(file)) === timeless(piped.stdout)).toBe(true);
    });
  }
});

it('/dev/null takes it all (status 0); a full device is a fatal error naming ENOSPC (status 1)', () => {
  if (!existsSync('/dev/full')) return void expect(existsSync('/dev/null')).toBe(true);
  for (const [device, status] of [['/dev/null', 0], ['/dev/full', 1]] as const) {
    const fd = openSync(device, 'w');
    try {
      const run = spawnSync(process.execPath, [BIN, '*', '--root', root], { env, stdio: ['ignore', fd, 'pipe'], encoding: 'utf8' });
      expect(run.status, run.stderr).toBe(status);
      if (status === 1) expect(run.stderr).toContain('ENOSPC');
    } finally {
      closeSync(fd);
    }
  }
});
