/**
 * Hostile queries (test/fixtures/hostile-queries.ts): the query is data, never code. For each one,
 * the fake runner sees the same fixed argv with the query in exactly one place (the element after
 * `--`); the real ripgrep, spawned without a shell, finds the literal text in a temp tree, and so
 * does the pure-TS path; nothing the query says is ever executed.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FindFileError, searchContent, type ContentOptions } from '../../src/index.js';
import { defaultThreads } from '../../src/rg/argv.js';
import { HOSTILE_QUERIES, REFUSED_QUERIES } from '../fixtures/hostile-queries.js';
import { needsRg, realRg, requireRipgrepInCi } from '../helpers/real-rg.js';
import { FakeRipgrep, makeFakeInstall } from '../helpers/rg-fake.js';
import { describeIf } from '../helpers/skip-why.js';

let fake: { rgPath: string; root: string; dir: string };
let tree: string;

/** One file per query, `q<i>.txt`, holding the query between other words on its own line. */
const content = (query: string) => `unrelated line\nbefore ${query} after\n`;

beforeAll(() => {
  fake = makeFakeInstall();
  tree = mkdtempSync(join(tmpdir(), 'ff-hostile-'));
  HOSTILE_QUERIES.forEach(({ query }, i) => writeFileSync(join(tree, `q${i}.txt`), content(query)));
});
afterAll(() => [fake.dir, fake.root, tree].forEach((d) => rmSync(d, { recursive: true, force: true })));

/** The fixed argv around the query: everything but the element after `--`. */
function skeleton(multiline: boolean): string[] {
  return [
    '--json', '--hidden', '--no-ignore', '--no-config', '--path-separator', '/', '--threads', String(defaultThreads()),
    '--case-sensitive', '--fixed-strings', ...(multiline ? ['--multiline'] : []), '--', '.',
  ];
}

describe('the argv never changes shape (fake runner)', () => {
  it.each(HOSTILE_QUERIES.map((q, i) => [q.name, q.query, i] as const))('%s', async (_name, query) => {
    const runner = new FakeRipgrep([{ exit: 1 }]);
    await searchContent({ root: fake.root, query, caseSensitive: true, backend: 'ripgrep', rgPath: fake.rgPath, runner: runner.runner });
    expect(runner.calls).toHaveLength(1);
    const { argv, executable, env } = runner.calls[0]!;
    expect(executable).toBe(fake.rgPath);
    // The query is the element right after the first `--`, and taking it out leaves the skeleton.
    const at = argv.indexOf('--') + 1;
    expect(argv[at]).toBe(query);
    expect([...argv.slice(0, at), ...argv.slice(at + 1)]).toEqual(skeleton(query.includes('\n')));
    // Nothing in the environment either: no shell, no config, nothing from the query.
    expect(Object.keys(env).every((k) => ['PATH', 'SYSTEMROOT', 'WINDIR', 'TEMP', 'TMP', 'TMPDIR'].includes(k.toUpperCase()))).toBe(true);
  });

  it.each(REFUSED_QUERIES.map((q) => [q.name, q.query, q.code] as const))('refused before anything runs: %s', async (_name, query, code) => {
    for (const backend of ['ripgrep', 'walker', 'auto'] as const) {
      const runner = new FakeRipgrep();
      const options: ContentOptions = { root: fake.root, query, backend, rgPath: fake.rgPath, runner: runner.runner };
      const error = await searchContent(options).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(FindFileError);
      expect((error as FindFileError).code).toBe(code);
      expect(runner.calls).toHaveLength(0);
    }
  });
});

requireRipgrepInCi();

describeIf(needsRg)('the real ripgrep finds each literal text, and so does the pure-TS path', () => {
  it.each(HOSTILE_QUERIES.map((q, i) => [q.name, q.query, i] as const))('%s', async (_name, query, i) => {
    // The oracle: every file whose content holds the query (some queries are inside others).
    const expected = HOSTILE_QUERIES.flatMap((q, j) => (content(q.query).includes(query) ? [`q${j}.txt`] : [])).sort();
    for (const backend of ['ripgrep', 'walker'] as const) {
      const result = await searchContent({ root: tree, query, caseSensitive: true, backend, rgPath: realRg.path });
      expect(result, backend).toMatchObject({ complete: true, protocolErrors: 0 });
      expect(result.hits.map((h) => h.path), backend).toEqual(expected);
      const own = result.hits.find((h) => h.path === `q${i}.txt`)!;
      // A multi-line hit shows its first line.
      const line = `before ${query} after`.split('\n')[0];
      expect(own, backend).toMatchObject({ line: 2, column: 'before '.length + 1, text: line });
    }
    // Nothing the query says ran: no file appeared, here or in the tree.
    expect(existsSync(join(tree, 'PWNED')) || existsSync('PWNED') || existsSync(join(tree, 'out.txt'))).toBe(false);
  });
});
