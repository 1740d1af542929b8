/**
 * A file system mounted over a watched directory (or unmounted from one) says no inotify event: the
 * watches stay on the covered directories. An adversarial run: `mount --bind other root/sub`, and the
 * index answered `sub/before.txt`, complete, where a walk found only `sub/hidden-by-mount.txt` (a
 * file that exists reported absent). The index now reads /proc/self/mountinfo at each query and
 * starts afresh when a mount at or below the root, or on one of its parents, came, went or was
 * replaced (src/watch/mounts.ts).
 *
 * The table's reading on played tables; the index on a played table (any platform with inotify),
 * and on real bind mounts where this process may mount (root in CI; skipped, saying why, elsewhere).
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { deviceNumber, MountWatch, readFacts, readMounts } from '../../src/watch/mounts.js';
import { openIndexWith, type FileIndex, type IndexDependencies } from '../../src/watch/watched-index.js';
import { describeIf, linux } from '../helpers/skip-why.js';
import { canMount, closedAfterEach, expectSameAnswer, FaultyWatcher, makeTree, removeTree } from './helpers.js';

/** A mountinfo line: `id parent major:minor root point options - type source options`. */
const line = (id: number, point: string, type = 'ext4') => `${id} 1 8:1 / ${point} rw,relatime shared:1 - ${type} /dev/sda1 rw`;
const table = (...mounts: ([number, string] | [number, string, string])[]) => mounts.map(([id, point, type]) => line(id, point, type)).join('\n') + '\n';
const BASE: [number, string][] = [
  [20, '/'],
  [21, '/proc'],
  [22, '/home'],
];

describe('the mounts that matter for a root', () => {
  it('keeps the root, what is below it and its parents; leaves the rest', () => {
    const text = table(...BASE, [30, '/home/u/repo/sub'], [31, '/home/u/repo'], [32, '/home/u/repo-other'], [33, '/mnt/usb']);
    expect(readMounts(text, '/home/u/repo').key.split('\n')).toEqual(['20 /', '22 /home', '30 /home/u/repo/sub', '31 /home/u/repo']);
  });

  it('reads a mount point with a space, a tab or a backslash as the kernel escapes them', () => {
    const text = table(...BASE, [40, '/home/u/my\\040repo/a\\011b'], [41, '/home/u/my\\040repo/c\\134d'], [42, '/home/u/my\\040repo2']);
    expect(readMounts(text, '/home/u/my repo').key.split('\n')).toEqual(['20 /', '22 /home', '40 /home/u/my repo/a\tb', '41 /home/u/my repo/c\\d']);
  });

  it('reads a mount point that is not ASCII as the bytes the kernel wrote (UTF-8), raw or escaped', () => {
    // The table is bytes: read as latin1 and unescaped only, `é` (0xC3 0xA9) was `Ã©` and never the root's real path.
    const raw = Buffer.from(table(...BASE, [43, '/tmp/adv-é/root/sub'], [44, '/tmp/adv-é/root/proc-é', 'proc']), 'utf8');
    const escaped = Buffer.from(table(...BASE, [43, '/tmp/adv-\\303\\251/root/sub'], [44, '/tmp/adv-\\303\\251/root/proc-\\303\\251', 'proc']), 'latin1');
    for (const text of [raw, escaped, raw.toString('utf8')]) {
      const mounts = readMounts(text, '/tmp/adv-é/root');
      expect(mounts.key.split('\n')).toEqual(['20 /', '43 /tmp/adv-é/root/sub', '44 /tmp/adv-é/root/proc-é']);
      expect(mounts.blind).toEqual(['/tmp/adv-é/root/proc-é']);
    }
  });

  it('changed: a mount below the root or on a parent, one gone, one replaced (a new id); not one elsewhere', async () => {
    let now = table(...BASE);
    const watch = new MountWatch('/home/u/repo/', async () => now);
    expect(await watch.changed()).toBe(false); // the first reading is the baseline
    now = table(...BASE, [50, '/mnt/usb']);
    expect(await watch.changed()).toBe(false);
    now = table(...BASE, [50, '/mnt/usb'], [51, '/home/u/repo/sub']);
    expect(await watch.changed()).toBe(true);
    expect(await watch.changed()).toBe(false);
    now = table(...BASE, [50, '/mnt/usb'], [52, '/home/u/repo/sub']); // unmounted and mounted again
    expect(await watch.changed()).toBe(true);
    now = table(...BASE, [50, '/mnt/usb']);
    expect(await watch.changed()).toBe(true);
    now = table(...BASE, [50, '/mnt/usb'], [53, '/home/u']);
    expect(await watch.changed()).toBe(true);
  });

  it('blind: a network, FUSE or kernel file system below the root, or the one holding it; not a local one', () => {
    const blind = (root: string, ...mounts: [number, string, string][]) => readMounts(table(...BASE, ...mounts), root).blind;
    expect(blind('/home/u/repo', [70, '/home/u/repo/share', 'nfs4'], [71, '/home/u/repo/remote', 'fuse.sshfs'], [72, '/home/u/repo/usb', 'fuseblk'], [73, '/home/u/repo/c', 'overlay'], [74, '/home/u/repo/p', 'proc'], [75, '/mnt/x', 'nfs'])).toEqual([
      '/home/u/repo/share',
      '/home/u/repo/remote',
      '/home/u/repo/p',
    ]);
    // Only the deepest mount above the root holds it: a local /home on an NFS / is local.
    expect(blind('/home/u/repo', [76, '/', 'nfs'], [77, '/home', 'ext4'])).toEqual([]);
    expect(blind('/home/u/repo', [78, '/home/u', 'cifs'])).toEqual(['/home/u/repo']);
    expect(blind('/home/u/repo', [79, '/home/u/repo', 'nfs'])).toEqual(['/home/u/repo']);
  });

  it('a device as st_dev gives it (glibc makedev), for the blind file systems anywhere', () => {
    expect(deviceNumber('254:0')).toBe('65024');
    expect(deviceNumber('0:21')).toBe('21');
    expect(deviceNumber('0:300')).toBe(String(44 + (256 << 12)));
    expect(deviceNumber('4100:3')).toBe(String(3 + (4 << 8) + 2 ** 44));
    const facts = readFacts(table([90, '/nowhere/nfs', 'nfs4'], [91, '/nowhere/proc', 'proc']));
    expect([...facts.blindDevices]).toEqual(['2049']); // both lines say 8:1
  });

  it('no table to read (not Linux, no /proc): never changed', async () => {
    const watch = new MountWatch('/home/u/repo/', async () => undefined);
    expect([await watch.changed(), await watch.changed()]).toEqual([false, false]);
  });
});

const { opened } = closedAfterEach();

async function open(root: string, deps: IndexDependencies = {}): Promise<FileIndex> {
  const index = await openIndexWith({ root }, { syncWaitMs: 3_000, ...deps });
  opened.push(index);
  return index;
}

describeIf(linux('the index watches with inotify'))('the index and the mounts', () => {
  it('a played table that changes under the root: the next query starts afresh, and answers as a walk', async () => {
    const root = makeTree(['sub/before.txt']);
    try {
      let now = table(...BASE);
      const index = await open(root, { mountTable: async () => now });
      await expectSameAnswer(index, { root }, { pattern: '**/*.txt' });
      now = table(...BASE, [60, '/nowhere/else']);
      await expectSameAnswer(index, { root }, { pattern: '**/*.txt' });
      expect(index.stats().restarts).toBe(0);
      now = table(...BASE, [61, join(root, 'sub')]);
      await expectSameAnswer(index, { root }, { pattern: '**/*.txt' });
      expect(index.stats().restarts).toBe(1);
    } finally {
      removeTree(root);
    }
  });
});

describeIf(linux('the index watches with inotify'))('a directory on a blind file system', () => {
  it('is never watched: read at every query, so a change no event tells (made by another machine) is in the next answer', async () => {
    const root = makeTree(['local/a.txt', 'share/b.txt']);
    try {
      // The share's events are lost, as those of a change made on an NFS server are never raised here.
      const watcher = new FaultyWatcher();
      watcher.swallow = (name) => name?.startsWith('remote') === true;
      const index = await open(root, { watcher, mountTable: async () => table(...BASE, [80, join(root, 'share'), 'nfs4']) });
      const q = { pattern: '**/*.txt' };
      expect((await expectSameAnswer(index, { root }, q)).matches).toEqual(['local/a.txt', 'share/b.txt']);
      writeFileSync(join(root, 'share', 'remote.txt'), 'z');
      expect((await expectSameAnswer(index, { root }, q)).matches).toEqual(['local/a.txt', 'share/b.txt', 'share/remote.txt']);
      expect([...watcher.watched.keys()].some((dir) => dir.endsWith('/share'))).toBe(false);
    } finally {
      removeTree(root);
    }
  });
});

const mayMount = canMount();

describeIf(mayMount)('real bind mounts under a watched root', () => {
  it('mounted over a directory, over the root, then unmounted, with files made in between: every answer a walk\'s', async () => {
    const base = makeTree(['root/sub/before.txt', 'other/hidden-by-mount.txt']);
    const root = join(base, 'root');
    const sub = join(root, 'sub');
    const other = join(base, 'other');
    const mounted: string[] = [];
    const mount = (from: string, at: string) => {
      execFileSync('mount', ['--bind', from, at]);
      mounted.push(at);
    };
    const umount = () => execFileSync('umount', [mounted.pop()!]);
    try {
      const index = await open(root);
      const q = { pattern: '**/*.txt' };
      const answer = async () => (await expectSameAnswer(index, { root }, q)).matches;
      expect(await answer()).toEqual(['sub/before.txt']);
      mount(other, sub);
      expect(await answer()).toEqual(['sub/hidden-by-mount.txt']);
      writeFileSync(join(sub, 'made-in-mount.txt'), 'z');
      expect(await answer()).toEqual(['sub/hidden-by-mount.txt', 'sub/made-in-mount.txt']);
      umount();
      expect(await answer()).toEqual(['sub/before.txt']);
      mkdirSync(join(sub, 'deeper'));
      writeFileSync(join(sub, 'deeper', 'after.txt'), 'z');
      expect(await answer()).toEqual(['sub/before.txt', 'sub/deeper/after.txt']);
      mount(other, root);
      expect(await answer()).toEqual(['hidden-by-mount.txt', 'made-in-mount.txt']);
      umount();
      expect(await answer()).toEqual(['sub/before.txt', 'sub/deeper/after.txt']);
    } finally {
      while (mounted.length > 0) umount();
      removeTree(base);
    }
  });
});

/**
 * An adversarial run (A): the table was read as latin1 with only its octal escapes decoded, so a
 * mount point holding `é` never equalled the root's real path. A bind mount over `sub` of
 * `/tmp/adv-é/root` went unseen (the index answered `sub/before.txt`, complete; a walk
 * `sub/hidden.txt`), and a procfs mounted at `proc-é` was watched and trusted (a new process's
 * directory, found by a walk, never in the index's answer).
 */
describeIf(mayMount)('real mounts under a root whose path is not ASCII', () => {
  /** `base/root` and `base/other` with `files` in them, under a temp directory named with `é`. */
  function nonAsciiTree(files: string[]): { base: string; root: string } {
    const base = realpathSync(mkdtempSync(join(tmpdir(), 'ff-adv-é-')));
    for (const file of files) {
      mkdirSync(join(base, file, '..'), { recursive: true });
      writeFileSync(join(base, file), 'x');
    }
    return { base, root: join(base, 'root') };
  }

  it('a bind mount over a subdirectory: the next answer is a walk\'s', async () => {
    const { base, root } = nonAsciiTree(['root/sub/before.txt', 'other/hidden.txt']);
    const sub = join(root, 'sub');
    let mounted = false;
    try {
      const index = await open(root);
      const answer = async () => (await expectSameAnswer(index, { root }, { pattern: '**' })).matches;
      expect(await answer()).toEqual(['sub/before.txt']);
      execFileSync('mount', ['--bind', join(base, 'other'), sub]);
      mounted = true;
      expect(await answer()).toEqual(['sub/hidden.txt']);
      expect(index.stats().restarts).toBe(1);
    } finally {
      if (mounted) execFileSync('umount', [sub]);
      removeTree(base);
    }
  });

  it('a procfs mounted at proc-é: never watched, so a process started later is in the next answer', async () => {
    const { base, root } = nonAsciiTree(['root/a.txt']);
    const proc = join(root, 'proc-é');
    mkdirSync(proc);
    let mounted = false;
    const child = spawn('sleep', ['60'], { stdio: 'ignore' });
    try {
      // Opened before the mount: its first walk does not read all of /proc.
      const index = await open(root);
      execFileSync('mount', ['-t', 'proc', 'proc', proc]);
      mounted = true;
      const q = { pattern: 'proc-é/*', type: 'directory' as const };
      const first = await index.find(q);
      expect(first.complete).toBe(true);
      expect(first.matches).toContain(`proc-é/${child.pid}`);
      const later = spawn('sleep', ['60'], { stdio: 'ignore' });
      try {
        await new Promise((resolve) => later.once('spawn', resolve));
        const second = await index.find(q);
        expect(second.matches).toContain(`proc-é/${later.pid}`);
        expect(second.complete).toBe(true);
      } finally {
        later.kill();
      }
    } finally {
      child.kill();
      if (mounted) execFileSync('umount', [proc]);
      removeTree(base);
    }
  });
});
