/**
 * node-glob's other forms in find-file/glob: `globIterate`, `globStream`, their sync twins, the
 * `Glob` class, `hasMagic` and `unescape`. A host that imports any of them keeps node-glob unless
 * they are here. Each form is checked on generated trees (hostile names, links to files, to
 * directories, dangling) and generated patterns against `glob`'s whole answer, which the parity
 * suites check against node-glob itself: the same items, and the same verdict (what was not read
 * stays named). `hasMagic` and `unescape` are checked against node-glob's own on generated text.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as ng from 'glob';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as ff from '../../src/compat/glob.js';
import type { FindSummary } from '../../src/result.js';
import { Rng, generatePatterns, generateTree, materializeTree } from '../conformance/generate.js';
import { listDirectories, listRegularFiles } from '../conformance/oracles.js';

const TREES = 3;
const PER_TREE = 40;
let base: string;
const trees: { root: string; patterns: string[] }[] = [];

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'ff-glob-forms-'));
  const master = new Rng(0x6f726d73);
  for (let index = 0; index < TREES; index++) {
    const rng = master.fork();
    const root = join(base, `t${index}`);
    materializeTree(root, generateTree(rng, index === 0));
    const patterns = generatePatterns(rng, listRegularFiles(root), listDirectories(root), PER_TREE, index === 0).map((p) => p.pattern);
    trees.push({ root, patterns });
  }
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** An item as comparable text: a path, or an entry's relative path and kind. */
function text(item: string | ff.PathEntry): string {
  return typeof item === 'string' ? item : `${item.relative() || '.'} ${item.isDirectory() ? 'd' : item.isSymbolicLink() ? 'l' : item.isFile() ? 'f' : '?'}`;
}

/** What a verdict says about coverage: equal across the forms of one search. */
function coverage(v: FindSummary): unknown {
  return {
    complete: v.complete,
    reasons: v.incompleteReasons,
    skipped: [...v.skipped].map((s) => `${s.path} ${s.code}`).sort(),
    linksOnTheWay: [...v.linksOnTheWay].sort(),
    matchedCount: v.matchedCount,
  };
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

/** `glob`'s answer, or the code it refuses the call with. */
async function whole(pattern: string, options: ff.GlobOptions): Promise<{ items: string[]; verdict: FindSummary } | { code: string }> {
  try {
    const answer = await ff.glob(pattern, options);
    return { items: answer.map(text).sort(), verdict: answer.result };
  } catch (error) {
    return { code: (error as { code?: string }).code ?? String(error) };
  }
}

const OPTION_SETS: ff.GlobOptions[] = [{}, { nodir: true }, { dot: true }, { withFileTypes: true }, { stat: true, nodir: true }, { absolute: true }, { nocase: true, maxDepth: 2 }];

describe('globIterate, globStream, their sync twins and Glob give glob\'s items and verdict', () => {
  for (const options of OPTION_SETS) {
    it(`on ${TREES} generated trees, ${PER_TREE} patterns each, ${JSON.stringify(options)}`, async () => {
      const failures: string[] = [];
      let withItems = 0;
      for (const { root, patterns } of trees) {
        for (const pattern of patterns) {
          const full = { ...options, cwd: root };
          const expected = await whole(pattern, full);
          const label = `${JSON.stringify(pattern)} ${JSON.stringify(options)}`;
          if ('code' in expected) {
            // A call glob refuses is refused by every form, with the same code, before any item.
            for (const run of [() => ff.globIterate(pattern, full), () => new ff.Glob(pattern, full), () => ff.globStream(pattern, full), () => ff.globIterateSync(pattern, full)]) {
              let code: string | undefined;
              try {
                const made = run();
                if (Symbol.asyncIterator in made && !(made instanceof ff.Glob)) await collect(made as AsyncIterable<unknown>);
              } catch (error) {
                code = (error as { code?: string }).code;
              }
              if (code !== expected.code) failures.push(`${label}: refused ${code}, glob ${expected.code}`);
            }
            continue;
          }
          if (expected.items.length > 0) withItems++;
          const iterator = ff.globIterate(pattern, full);
          const stream = ff.globStream(pattern, full);
          const forms: [string, string[], FindSummary][] = [
            ['globIterate', (await collect(iterator)).map(text).sort(), await iterator.result],
            ['globStream', (await collect<string | ff.PathEntry>(stream)).map(text).sort(), await stream.result],
          ];
          const sync = ff.globIterateSync(pattern, full);
          forms.push(['globIterateSync', [...sync].map(text).sort(), sync.result]);
          const glob = new ff.Glob(pattern, full);
          const walked = await glob.walk();
          forms.push(['Glob.walk', walked.map(text).sort(), walked.result]);
          forms.push(['Glob, for await', (await collect<string | ff.PathEntry>(glob)).map(text).sort(), expected.verdict]);
          for (const [form, items, verdict] of forms) {
            if (JSON.stringify(items) !== JSON.stringify(expected.items)) failures.push(`${label} ${form}: ${JSON.stringify(items)} against glob's ${JSON.stringify(expected.items)}`);
            if (JSON.stringify(coverage(verdict)) !== JSON.stringify(coverage(expected.verdict))) {
              failures.push(`${label} ${form} verdict: ${JSON.stringify(coverage(verdict))} against ${JSON.stringify(coverage(expected.verdict))}`);
            }
          }
        }
      }
      expect(failures.slice(0, 10)).toEqual([]);
      expect(withItems).toBeGreaterThan(TREES * 10);
    });
  }
});

describe('an iteration ended early says so', () => {
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'ff-glob-forms-early-'));
    for (let d = 0; d < 40; d++) {
      mkdirSync(join(root, `d${d}`));
      for (let f = 0; f < 30; f++) writeFileSync(join(root, `d${d}`, `f${f}.js`), '');
    }
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('a break stops the walk: the verdict is aborted, counts what was taken, and is no proof of absence (how far the reads had gone depends on timing: not asserted)', async () => {
    const iterator = ff.globIterate('**/*.js', { cwd: root });
    const taken: string[] = [];
    for await (const path of iterator) {
      taken.push(path);
      if (taken.length === 5) break;
    }
    const verdict = await iterator.result;
    expect(verdict.complete).toBe(false);
    expect(verdict.incompleteReasons).toContain('aborted');
    expect(verdict.matchedCount).toBe(5);
  });

  it('a destroyed stream settles its verdict as aborted', async () => {
    const stream = ff.globStream('**/*.js', { cwd: root });
    const first = await new Promise((resolve) => stream.once('data', resolve));
    expect(typeof first).toBe('string');
    stream.destroy();
    const verdict = await stream.result;
    expect(verdict.incompleteReasons).toContain('aborted');
    expect(verdict.complete).toBe(false);
  });

  it('a stream left by a break in its for await settles as aborted (its AbortError is the reader leaving, not a failed search)', async () => {
    const stream = ff.globStream('**/*.js', { cwd: root });
    for await (const _ of stream) break;
    const verdict = await stream.result;
    expect(verdict.incompleteReasons).toContain('aborted');
  });

  it('an iteration left before its first item (return() first, a stream destroyed at once): the verdict rejects, nothing was searched; it never hangs', async () => {
    const iterator = ff.globIterate('**/*.js', { cwd: root });
    await iterator.return(undefined);
    await expect(iterator.result).rejects.toMatchObject({ name: 'AbortError' });
    const stream = ff.globStream('**/*.js', { cwd: root });
    stream.destroy();
    await expect(stream.result).rejects.toMatchObject({ name: 'AbortError' });
    const fromClass = new ff.Glob('**/*.js', { cwd: root }).stream();
    fromClass.destroy();
    await expect(fromClass.result).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('after an abort no item found before it is handed out (node-glob stops at once): the items already waiting are not', async () => {
    const controller = new AbortController();
    const iterator = ff.globIterate('**/*.js', { cwd: root, signal: controller.signal });
    let taken = 0;
    await expect(
      (async () => {
        for await (const _ of iterator) {
          taken++;
          controller.abort(new Error('stop'));
        }
      })(),
    ).rejects.toThrow('stop');
    expect(taken).toBe(1);
  });

  it('an abort while the first item is awaited hands out nothing, not even cwd itself (which, for a missing start, does not exist)', async () => {
    for (const pattern of ['**', `${root}/nope/x/y/**`]) {
      const controller = new AbortController();
      const iterator = ff.globIterate(pattern, { cwd: root, signal: controller.signal });
      const first = iterator.next();
      controller.abort(new Error('stop'));
      await expect(first).rejects.toThrow('stop');
      await expect(iterator.result).rejects.toThrow('stop');
    }
  });

  it("a stream hands out nothing after an abort, not even an item already in its buffer; it ends with the reason, as node-glob's", async () => {
    const controller = new AbortController();
    let taken = 0;
    let after = 0;
    let thrown: unknown;
    try {
      for await (const _ of ff.globStream('**/*.js', { cwd: root, signal: controller.signal })) {
        if (controller.signal.aborted) after++;
        if (++taken === 3) controller.abort(new Error('stop'));
      }
    } catch (error) {
      thrown = error;
    }
    expect((thrown as Error).message).toBe('stop');
    expect({ taken, after }).toEqual({ taken: 3, after: 0 });
  });

  it('an aborted signal ends the iteration with its reason, as glob rejects, and so does the verdict', async () => {
    const controller = new AbortController();
    const iterator = ff.globIterate('**/*.js', { cwd: root, signal: controller.signal });
    const reason = new Error('stop here');
    let thrown: unknown;
    let count = 0;
    try {
      for await (const _ of iterator) if (++count === 3) controller.abort(reason);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBe(reason);
    await expect(iterator.result).rejects.toBe(reason);
  });

  it('a missing cwd ends the iteration with ENOENT, never an empty complete answer', async () => {
    const iterator = ff.globIterate('**', { cwd: join(root, 'gone') });
    await expect(collect(iterator)).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(iterator.result).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('bad options are refused at the call, as node-glob\'s constructor refuses them', () => {
    expect(() => ff.globIterate('*', { cwd: root, follow: true })).toThrow(expect.objectContaining({ code: 'FF_INVALID_OPTION' }));
    expect(() => new ff.Glob('*', { cwd: root, nosuch: 1 } as ff.GlobOptions)).toThrow(expect.objectContaining({ code: 'FF_UNKNOWN_OPTION' }));
    expect(() => ff.globStream('*', { cwd: root, withFileTypes: true, absolute: false })).toThrow(expect.objectContaining({ code: 'FF_INVALID_OPTION' }));
  });

  it('a Glob given as options lends its options', async () => {
    const first = new ff.Glob('d1/*.js', { cwd: root, nodir: true });
    const second = new ff.Glob('d2/f1*.js', first);
    expect(second.opts).toBe(first.opts);
    expect((await second.walk()).slice().sort()).toEqual(['d2/f1.js', 'd2/f10.js', 'd2/f11.js', 'd2/f12.js', 'd2/f13.js', 'd2/f14.js', 'd2/f15.js', 'd2/f16.js', 'd2/f17.js', 'd2/f18.js', 'd2/f19.js']);
  });
});

/** Text from an alphabet rich in what minimatch reads as magic or escape. */
function magicText(rng: Rng): string {
  const atoms = ['a', 'b', 'B', '.', '/', '\\', '*', '**', '?', '[', ']', '[a-z]', '[!a]', '[[:alpha:]]', '{', '}', '{a,b}', '{1..3}', ',', '(', ')', '|', '!', '@(', '+(', '*(', '?(', '!(', '#', ' ', '-', '^', '$'];
  return Array.from({ length: rng.range(1, 7) }, () => rng.pick(atoms)).join('');
}

describe('hasMagic and unescape answer as node-glob\'s', () => {
  const rng = new Rng(0x6d616763);
  const texts = Array.from({ length: 3000 }, () => magicText(rng));

  // find-file's minimatch is 10 (node-glob 11's; 11 would bring a sixth package to a host's
  // install), the oracle's 14 carries minimatch 11, which also reads an extglob whose body is empty
  // or a bare `|` (`?()`, `+(|)`) as magic. Only that family may differ, and only that way.
  const EXTGLOB = /[?*+@!]\(/;
  for (const options of [{}, { nocase: true }, { magicalBraces: true }, { windowsPathsNoEscape: true }]) {
    it(`hasMagic on ${texts.length} generated patterns ${JSON.stringify(options)}`, () => {
      const differ = texts.filter((t) => ff.hasMagic(t, options) !== ng.hasMagic(t, options));
      expect(differ.filter((t) => ff.hasMagic(t, options) || !EXTGLOB.test(t)).slice(0, 10)).toEqual([]);
      expect(differ.length).toBeLessThan(texts.length / 50);
      expect(texts.filter((t) => ng.hasMagic(t, options)).length).toBeGreaterThan(texts.length / 3);
      expect(texts.filter((t) => !ng.hasMagic(t, options)).length).toBeGreaterThan(50);
    });
  }

  it('hasMagic of a list: any of them', () => {
    expect(ff.hasMagic(['a/b', 'c'])).toBe(false);
    expect(ff.hasMagic(['a/b', 'c*'])).toBe(true);
  });

  it('hasMagic of a pattern minimatch cannot read is true, so glob reads it and names its refusal (node-glob throws)', () => {
    const deep = `${'@('.repeat(3000)}a${')'.repeat(3000)}`;
    expect(() => ng.hasMagic(deep)).toThrow();
    expect(ff.hasMagic(deep)).toBe(true);
    expect(ff.hasMagic('x'.repeat(70_000))).toBe(true);
  });

  for (const options of [{}, { windowsPathsNoEscape: true }, { magicalBraces: true }]) {
    it(`unescape on ${texts.length} generated texts and their escapes ${JSON.stringify(options)}`, () => {
      const inputs = texts.flatMap((t) => [t, ng.escape(t, options)]);
      const differ = inputs.filter((t) => ff.unescape(t, options) !== ng.unescape(t, options));
      expect(differ.slice(0, 10)).toEqual([]);
      for (const t of texts) expect(ff.unescape(ff.escape(t, options), options)).toBe(t);
    });
  }
});

describe('the surface', () => {
  it('every export of node-glob is here but Ignore (an ignore object is refused: docs/compat.md)', () => {
    const missing = Object.keys(ng).filter((name) => !(name in ff));
    expect(missing).toEqual(['Ignore']);
  });

  it("glob carries node-glob's properties (glob.sync, glob.stream...), each the function of that name", () => {
    expect(Object.keys(ng.glob).filter((name) => !(name in ff.glob))).toEqual([]);
    expect(ff.glob.sync).toBe(ff.globSync);
    expect(ff.glob.glob).toBe(ff.glob);
    expect(ff.glob.Glob).toBe(ff.Glob);
  });

  it('hasMagic of something that is not a string throws a TypeError, as node-glob does (never a guess)', () => {
    expect(() => ff.hasMagic(['a', 5 as unknown as string])).toThrow(TypeError);
    expect(() => ng.hasMagic(['a', 5 as unknown as string])).toThrow(TypeError);
  });
});
