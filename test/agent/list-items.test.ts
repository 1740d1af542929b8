/**
 * The agent's lists of names read back as the entries they are (docs/agent.md, "Untrusted text").
 * An adversarial run found the overview and "Similar file names" joined with `, ` bare: a file
 * named `config.ts, secrets.ts` read as two files, a regular file `notes (pipe)` as a FIFO, and
 * ` lead.ts` lost its space. Now an item that could be misread is quoted (src/agent/text-words.ts
 * `listItem`).
 *
 * A generated family: hostile names x kinds (file, directory, FIFO, symlink), each alone beside a
 * plain neighbour in a folder of its own, x the answers that carry a list (the overview, similar
 * names, the matching symlinks). Each list is parsed back by the documented rule (an item starting
 * with `"` runs to the next `"` and is unescaped; a bare one runs to the next `, `; then the mark)
 * and compared with the folder's real entries and kinds. On the real disk: memfs has no FIFOs.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { globTool } from '../../src/agent/index.js';
import { unescapeText } from '../../src/text-escape.js';
import { describeIf, posix } from '../helpers/skip-why.js';

const HOSTILE = [
  'config.ts, secrets.ts', ' lead.ts', 'trail.ts ', 'notes (pipe)', 'sock (socket)', 'a, b (pipe)', ' (pipe)', '"quoted".ts', 'a"b.ts',
  'and 3 more', 'x, and 2 more', 'ctl\nline.ts', 'bidi\u202eexe.ts', 'soft\u00adhy.ts', 'back\\u{41}.ts', 'Copy (2).txt', 'a,b.ts',
  'end,', 'tab\tname.ts', 'fill\u3164.ts', 'vs\u{e0100}.ts', 'nb\u00a0', 'plain-name.ts', 'x (symlink, not followed)', 'dir/',
  // What a reader does not see (adversary L): a joiner, a braille blank or a no-break space where a space reads.
  'config.ts,\u200d secrets.ts', 'notes (pipe)\u200c', 'a.ts,\u2800b.ts', 'c.ts,\u200b d.ts', 'z.ts,\u00a0y.ts', 'n.ts,\u3164m.ts',
].filter((name) => !name.includes('/'));
const KINDS = ['file', 'directory', 'pipe', 'symlink'] as const;
type Kind = (typeof KINDS)[number];
/** What a listing's mark says: `/` a directory, ` (pipe)` a FIFO, nothing a file or a link. */
type Read = 'directory' | 'pipe' | 'plain';
const READ: Record<Kind, Read> = { file: 'plain', directory: 'directory', pipe: 'pipe', symlink: 'plain' };

const cases = HOSTILE.flatMap((name) => KINDS.map((kind) => ({ name, kind })));
let root: string;
const canFifo = spawnSync('sh', ['-c', 'command -v mkfifo'], { encoding: 'utf8' }).status === 0;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'ff-list-items-'));
  cases.forEach(({ name, kind }, i) => {
    const dir = join(root, `c${i}`);
    mkdirSync(dir);
    writeFileSync(join(dir, 'plain.ts'), '');
    const path = join(dir, name);
    if (kind === 'file') writeFileSync(path, '');
    else if (kind === 'directory') mkdirSync(path);
    else if (kind === 'symlink') symlinkSync('plain.ts', path);
    else if (spawnSync('mkfifo', [path]).status !== 0) throw new Error(`mkfifo ${JSON.stringify(path)}`);
  });
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A `, `-joined list read back: each item's name (unescaped) and what its mark says. */
function parseList(text: string): { name: string; read: Read }[] {
  const items: { name: string; read: Read }[] = [];
  let i = 0;
  while (i < text.length) {
    let name: string;
    let rest: string;
    if (text[i] === '"') {
      const close = text.indexOf('"', i + 1);
      name = unescapeText(text.slice(i + 1, close));
      const end = nextItem(text, close + 1);
      rest = text.slice(close + 1, end);
      i = end;
    } else {
      const end = nextItem(text, i);
      const raw = text.slice(i, end);
      // A mark with invisible characters after it still reads as the mark.
      rest = /(\/| \((?:pipe|socket|block device|character device)\))\p{Cf}*$/u.exec(raw)?.[0] ?? '';
      name = unescapeText(raw.slice(0, raw.length - rest.length));
      i = end;
    }
    const mark = rest.replace(/\p{Cf}+$/u, '');
    items.push({ name, read: mark === '/' ? 'directory' : mark === ' (pipe)' ? 'pipe' : mark === '' ? 'plain' : (`?${mark}` as Read) });
    const sep = /^,\p{Cf}*[\s\p{Z}\u2800\u3164\u115F\u1160\uFFA0]/u.exec(text.slice(i));
    if (sep) i += sep[0].length;
  }
  return items;
}

/**
 * Where the next item starts, as a reader sees the text: a `,` then a blank, with invisible
 * characters (joiners, format characters) read as nothing and blank-looking ones as a space.
 */
function nextItem(text: string, from: number): number {
  const at = /,[\p{Cf}]*[\s\p{Z}\u2800\u3164\u115F\u1160\uFFA0]/gu;
  at.lastIndex = from;
  return at.exec(text)?.index ?? text.length;
}

function lineAfter(content: string, lead: RegExp): string | undefined {
  for (const line of content.split('\n')) {
    const m = lead.exec(line);
    if (m) return line.slice(m[0].length);
  }
  return undefined;
}

describeIf(posix('FIFOs and these names'), [canFifo, 'mkfifo is not installed'])('lists of names read back as the entries they are', () => {
  it('the overview: every entry, its name and its kind, for every hostile name and kind', async () => {
    const wrong: unknown[] = [];
    for (const [i, { name, kind }] of cases.entries()) {
      const answer = await globTool({ pattern: 'nothing-here-at-all.md', path: `c${i}` }, { root });
      const list = lineAfter(answer.content, /^The search root .* holds \d+ entries: /);
      const got = list === undefined ? undefined : parseList(list).sort((a, b) => (a.name < b.name ? -1 : 1));
      const want = [{ name, read: READ[kind] }, { name: 'plain.ts', read: 'plain' as Read }].sort((a, b) => (a.name < b.name ? -1 : 1));
      if (JSON.stringify(got) !== JSON.stringify(want)) wrong.push({ name, kind, list });
    }
    expect(wrong).toEqual([]);
  });

  it('similar names: each item is a real file of the folder, with its kind', async () => {
    const wrong: unknown[] = [];
    let named = 0;
    for (const [i, { name, kind }] of cases.entries()) {
      if (kind === 'directory' || kind === 'symlink') continue;
      const letters = name.replace(/[^A-Za-z]/g, '');
      if (letters.length < 3) continue;
      const answer = await globTool({ pattern: `${letters}q`, path: `c${i}`, type: 'any' }, { root });
      const list = lineAfter(answer.content, /^Similar file names seen in the search: /);
      if (list === undefined || list.startsWith('none resembles')) continue;
      const got = parseList(list);
      const real = new Map([[`c${i}/${name}`, READ[kind]], [`c${i}/plain.ts`, 'plain' as Read]]);
      if (got.some((item) => real.get(item.name) !== item.read)) wrong.push({ name, kind, list });
      if (got.some((item) => item.name === `c${i}/${name}`)) named++;
    }
    expect(wrong).toEqual([]);
    expect(named).toBeGreaterThan(20);
  });

  it('similar folder names after a missing folder: each item is a real folder', async () => {
    const wrong: unknown[] = [];
    let named = 0;
    for (const [i, { name, kind }] of cases.entries()) {
      const letters = name.replace(/[^A-Za-z]/g, '');
      if (kind !== 'directory' || letters.length < 3) continue;
      const answer = await globTool({ pattern: `${letters}q/plain.ts`, path: `c${i}` }, { root });
      const list = lineAfter(answer.content, /^Similar folder names in .*?: /);
      if (list === undefined) continue;
      const got = parseList(list);
      if (got.some((item) => item.name !== name || item.read !== 'directory')) wrong.push({ name, list });
      else named++;
    }
    expect(wrong).toEqual([]);
    expect(named).toBeGreaterThan(10);
  });

  it('the matching symlinks (a listed-paths list): each one, by its real name', async () => {
    const wrong: unknown[] = [];
    for (const [i, { name, kind }] of cases.entries()) {
      if (kind !== 'symlink') continue;
      const answer = await globTool({ pattern: '*', path: `c${i}` }, { root });
      const list = /symlinks? match(?:es)? \(not followed\): (.*?)\.?$/m.exec(answer.content)?.[1];
      const got = list === undefined ? undefined : parseList(list).map((item) => item.name);
      if (JSON.stringify(got) !== JSON.stringify([`c${i}/${name}`])) wrong.push({ name, list, content: answer.content });
    }
    expect(wrong).toEqual([]);
  });
});
