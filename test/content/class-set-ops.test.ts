/**
 * Class set operations: Rust's regex (ripgrep) reads `&&`, `--`, `~~` and a nested `[` inside
 * brackets as operations on sets, RE2 (the pure-TS path) as characters. An adversarial run found
 * the walker answering "complete" with other hits than ripgrep (`[[a-z]&&[f]]oo`, `[a-z&&[^o]]+`,
 * `[^[a]]`, `[--z]`, `[\p{L}&&\p{Ll}]`). The pure-TS path refuses them (FF_INVALID_QUERY, naming
 * the construct); `auto`, which may need that path, refuses before any I/O; ripgrep runs them.
 *
 * Oracle: the real `rg` on generated classes over a small corpus. Whatever the walker does not
 * refuse, it must answer as ripgrep does; what ripgrep refuses, the walker refuses too.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readQuery } from '../../src/content/query.js';
import { FindFileError, searchContent, type ContentOptions } from '../../src/index.js';
import { readRegexSyntax } from '../../src/regex-syntax.js';
import { pool } from '../helpers/pool.js';
import { mulberry32 } from '../helpers/prng.js';
import { needsRg, realRg, requireRipgrepInCi } from '../helpers/real-rg.js';
import { describeIf, itIf } from '../helpers/skip-why.js';

requireRipgrepInCi();

const CORPUS = ['foo bar', 'x]y', '-', 'z', '&', '~', '[', ']', '^', 'a', 'f', 'o', 'A', 'F', '1', 'é', 'ab', 'Ω', 'ω'];
let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'ff-class-set-'));
  writeFileSync(join(root, 'corpus.txt'), CORPUS.join('\n') + '\n');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The walker's answer, or the code and construct of its refusal. */
async function walker(query: string, backend: 'walker' | 'auto' = 'walker'): Promise<string[] | { refused: string }> {
  try {
    const result = await searchContent({ root, query, mode: 'regex', caseSensitive: true, backend, rgPath: realRg.path } as ContentOptions);
    return result.hits.map((hit) => hit.text);
  } catch (error) {
    if (!(error instanceof FindFileError)) throw error;
    return { refused: `${error.code} ${/`([^`]+)` inside brackets/.exec(error.message)?.[1] ?? error.message}` };
  }
}

/** The corpus lines the real `rg -s` finds, or undefined when it refuses the regex. */
function rg(query: string): Promise<string[] | undefined> {
  return new Promise((resolve, reject) => {
    execFile(realRg.path!, ['-s', '--no-filename', '--no-line-number', '--no-config', '-e', query, '--', join(root, 'corpus.txt')], { encoding: 'utf8' }, (error, stdout) => {
      if (error !== null && error.code === 2) return resolve(undefined);
      if (error !== null && error.code !== 1) return reject(error);
      resolve(stdout.split('\n').filter((line) => line !== ''));
    });
  });
}

describe("the adversarial run's classes", () => {
  const CASES: [string, string][] = [
    ['[[a-z]&&[f]]oo', '['],
    ['[a-z&&[^o]]+', '&&'],
    ['[^[a]]', '['],
    ['[--z]', '--'],
    ['[\\p{L}&&\\p{Ll}]', '&&'],
    ['[a~~b]', '~~'],
  ];
  it.each(CASES)('%s: refused on the pure-TS path and with auto, naming %s', async (query, construct) => {
    expect(readRegexSyntax(query).classSetOperation?.construct).toBe(construct);
    expect(() => readQuery({ query, mode: 'regex' }, true)).toThrow(construct === '[' ? /`\[` inside brackets .* a nested class/ : new RegExp(`\`${construct}\` inside brackets`));
    expect(await walker(query)).toEqual({ refused: `FF_INVALID_QUERY ${construct}` });
    expect(await walker(query, 'auto')).toEqual({ refused: `FF_INVALID_QUERY ${construct}` });
    // ripgrep alone: not compiled here, ripgrep reads it as it means it.
    expect(() => readQuery({ query, mode: 'regex' }, false)).not.toThrow();
  });

  it.each(['[[:alpha:]]', '[a[:digit:]]', '[\\[]', '[a\\-\\-b]', '[a-]', '[-a]', '[&]', '[a&b~c-d]'])('%s: no set operation, searched', (query) => {
    expect(readRegexSyntax(query).classSetOperation).toBeUndefined();
    expect(() => readQuery({ query, mode: 'regex' }, true)).not.toThrow();
  });

  itIf(needsRg)('ripgrep runs them, as rg does', async () => {
    const result = await searchContent({ root, query: '[a-z&&[^o]]+', mode: 'regex', caseSensitive: true, backend: 'ripgrep', rgPath: realRg.path! });
    expect(result.hits.map((hit) => hit.text)).toEqual(await rg('[a-z&&[^o]]+'));
  });
});

/** Pieces of a class: members, ranges, named classes, nested classes and the operators. */
const PIECES = ['a', 'f', 'o', 'x', 'z', 'a-z', 'b-f', 'A-Z', '\\d', '\\pL', '\\p{Ll}', '[:alpha:]', '[:upper:]', '&', '-', '~', '&&', '--', '~~', '[a]', '[^o]', '[a-f]', '\\[', '\\]', '\\-', '^', ']', '['];

function generate(count: number): string[] {
  const random = mulberry32(41); // a failure names a class that comes back
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  const classes = new Set<string>();
  while (classes.size < count) {
    const pieces = Array.from({ length: 1 + Math.floor(random() * 4) }, () => pick(PIECES));
    classes.add(`[${random() < 0.3 ? '^' : ''}${pieces.join('')}]${random() < 0.3 ? '+' : ''}`);
  }
  return [...classes];
}

describeIf(needsRg)('generated classes, against the real rg', () => {
  it('the walker answers as rg or refuses; it refuses whatever rg refuses', async () => {
    const classes = generate(300);
    const oracle: (string[] | undefined)[] = new Array(classes.length);
    await pool([...classes.keys()], 4, async (i) => {
      oracle[i] = await rg(classes[i]!);
    });
    const mismatches: string[] = [];
    const tally = { agreed: 0, refused: 0 };
    for (const [i, query] of classes.entries()) {
      const found = await walker(query);
      if (!Array.isArray(found)) tally.refused++;
      else if (oracle[i] === undefined) mismatches.push(`${JSON.stringify(query)}: rg refuses it, the walker answers ${JSON.stringify(found)}`);
      else if (JSON.stringify(found) !== JSON.stringify(oracle[i])) mismatches.push(`${JSON.stringify(query)}: walker ${JSON.stringify(found)}, rg ${JSON.stringify(oracle[i])}`);
      else tally.agreed++;
    }
    expect(mismatches).toEqual([]);
    // Not vacuous: many classes answered alike, many refused.
    expect(tally.agreed).toBeGreaterThan(60);
    expect(tally.refused).toBeGreaterThan(60);
  }, 120_000);
});
