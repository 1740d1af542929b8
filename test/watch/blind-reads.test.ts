/**
 * Ignore files the index read and trusted, though no watch it holds sees them change (adversarial
 * runs, 2026-12-08):
 * - B: an ignore file that is a bind mount of a file elsewhere (`mount --bind /elsewhere/rules
 *   root/.ignore`): a write to it is an event in the source's directory only (inotify names the
 *   directory of the path written, as for a hard link), and the index reused its kept answer with
 *   the old rules; so did it when a file was mounted over an ignore file outside the root after the
 *   answer was kept (no mount the root's table lines show).
 * - D: an ignore file on a file system whose changes raise no event (`/proc/<pid>/comm` of a
 *   process that renames itself: prctl(PR_SET_NAME)): its directory's sentinel watch was trusted;
 *   so was a link on the way into /proc (`l -> /proc/<pid>/task/<tid>`, the thread then ended).
 * Each answer is checked against a fresh findFiles.
 */
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { expect, it } from 'vitest';
import { openIndexWith, type FileIndex, type IndexOptions } from '../../src/watch/watched-index.js';
import { describeIf, linux } from '../helpers/skip-why.js';
import { canMount, closedAfterEach, expectSameAnswer } from './helpers.js';

const { opened, tree } = closedAfterEach();

async function open(options: IndexOptions): Promise<FileIndex> {
  const index = await openIndexWith(options, { syncWaitMs: 3_000 });
  opened.push(index);
  return index;
}

const q = { pattern: '**/*.txt' };

describeIf(canMount())('an ignore file that is a mount point', () => {
  it('`.ignore` bind-mounted from a file elsewhere, the file then edited there: the new rules answer', async () => {
    const base = tree(['root/a.txt', 'root/b.txt', 'root/.ignore', 'elsewhere/rules']);
    const root = join(base, 'root');
    const rules = join(base, 'elsewhere', 'rules');
    writeFileSync(rules, 'a.txt\n');
    execFileSync('mount', ['--bind', rules, join(root, '.ignore')]);
    try {
      const index = await open({ root, gitignore: true });
      const opts = { root, gitignore: true };
      expect((await expectSameAnswer(index, opts, q)).matches).toEqual(['b.txt']);
      expect((await expectSameAnswer(index, opts, q)).matches).toEqual(['b.txt']);
      writeFileSync(rules, 'b.txt\n'); // the same inode: the mount shows it
      expect((await expectSameAnswer(index, opts, q)).matches).toEqual(['a.txt']);
    } finally {
      execFileSync('umount', [join(root, '.ignore')]);
    }
  });

  it('a file mounted over an ignore file outside the root after its answer was kept: the mounted rules answer', async () => {
    const base = tree(['root/a.txt', 'root/b.txt', 'outside/rules', 'elsewhere/rules']);
    const root = join(base, 'root');
    const outside = join(base, 'outside', 'rules');
    writeFileSync(outside, 'a.txt\n');
    writeFileSync(join(base, 'elsewhere', 'rules'), 'b.txt\n');
    const options = { root, ignoreFiles: [outside] };
    const index = await open(options);
    expect((await expectSameAnswer(index, options, q)).matches).toEqual(['b.txt']);
    expect((await expectSameAnswer(index, options, q)).matches).toEqual(['b.txt']);
    execFileSync('mount', ['--bind', join(base, 'elsewhere', 'rules'), outside]);
    try {
      expect((await expectSameAnswer(index, options, q)).matches).toEqual(['a.txt']);
    } finally {
      execFileSync('umount', [outside]);
    }
  });
});

/** Whether python3 (with ctypes, to call prctl) can be run. */
function hasPython(): readonly [boolean, string] {
  try {
    execFileSync('python3', ['-c', 'import ctypes; ctypes.CDLL(None).prctl'], { stdio: 'ignore' });
    return [true, ''];
  } catch {
    return [false, 'no python3 with ctypes to rename a process (prctl)'];
  }
}

/** A process that names itself (`/proc/<pid>/comm`) each line it reads, answering its pid and then `ok`. */
const RENAMER = `
import ctypes, os, sys
libc = ctypes.CDLL(None)
print(os.getpid(), flush=True)
for line in sys.stdin:
    libc.prctl(15, line.strip().encode(), 0, 0, 0)  # PR_SET_NAME
    print('ok', flush=True)
`;

/** Runs `body` beside a RENAMER process, named `first`; `rename` names it again and waits until it has. */
async function withRenamer(first: string, body: (pid: number, rename: (name: string) => Promise<void>) => Promise<void>): Promise<void> {
  const child = spawn('python3', ['-c', RENAMER], { stdio: ['pipe', 'pipe', 'inherit'] });
  try {
    const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
    const pid = Number((await lines.next()).value);
    const rename = async (name: string) => {
      child.stdin!.write(name + '\n');
      expect((await lines.next()).value).toBe('ok');
    };
    await rename(first);
    await body(pid, rename);
  } finally {
    child.kill();
    await once(child, 'exit').catch(() => undefined);
  }
}

describeIf(canMount(), hasPython())('an ignore file mounted from a file system no watch sees', () => {
  it('`.ignore` a bind mount of /proc/<pid>/comm, the process renamed: the new name is the rule', async () => {
    const root = tree(['ffname-one.txt', 'ffname-two.txt', '.ignore']);
    const at = join(root, '.ignore');
    await withRenamer('ffname-one.txt', async (pid, rename) => {
      execFileSync('mount', ['--bind', `/proc/${pid}/comm`, at]);
      try {
        const options = { root, gitignore: true };
        const index = await open(options);
        expect((await expectSameAnswer(index, options, q)).matches).toEqual(['ffname-two.txt']);
        expect((await expectSameAnswer(index, options, q)).matches).toEqual(['ffname-two.txt']);
        await rename('ffname-two.txt');
        expect((await expectSameAnswer(index, options, q)).matches).toEqual(['ffname-one.txt']);
      } finally {
        execFileSync('umount', [at]);
      }
    });
  });
});

describeIf(linux('the index watches with inotify and reads /proc'), hasPython())('an ignore file on a file system no watch sees', () => {
  it('ignoreFiles: /proc/<pid>/comm of a process that renames itself: the new name is the rule', async () => {
    const root = tree(['ffname-one.txt', 'ffname-two.txt']);
    await withRenamer('ffname-one.txt', async (pid, rename) => {
      const options = { root, ignoreFiles: [`/proc/${pid}/comm`] };
      const index = await open(options);
      expect((await expectSameAnswer(index, options, q)).matches).toEqual(['ffname-two.txt']);
      expect((await expectSameAnswer(index, options, q)).matches).toEqual(['ffname-two.txt']);
      await rename('ffname-two.txt');
      expect((await expectSameAnswer(index, options, q)).matches).toEqual(['ffname-one.txt']);
    });
  });

  it('a link on the way into /proc (`l -> /proc/<pid>/task/<tid>`), the thread then ended: the link is no longer on the way', async () => {
    const root = tree(['a.txt']);
    // A thread that ends at the first line read; the process answers its pid, the thread's id, then `ok`.
    const script = `
import os, sys, threading
done = threading.Event()
ids = []
started = threading.Event()
def run():
    ids.append(threading.get_native_id()); started.set(); done.wait()
thread = threading.Thread(target=run); thread.start(); started.wait()
print(os.getpid(), ids[0], flush=True)
sys.stdin.readline(); done.set(); thread.join()
print('ok', flush=True)
sys.stdin.readline()
`;
    const child = spawn('python3', ['-c', script], { stdio: ['pipe', 'pipe', 'inherit'] });
    try {
      const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
      const [pid, tid] = String((await lines.next()).value).split(' ');
      symlinkSync(`/proc/${pid}/task/${tid}`, join(root, 'l'));
      const index = await open({ root });
      const onTheWay = async () => (await expectSameAnswer(index, { root }, { pattern: 'l/**' })).linksOnTheWay;
      expect(await onTheWay()).toEqual(['l']);
      expect(await onTheWay()).toEqual(['l']);
      child.stdin!.write('end the thread\n');
      expect((await lines.next()).value).toBe('ok');
      expect(await onTheWay()).toEqual([]);
    } finally {
      child.kill();
      await once(child, 'exit').catch(() => undefined);
    }
  });
});
