/**
 * A line that is not a glob in an ignore file ABOVE the root (a parent's `.gitignore`, `.ignore`,
 * `.rgignore`, the repository's `.git/info/exclude`): ripgrep 13 warns and exits 2 (for the same
 * file inside the root it exits 0). The walker skips the line, as ripgrep does, and answers
 * complete (docs/contract.md, "Ignore files"). An adversarial run: ripgrep and `auto` answered
 * `io-error` (the warnings were dropped before stderr was judged, so the run looked like "exit 2,
 * stderr blank"). Now a warning the file bears out explains that exit 2 (src/rg/ignore-warnings.ts).
 *
 * Generated: each bad line in each parent ignore file kind, at lines 1 to 3, the root a subfolder of
 * the repository; ripgrep and auto, file listing and content search, against the walker. And in an
 * `ignoreFiles` file of any name (ripgrep's `--ignore-file`: it warns, exits 0 or 1), which was
 * `io-error` too: its name is no ignore file's, so the warning was an unexplained line.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { findFiles, searchContent } from '../../src/index.js';
import { needsRg, requireRipgrepInCi } from '../helpers/real-rg.js';
import { describeIf } from '../helpers/skip-why.js';

requireRipgrepInCi();

const BAD_LINES = ['[', 'a{b', '[z-a]', '**/[', 'c[ \t ', 'x/[!'];
const KINDS = ['.gitignore', '.ignore', '.rgignore', '.git/info/exclude'];

interface Case {
  name: string;
  root: string;
}

describeIf(needsRg)('an invalid line in an ignore file above the root: ripgrep and auto are complete, as the walker', () => {
  let base: string;
  const cases: Case[] = [];

  beforeAll(() => {
    base = realpathSync(mkdtempSync(join(tmpdir(), 'ff-parent-warn-')));
    let i = 0;
    for (const kind of KINDS) {
      for (const bad of BAD_LINES) {
        const repo = join(base, `r${i}`);
        const before = Array.from({ length: i % 3 }, (_, n) => `# comment ${n}`);
        // CRLF in some: ripgrep drops the `\r` before it reads the line.
        const eol = i % 4 === 3 ? '\r\n' : '\n';
        mkdirSync(join(repo, '.git', 'info'), { recursive: true });
        mkdirSync(join(repo, 'src', 'sub'), { recursive: true });
        writeFileSync(join(repo, kind), [...before, bad, '*.log', ''].join(eol));
        writeFileSync(join(repo, 'src', 'a.ts'), 'TODO\n');
        writeFileSync(join(repo, 'src', 'b.log'), 'TODO\n');
        writeFileSync(join(repo, 'src', 'sub', 'c.ts'), 'TODO here\n');
        cases.push({ name: `${JSON.stringify(bad)} at line ${before.length + 1} of ${kind}${eol === '\r\n' ? ' (CRLF)' : ''}`, root: join(repo, 'src') });
        i++;
      }
    }
    // Two levels up, outside any repository: `.ignore` applies anywhere.
    mkdirSync(join(base, 'plain', 'a', 'b'), { recursive: true });
    writeFileSync(join(base, 'plain', '.ignore'), '[\n*.log\n');
    writeFileSync(join(base, 'plain', 'a', 'b', 'x.ts'), 'TODO\n');
    writeFileSync(join(base, 'plain', 'a', 'b', 'y.log'), 'TODO\n');
    cases.push({ name: '"[" in .ignore two levels up, no repository', root: join(base, 'plain', 'a', 'b') });
  });

  afterAll(() => rmSync(base, { recursive: true, force: true }));

  it('an invalid line in an ignoreFiles file (any name, inside the root or out of it; rg exits 0 or 1): complete, as the walker', async () => {
    const root = join(base, 'given', 'root');
    mkdirSync(root, { recursive: true });
    writeFileSync(join(root, 'a.ts'), 'TODO\n');
    writeFileSync(join(root, 'b.log'), 'TODO\n');
    for (const [where, file] of [['outside', join(base, 'given', 'my-ignore')], ['inside', join(root, '.qwenignore')]] as const) {
      for (const bad of BAD_LINES) {
        writeFileSync(file, `${bad}\n*.log\n`);
        for (const pattern of ['**', '**/*.nope']) {
          const options = { root, pattern, ignoreFiles: [file] };
          const walked = await findFiles({ ...options, backend: 'walker' });
          for (const backend of ['ripgrep', 'auto'] as const) {
            const listed = await findFiles({ ...options, backend });
            const name = `${JSON.stringify(bad)} in ${where} ${file.slice(base.length)}, ${pattern}, ${backend}`;
            expect({ complete: listed.complete, matches: listed.matches }, name).toEqual({ complete: true, matches: walked.matches });
          }
        }
        const searched = await searchContent({ root, query: 'TODO', ignoreFiles: [file], backend: 'ripgrep' });
        expect({ complete: searched.complete, hits: searched.hits.map((h) => h.path) }, `${bad} ${where}, content`).toEqual({ complete: true, hits: ['a.ts'] });
      }
    }
  }, 120_000);

  it('every case: complete, no fallback, the walker\'s matches and hits', async () => {
    expect(cases.length).toBe(KINDS.length * BAD_LINES.length + 1);
    for (const { name, root } of cases) {
      const options = { root, pattern: '**', gitignore: true, hidden: true } as const;
      const walked = await findFiles({ ...options, backend: 'walker' });
      expect(walked.complete, name).toBe(true);
      expect(walked.matches.length, name).toBeGreaterThan(0);
      for (const backend of ['ripgrep', 'auto'] as const) {
        const listed = await findFiles({ ...options, backend });
        expect({ backend: listed.backend, complete: listed.complete, reasons: listed.incompleteReasons, matches: listed.matches, failure: listed.recovery?.failureKind }, `${name}, ${backend}`).toEqual({
          backend: 'ripgrep',
          complete: true,
          reasons: [],
          matches: walked.matches,
          failure: undefined,
        });
      }
      const content = { root, query: 'TODO', gitignore: true, hidden: true } as const;
      const read = await searchContent({ ...content, backend: 'walker' });
      const hits = (r: typeof read) => r.hits.map((h) => `${h.path}:${h.line}`).sort();
      for (const backend of ['ripgrep', 'auto'] as const) {
        const searched = await searchContent({ ...content, backend });
        expect({ backend: searched.backend, complete: searched.complete, reasons: searched.incompleteReasons, hits: hits(searched) }, `${name}, content ${backend}`).toEqual({
          backend: 'ripgrep',
          complete: true,
          reasons: [],
          hits: hits(read),
        });
      }
    }
  }, 120_000);
});
