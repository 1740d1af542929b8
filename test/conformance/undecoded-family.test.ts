/**
 * Names that are not valid UTF-8, a generated family on the real disk against bash 5 (adversary J):
 * 17 lead bytes, each alone and with one to five continuation bytes, as file names, as folder names
 * above a plain file, and folders whose names decode alike. Some of the sequences are UTF-8 (a real
 * name), some glibc reads as one character where Node gives four to six U+FFFD (above U+10FFFF, the
 * 5- and 6-byte forms), most bash matches byte by byte. On every engine and form (findFiles walker,
 * ripgrep, auto, findFilesSync, findFilesStream, searchContent walker, ripgrep, auto) a file bash's
 * pattern selects is found, or behind an `EILSEQ` gap named in `skipped`, once per unreadable name:
 * names that decode alike are each a gap of their own (`dir-\xe9`, `dir-\xe2\x82` and `dir-\xff` are
 * three, never one). Never absent with `complete: true`.
 */
import { lstatSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { findFiles, findFilesStream, findFilesSync, searchContent, type FindOptions } from '../../src/index.js';
import type { SkippedEntry } from '../../src/result.js';
import { needsRg, realRg, requireRipgrepInCi } from '../helpers/real-rg.js';
import { describeIf, linux } from '../helpers/skip-why.js';
import { bashSync } from './oracles.js';

requireRipgrepInCi();

const LEADS = [0x80, 0xbf, 0xc0, 0xc2, 0xdf, 0xe0, 0xe2, 0xed, 0xef, 0xf0, 0xf4, 0xf5, 0xf7, 0xf8, 0xfb, 0xfc, 0xfd];
/** The first continuation byte picks the form (overlong, surrogate, above U+10FFFF, valid); the rest are 0x80. */
const SECONDS = [0x80, 0x90, 0xa0, 0xbf];

/** Every lead alone, and with 1 to 5 continuation bytes (17 + 17 x 4 x 5 = 357 sequences). */
function sequences(): Buffer[] {
  const out: Buffer[] = [];
  for (const lead of LEADS) {
    out.push(Buffer.from([lead]));
    for (const second of SECONDS) for (let k = 1; k <= 5; k++) out.push(Buffer.from([lead, second, ...Array<number>(k - 1).fill(0x80)]));
  }
  return out;
}

const PATTERNS = [
  // Base names at any depth: files/f_<seq>.
  ...['?', '??', '???', '????', '?????', '??????'].map((q) => `f_${q}`),
  'f_*',
  'f_[!x]',
  'f_@(?|??)',
  // Folder names on the way: dirs/d_<seq>/in (a path pattern; the file's own name is plain).
  ...['?', '??', '???', '????', '?????', '??????'].map((q) => `dirs/d_${q}/in`),
  'dirs/d_*/in',
  'dirs/d_[!x]/in',
  '**/d_@(?|???)/in',
  // Folders that decode alike: dir-\xe9, dir-\xe2\x82, dir-\xff (and, in twins/, a real dir-\uFFFD).
  'alike/dir-?/a.txt',
  'twins/dir-?/a.txt',
  'a.txt',
];

const ALIKE = [[0xe9], [0xe2, 0x82], [0xff]].map((b) => Buffer.from(b));
const FFFD = Buffer.from('\uFFFD');

let root: string;
/** Every regular file made, as bytes relative to the root. */
const made: Buffer[] = [];

function put(...parts: Buffer[]): void {
  const rel = Buffer.concat(parts);
  const at = Buffer.concat([Buffer.from(`${root}/`), rel]);
  const slash = at.lastIndexOf(0x2f);
  mkdirSync(at.subarray(0, slash), { recursive: true });
  writeFileSync(at, 'needle\n');
  made.push(rel);
}

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'ff-undecoded-family-'));
  for (const seq of sequences()) {
    put(Buffer.from('files/f_'), seq);
    put(Buffer.from('dirs/d_'), seq, Buffer.from('/in'));
  }
  for (const b of ALIKE) put(Buffer.from('alike/dir-'), b, Buffer.from('/a.txt'));
  for (const b of [...ALIKE, FFFD]) put(Buffer.from('twins/dir-'), b, Buffer.from('/a.txt'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/**
 * The files bash selects for each pattern, as bytes. A pattern without `/` matches base names at
 * any depth (`**\/p`). bash prints the raw bytes; `[ -f ]` keeps regular files.
 */
function bashSelects(patterns: readonly string[]): Buffer[][] {
  const script = 'shopt -s globstar extglob dotglob nullglob; IFS=; while IFS= read -r -d "" P; do for f in $P; do [ -f "$f" ] && printf "%s\\0" "$f"; done; printf "\\0"; done';
  const input = patterns.map((p) => `${p.includes('/') ? p : `**/${p}`}\0`).join('');
  const run = bashSync(['--norc', '--noprofile', '-c', script], input, { cwd: root, maxBuffer: 64 << 20 });
  if (run.status !== 0) throw new Error(`bash failed: ${run.stderr.toString()}`);
  const groups: Buffer[][] = [[]];
  let start = 0;
  for (let i = run.stdout.indexOf(0, start); i >= 0; i = run.stdout.indexOf(0, (start = i + 1))) {
    if (i === start) groups.push([]);
    else groups[groups.length - 1]!.push(run.stdout.subarray(start, i));
  }
  groups.pop();
  return groups;
}

interface Answer {
  found: string[];
  skipped: readonly SkippedEntry[];
  complete: boolean;
}

type Form = (options: FindOptions) => Promise<Answer>;

const find = (extra: Partial<FindOptions>): Form => async (o) => findFiles({ ...o, ...extra }).then((r) => ({ found: r.matches, skipped: r.skipped, complete: r.complete }));
const content = (extra: object): Form => async (o) => {
  const r = await searchContent({ ...o, query: 'needle', ...extra });
  return { found: [...new Set(r.hits.map((h) => h.path))], skipped: r.skipped, complete: r.complete };
};
const rgPath = realRg.path;
const FORMS: [string, Form][] = [
  ['findFiles walker', find({})],
  [
    'findFilesSync',
    async (o) => {
      const r = findFilesSync(o);
      return { found: r.matches, skipped: r.skipped, complete: r.complete };
    },
  ],
  [
    'findFilesStream',
    async (o) => {
      const stream = findFilesStream(o);
      const found: string[] = [];
      for await (const m of stream) found.push(m);
      return { ...(await stream.summary), found };
    },
  ],
  ['findFiles ripgrep', find({ backend: 'ripgrep', rgPath })],
  // `hidden: false` filters ripgrep's list segment by segment (src/walk/rules.ts buildListedFileTest).
  ['findFiles ripgrep, hidden: false', find({ backend: 'ripgrep', rgPath, hidden: false })],
  ['findFiles auto', find({ backend: 'auto', rgPath })],
  ['searchContent walker', content({ backend: 'walker' })],
  ['searchContent ripgrep', content({ backend: 'ripgrep', rgPath })],
  ['searchContent ripgrep, hidden: false', content({ backend: 'ripgrep', rgPath, hidden: false })],
  ['searchContent auto', content({ backend: 'auto', rgPath })],
];

/** The first prefix of the path whose name does not come back from its decoded string: bytes and decoded. */
function firstUnreadable(rel: Buffer): { bytes: string; decoded: string } | undefined {
  let end = -1;
  do {
    const start = end + 1;
    end = rel.indexOf(0x2f, start);
    if (end < 0) end = rel.length;
    const name = rel.subarray(start, end);
    if (!Buffer.from(name.toString('utf8')).equals(name)) return { bytes: rel.subarray(0, end).toString('latin1'), decoded: rel.subarray(0, end).toString('utf8') };
  } while (end < rel.length);
  return undefined;
}

/** What is wrong with an answer: selected files neither found nor behind enough gaps, and the rest. */
function faults(selected: readonly Buffer[], answer: Answer): string[] {
  const out: string[] = [];
  // Distinct unreadable names behind what bash selects, by the string they decode to.
  const unreadable = new Map<string, Set<string>>();
  for (const rel of selected) {
    const gap = firstUnreadable(rel);
    if (gap === undefined) {
      if (!answer.found.includes(rel.toString('utf8'))) out.push(`not found: ${JSON.stringify(rel.toString('utf8'))}`);
    } else {
      let names = unreadable.get(gap.decoded);
      if (names === undefined) unreadable.set(gap.decoded, (names = new Set()));
      names.add(gap.bytes);
    }
  }
  for (const [decoded, names] of unreadable) {
    const named = answer.skipped.filter((s) => s.path === decoded && s.code === 'EILSEQ').length;
    if (named < names.size) out.push(`${JSON.stringify(decoded)}: ${names.size} unreadable names, ${named} EILSEQ gaps`);
  }
  if (answer.skipped.length > 0 && answer.complete) out.push('complete with gaps');
  for (const s of answer.skipped) if (s.code !== 'EILSEQ') out.push(`unexpected ${s.code} at ${JSON.stringify(s.path)}`);
  for (const f of answer.found) if (!lstatSync(join(root, f), { throwIfNoEntry: false })?.isFile()) out.push(`returned a path that names no file: ${JSON.stringify(f)}`);
  return out;
}

describeIf(linux('names that are not UTF-8 are a Linux case'), needsRg)('names that are not valid UTF-8: a generated family against bash', () => {
  let selections: Buffer[][];
  beforeAll(() => {
    selections = bashSelects(PATTERNS);
  });

  it('bash selects what the family was built for (the oracle is alive)', () => {
    expect(selections).toHaveLength(PATTERNS.length);
    const of = (pattern: string) => selections[PATTERNS.indexOf(pattern)]!;
    // glibc's one character: `\xf4\x90\x80\x80` and the 5- and 6-byte forms, for `?`.
    expect(of('f_?').some((rel) => rel.equals(Buffer.from([...Buffer.from('files/f_'), 0xf4, 0x90, 0x80, 0x80])))).toBe(true);
    expect(of('f_?').some((rel) => rel.equals(Buffer.from([...Buffer.from('files/f_'), 0xfc, 0x90, 0x80, 0x80, 0x80, 0x80])))).toBe(true);
    // `\xc2\x80\x80`: U+0080 and a stray byte, three bytes to bash.
    expect(of('dirs/d_???/in').some((rel) => rel.equals(Buffer.from([...Buffer.from('dirs/d_'), 0xc2, 0x80, 0x80, ...Buffer.from('/in')])))).toBe(true);
    expect(of('alike/dir-?/a.txt')).toHaveLength(2); // \xe9 and \xff; \xe2\x82 is two bytes
    expect(made.length).toBe(2 * 357 + 7);
  });

  it.each(FORMS)('%s: every file bash selects is found or behind its own EILSEQ gap, never absent with complete: true', async (_name, form) => {
    const all: Record<string, string[]> = {};
    for (const [i, pattern] of PATTERNS.entries()) {
      const wrong = faults(selections[i]!, await form({ root, pattern }));
      if (wrong.length > 0) all[pattern] = wrong.slice(0, 5);
    }
    expect(all).toEqual({});
  });
});
