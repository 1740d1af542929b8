/**
 * A regex ripgrep refuses is bad input, on every backend. With `backend: 'ripgrep'` ripgrep alone
 * judges the regex (RE2 does not: their dialects differ), and its refusal had read as a search cut
 * short by an I/O error ("INCOMPLETE ... io-error", status 0): an agent took it for a broken disk.
 * It is now `FF_INVALID_QUERY` with ripgrep's own reason, as RE2's refusal is on the pure-TS path;
 * under `auto` a regex RE2 accepts and ripgrep refuses is answered by the walker, as before.
 *
 * Oracle: the real `rg`, run here on each regex of a generated family: its `error:` line is the
 * reason the error must carry, and a regex it accepts must never be refused.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FindFileError, searchContent, type ContentOptions } from '../../src/index.js';
import { StderrReader } from '../../src/rg/stderr.js';
import { needsRg, realRg, requireRipgrepInCi } from '../helpers/real-rg.js';
import { describeIf } from '../helpers/skip-why.js';

requireRipgrepInCi();

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'ff-rg-refused-'));
  writeFileSync(join(root, 'a.txt'), 'foo foo\nbar(\na.b\n');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The shapes ripgrep 13 refuses (backreferences, look-around, `\Q`, octal, broken syntax), each in a few places. */
const REFUSED_CORES = ['(\\w+) \\1', '\\2', '(?=a)', '(?!a)', '(?<=a)b', '(?<!a)b', '\\Qa.b\\E', '\\012', '(a', 'a)', '[z-a]', '\\p{Foo}', 'a{2,1}', 'a{99999}{99999}', '(?P<n>a)(?P<n>b)'];
const PLACES = [(core: string) => core, (core: string) => `foo${core}`, (core: string) => `(?:x|${core})`, (core: string) => `^${core}.*$`];
const FAMILY = REFUSED_CORES.flatMap((core) => PLACES.map((place) => place(core)));

/** ripgrep's own verdict on `query`: its `error:` reason, or undefined when it accepts it. Asked once a regex. */
const reasons = new Map<string, string | undefined>();
function rgReason(query: string): string | undefined {
  if (!reasons.has(query)) reasons.set(query, askRg(query));
  return reasons.get(query);
}

function askRg(query: string): string | undefined {
  try {
    execFileSync(realRg.path!, ['--json', '--', query, root], { stdio: ['ignore', 'ignore', 'pipe'] });
    return undefined;
  } catch (error) {
    const { status, stderr } = error as { status: number; stderr: Buffer };
    if (status === 1) return undefined; // no match: accepted
    // A syntax error's reason is its `error:` line; a regex too large to compile says so on its one line.
    const lines = String(stderr).split('\n');
    return lines.find((line) => line.startsWith('error: '))?.slice('error: '.length) ?? lines[0]!.replace(/^rg: /, '');
  }
}

/** What a search answers: its hits and completeness, or the code and message it was refused with. */
async function answer(query: string, backend: 'ripgrep' | 'auto') {
  try {
    const result = await searchContent({ root, query, mode: 'regex', backend, rgPath: realRg.path } as ContentOptions);
    return { complete: result.complete, reasons: result.incompleteReasons, backend: result.backend };
  } catch (error) {
    if (!(error instanceof FindFileError)) throw error;
    return { refused: error.code, message: error.message };
  }
}

describeIf(needsRg)('a regex ripgrep refuses, as ripgrep itself says', () => {
  it('the family is one ripgrep refuses (else the oracle checks nothing)', () => {
    const accepted = FAMILY.filter((query) => rgReason(query) === undefined);
    expect(accepted).toEqual([]);
  });

  it('backend ripgrep: FF_INVALID_QUERY with ripgrep\'s reason, never an incomplete answer', async () => {
    for (const query of FAMILY) {
      const reason = rgReason(query);
      expect({ query, ...(await answer(query, 'ripgrep')) }).toEqual({ query, refused: 'FF_INVALID_QUERY', message: `query is not a valid regex (ripgrep's syntax): ${reason}` });
    }
  });

  it('auto: refused by RE2 first, or answered by the walker: never an io-error', async () => {
    for (const query of FAMILY) {
      const got = await answer(query, 'auto');
      if ('refused' in got) expect({ query, refused: got.refused }).toEqual({ query, refused: 'FF_INVALID_QUERY' });
      else expect({ query, ...got }).toEqual({ query, complete: true, reasons: [], backend: 'walker' });
    }
  });

  it('a regex ripgrep accepts is searched, not refused (the check reads ripgrep\'s answer, not the shape)', async () => {
    for (const query of ['foo', '\\(', 'a\\.b', '(?i)FOO', '\\bfoo\\b', '[a-z]+']) {
      expect(rgReason(query)).toBeUndefined();
      expect({ query, ...(await answer(query, 'ripgrep')) }).toEqual({ query, complete: true, reasons: [], backend: 'ripgrep' });
    }
  });
});

describe('the refusal is read from the first line only', () => {
  const report = (...lines: string[]) => {
    const reader = new StderrReader('posix');
    for (const line of lines) reader.line(line);
    return reader.report();
  };

  it('ripgrep 13 and 14 shapes give the reason, and stay unexplained lines (a failure either way)', () => {
    const rg13 = report('regex parse error:', '    (a', '    ^', 'error: unclosed group');
    expect(rg13).toMatchObject({ queryRefused: 'unclosed group', unclassified: 4 });
    expect(report('rg: regex parse error:', '    (a', 'error: unclosed group').queryRefused).toBe('unclosed group');
    expect(report('regex parse error:', '    (a').queryRefused).toBe('');
    const size = 'Compiled regex exceeds size limit of 104857600 bytes.';
    expect(report(size).queryRefused).toBe(size);
    expect(report(`rg: ${size}`).queryRefused).toBe(size);
  });

  it('a path error first, or a path named like the header, is no refusal', () => {
    expect(report('./deny: Permission denied (os error 13)', 'regex parse error:', 'error: x').queryRefused).toBeUndefined();
    expect(report('./regex parse error:: Permission denied (os error 13)', 'error: x').queryRefused).toBeUndefined();
    expect(report('rg: ./regex parse error:', 'error: x').queryRefused).toBeUndefined();
    expect(report('./x: Permission denied (os error 13)', 'Compiled regex exceeds size limit of 1 bytes.').queryRefused).toBeUndefined();
  });
});
