/**
 * Content search through ripgrep opens only the files a pattern can select (src/rg/type-filter.ts),
 * and that filter may list more than find-file's matcher, never less. A generated family on a real
 * tree, each pattern against names that hold a newline, a leading dot, a `-`, a space, non-ASCII
 * letters, `,` and `:` and (Linux) bytes that are not UTF-8:
 *
 * - `rg --files` with the filter lists every file the walker's listing returns (the oracle);
 * - `searchContent` through ripgrep answers exactly as ripgrep without the filter did (same hits,
 *   skipped entries, reasons), and walker, ripgrep and auto give the same hits;
 * - files the pattern cannot select are not read (`bytesSearched`).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { findFiles, searchContent, type ContentOptions, type ProcessRunner } from '../../src/index.js';
import { normalizePatternList } from '../../src/patterns.js';
import { spawnRunner } from '../../src/rg/runner.js';
import { buildTypeArgs } from '../../src/rg/type-filter.js';
import { needsRg, realRg, requireRipgrepInCi } from '../helpers/real-rg.js';
import { describeIf, posix } from '../helpers/skip-why.js';

const onLinux = process.platform === 'linux';

/** Every file holds the needle once. Names Windows cannot hold are POSIX only (the suite is). */
const NAMES = [
  'in.ts', 'sub/in.ts', 'sub/deep/notes.md', 'd\nx/in.ts', 't.ts\n', 'a\nb.ts', '.h.ts', '.hid/in.ts', '-x.ts', '-dash/in.ts',
  'sp ace.ts', 'é.ts', 'dé/é.md', 'x.js', 'x.TS', '.ts', 'ts', 'README.md', 'meminfo', 'sub/meminfo', 'a,b.ts', 'a:b.ts', 'b.ts', 'sub',
];
/** Linux names are bytes: these are not UTF-8 (`\xe9` is Latin-1 `é`), and no two decode alike. */
const RAW_NAMES: number[][] = [
  [0xff, 0x2e, 0x74, 0x73], // \xff.ts
  [0x61, 0xff, 0x62, 0x2e, 0x74, 0x73], // a\xffb.ts
  [0xe9, 0x2e, 0x6d, 0x64], // \xe9.md (not \xe9.ts: a twin of \xff.ts, a gap to the walker whatever the pattern)
];
const RAW_DIR_FILE = [0x64, 0xff]; // d\xff/in.ts

const PATTERNS: (string | string[])[] = [
  '*.ts', 'in.ts', 'sub/*.ts', 'sub/deep/*.md', './in.ts', './-dash/in.ts', '*.{ts,js}', 't.ts*', 'a*b.ts', '.h*', '-x.ts', 'sp ace.ts', '*s', 'in*', 'i*',
  '**/in.ts', 'd*/in.ts', '*.md', 'x.js', 'meminfo', 'sub', '*.TS', 'b.ts', '.ts', '*ts*',
  // No filter: a glob ripgrep reads otherwise, or `--type-add` syntax.
  '?.ts', 'é.ts', '[a-z].ts', 'a,b.ts', 'a:b.ts', '*', '**', 'dé/*', '@(in|x).ts',
  ['*.md', '*.ts'], ['x.js', '?.ts'], ['meminfo', 'sub/**'],
];

let root: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'ff-rg-type-'));
  for (const name of NAMES) {
    mkdirSync(join(root, name, '..'), { recursive: true });
    // `sub` is a directory already: its name is also a pattern, whose files are not selected.
    if (name !== 'sub') writeFileSync(join(root, name), 'one\nthe needle\n');
  }
  if (onLinux) {
    const raw = (...parts: (string | number[])[]) => Buffer.concat([Buffer.from(`${root}/`), ...parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p)))]);
    for (const name of RAW_NAMES) writeFileSync(raw(name), 'the needle\n');
    mkdirSync(raw(RAW_DIR_FILE));
    writeFileSync(raw(RAW_DIR_FILE, '/in.ts'), 'the needle\n');
  }
  // Selected by no pattern above but `*` and `**`: ripgrep must not search it when it can tell.
  writeFileSync(join(root, 'big.log'), 'haystack\n'.repeat(10_000) + 'needle\n');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

requireRipgrepInCi();

/** ripgrep as spawned, without the `--type` flags: what content search did before the filter. */
const unfiltered: ProcessRunner = (request, listener) => spawnRunner({ ...request, argv: request.argv.filter((arg) => !arg.startsWith('--type')) }, listener);

const byPath = <T extends { path: string }>(list: readonly T[]) => [...list].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
const label = (pattern: string | string[]) => JSON.stringify(pattern);

describeIf(posix('names with a newline, `:` and bytes that are not UTF-8'), needsRg)('the file-type filter never lists less than the walker selects', () => {
  for (const hidden of [true, false]) {
    it.each(PATTERNS.map((p) => [label(p), p] as const))(`%s, hidden: ${hidden}`, async (_name, pattern) => {
      // The oracle: ripgrep's own listing with the filter holds every file the walker's listing returns.
      const walked = await findFiles({ root, pattern, hidden, backend: 'walker' });
      const typeArgs = buildTypeArgs(normalizePatternList(pattern, { platform: 'posix', caseSensitive: true }, 'pattern', false), true);
      const rgArgs = ['--files', '--hidden', '--no-ignore', '--no-config', '--null', ...typeArgs, '.'];
      const listed = spawnSync(realRg.path!, rgArgs, { cwd: root });
      expect([0, 1]).toContain(listed.status); // 1: nothing listed
      const names = new Set(listed.stdout.toString('utf8').split('\0').filter((p) => p !== '').map((p) => p.slice(2)));
      for (const match of walked.matches) expect(names, `${match} (rg ${typeArgs.join(' ')})`).toContain(match);
      // A file the walker cannot open by its name (EILSEQ) must still be listed, for ripgrep to report it too.
      for (const gap of walked.skipped) if (gap.path !== 'd\uFFFD') expect(names, gap.path).toContain(gap.path);

      const base = { root, query: 'needle', pattern, hidden, rgPath: realRg.path } as ContentOptions;
      const [walker, ripgrep, auto, before] = await Promise.all([
        searchContent({ ...base, backend: 'walker' }),
        searchContent({ ...base, backend: 'ripgrep' }),
        searchContent({ ...base, backend: 'auto' }),
        searchContent({ ...base, backend: 'ripgrep', runner: unfiltered }),
      ]);
      const answer = (r: typeof walker) => ({ hits: r.hits, skipped: byPath(r.skipped), complete: r.complete, incompleteReasons: r.incompleteReasons, filesSearched: r.filesSearched, protocolErrors: r.protocolErrors });
      expect(answer(ripgrep)).toEqual(answer(before));
      expect(ripgrep.hits).toEqual(walker.hits);
      expect(auto.hits).toEqual(walker.hits);
      // Otherwise the same gaps, but for what tells the engines apart without the filter too: ripgrep
      // reports a name that is not UTF-8 only with a hit in or below it (it reads such a directory
      // itself, src/rg/undecodable.ts; and a file only once its decoded name matches), the walker
      // whenever it cannot open one the pattern could select.
      const apartBefore = (gap: { path: string; code: string }) => gap.code === 'EILSEQ' && !before.skipped.some((s) => s.path === gap.path);
      const gaps = byPath(walker.skipped.filter((gap) => !apartBefore(gap)));
      expect(byPath(ripgrep.skipped)).toEqual(gaps);
      expect(ripgrep.complete).toBe(gaps.length === 0);
    });
  }

  it('a file the pattern cannot select is not searched: big.log never shows in ripgrep\'s events', async () => {
    const search = async (pattern: string | string[]) => {
      let events = '';
      const watching: ProcessRunner = (request, listener) =>
        spawnRunner(request, { ...listener, stdout: (chunk) => ((events += Buffer.from(chunk).toString('utf8')), listener.stdout(chunk)) });
      const result = await searchContent({ root, query: 'needle', pattern, backend: 'ripgrep', rgPath: realRg.path, runner: watching });
      return { result, events };
    };
    for (const pattern of ['in.ts', '*.md', ['meminfo', '*.js']]) {
      const { result, events } = await search(pattern);
      expect(result.hits.length, label(pattern)).toBeGreaterThan(0);
      expect(events, label(pattern)).not.toContain('big.log');
    }
    // A pattern with no safe last segment searches it, as before (the control), and drops its hit.
    const { result, events } = await search('[i]n.ts');
    expect(events).toContain('big.log');
    expect(result.hits.length).toBeGreaterThan(0);
    expect(result.hits.map((hit) => hit.path)).not.toContain('big.log');
  });

  // rg 13 reads a `,` literally (measured); later ripgreps split a definition on it (`name:glob,glob`).
  it("why `:` is refused: rg's --type-add reads it as its own syntax (`name:include:type`)", () => {
    const run = (def: string) => spawnSync(realRg.path!, ['--files', '--no-config', `--type-add=findfile:${def}`, '--type=findfile', '.'], { cwd: root, encoding: 'utf8' });
    expect(run('a:b.ts').status).toBe(2);
    expect(run('b.ts').stdout).toContain('b.ts');
  });
});
