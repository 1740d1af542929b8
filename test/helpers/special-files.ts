/**
 * A real temp tree holding special files (issue 27): a FIFO made by mkfifo (execFile, no shell)
 * and a unix socket (a listening server: closing it removes the socket). POSIX only.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

export const run = promisify(execFile);

export interface SpecialTree {
  root: string;
  /** Closes the socket's server and removes the tree. */
  remove(): Promise<void>;
}

/** `a.txt`, `sub/b.txt` (both holding "needle"), `link.txt -> a.txt`, `app.fifo`, `sub/deep.fifo`, `app.sock`. */
export async function makeSpecialTree(prefix: string): Promise<SpecialTree> {
  const root = mkdtempSync(join(tmpdir(), prefix));
  mkdirSync(join(root, 'sub'));
  writeFileSync(join(root, 'a.txt'), 'needle\n');
  writeFileSync(join(root, 'sub', 'b.txt'), 'needle\n');
  symlinkSync('a.txt', join(root, 'link.txt'));
  await run('mkfifo', [join(root, 'app.fifo')]);
  await run('mkfifo', [join(root, 'sub', 'deep.fifo')]);
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(join(root, 'app.sock'), resolve));
  return {
    root,
    async remove() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(root, { recursive: true, force: true });
    },
  };
}
