/**
 * What the agent tools tell a model, six adversarial findings (advI): each sentence must hold for
 * the model that acts on it verbatim.
 * - F6: the count mode's partial-count note once put a file name in `content` raw: a newline and a
 *   U+202E forged a line "No matches.txt:100+". Now it is escaped, as every other path.
 * - F2: the "is a file" / "special file" refusals suggested the name as a pattern with only `\`
 *   escaped: `b{1,2}.txt` found b1.txt and b2.txt, never the file. Now the name is escaped as grep's
 *   file path is (`exactGlob`): the suggested call lists exactly that file.
 * - F5: count mode cut by the count cap advised "raise limit", which returns the same page.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { globTool, grepTool, type GlobMetadata } from '../../src/agent/index.js';
import { escapeText } from '../../src/text-escape.js';
import { workspace } from '../helpers/agent.js';
import type { Tree } from '../helpers/memfs.js';
import { itIf, onWindows, posixOnly } from '../helpers/skip-why.js';
import { needsRg, realRg } from '../helpers/real-rg.js';

/** True when no line of `content` holds a character `escapeText` would escape (its own `\u{` escapes aside). */
function isClean(content: string): boolean {
  return content.split('\n').every((line) => escapeText(line.replaceAll('\\', '')) === line.replaceAll('\\', ''));
}

describe('F6: the partial-count note escapes the file name', () => {
  const FORGERS = ['\n', '\r', '\u202e', '\u2028', '\x1b[2J', '\u0085', '\u200b', '\ufeff'];
  it.each(FORGERS.map((f) => [escapeText(f)]))('a name holding %s: no raw character, no forged line', async (shown) => {
    const forger = FORGERS.find((f) => escapeText(f) === shown)!;
    const tree: Record<string, string> = {};
    // 4 files of 300 lines: the 1,000-line count cap stops inside the fourth.
    for (let i = 1; i <= 4; i++) tree[`f${i}${forger}No matches.txt`] = 'needle\n'.repeat(300);
    const result = await grepTool({ query: 'needle', output_mode: 'count' }, workspace(tree));
    const lines = result.content.split('\n');
    expect(isClean(result.content)).toBe(true);
    expect(lines.filter((l) => l.startsWith('No matches'))).toEqual([]);
    const note = lines.find((l) => l.includes('the search stopped inside this file'));
    expect(note).toContain(`(${escapeText(`f4${forger}No matches.txt`)}:100+: `);
  });
});

describe('F5: a page cut by the count cap never advises limit', () => {
  const tree: Record<string, string> = {};
  for (let i = 1; i <= 5; i++) tree[`f${i}.txt`] = 'needle\n'.repeat(300);
  it.each([undefined, 10, 100, 500])('count mode, limit %s: a short page with an open total names what helps', async (limit) => {
    const result = await grepTool({ query: 'needle', output_mode: 'count', ...(limit === undefined ? {} : { limit }) }, workspace(tree));
    expect(result.content).toContain('(truncated: showing 4 of more than 4)');
    const next = result.content.split('\n').find((l) => l.startsWith('Next:'))!;
    expect(next).not.toContain('limit (at most');
    expect(next).toContain('output_mode "files_with_matches"');
    expect(next).toContain('a larger limit would not list more');
  });
  it('a page cut by limit still advises raising it', async () => {
    const result = await grepTool({ query: 'needle', output_mode: 'count', limit: 2 }, workspace(tree));
    expect(result.content).toContain('or raise limit (at most 500).');
    const content = await grepTool({ query: 'needle', limit: 20 }, workspace(tree));
    expect(content.content).toContain('or raise limit (at most 500).');
  });
});

/** Names a bare pattern would misread: braces that expand, classes, wildcards, extglobs, a backslash. */
const HOSTILE = [
  'b{1,2}.txt', 'b{x}.txt', 'c,d{.txt', 'e}.txt', '[ab].txt', 'f[!x].txt', '*.txt', 'g?.txt', '!h.txt', '!(i).txt',
  '@(j).txt', '+(k).txt', '*(l).txt', '?(m).txt', 'n\\*.txt', 'o\\.txt', '\\{p}.txt', 'q{a..c}.txt', '{r,s}', 'x{1,2}{3,4}[5]*?.txt',
];
/** Siblings the bare names would match instead. */
const DECOYS = ['b1.txt', 'b2.txt', 'bx.txt', 'a.txt', 'fy.txt', 'g1.txt', 'h.txt', 'i.txt', 'j.txt', 'k.txt', 'kk.txt', 'l.txt', 'm.txt', 'r', 's', 'qa.txt', 'x13.txt'];

/** The pattern and path a refusal suggests, read back as the model reads them (JSON strings). */
function suggested(message: string): { pattern: string; path?: string } {
  const m = /search with pattern ("(?:[^"\\]|\\.)*")(?: and path ("(?:[^"\\]|\\.)*"))?/.exec(message);
  expect(m, message).not.toBeNull();
  return { pattern: JSON.parse(m![1]!) as string, ...(m![2] === undefined ? {} : { path: JSON.parse(m![2]) as string }) };
}

describe('F2: the "is a file" refusal suggests a call that lists exactly that file', () => {
  const real: Record<string, string> = {};
  for (const name of [...HOSTILE, ...DECOYS]) real[name] = 'x\n';
  const tree: Tree = { real };
  for (const name of HOSTILE) tree[name] = 'x\n';
  it.each(HOSTILE.flatMap((name) => [[`real/${name}`], [name]]))('%s', async (path) => {
    const ctx = workspace(tree);
    const refused = await globTool({ pattern: '*', path }, ctx);
    expect(refused.isError).toBe(true);
    const call = suggested(refused.content);
    const found = await globTool(call, ctx);
    expect((found.metadata as GlobMetadata).paths, `${JSON.stringify(call)}\n${found.content}`).toEqual([path]);
  });
});

describe.skipIf(onWindows)(posixOnly('F2: the "special file" refusal suggests a call that lists exactly that FIFO', 'mkfifo'), () => {
  it.each(['p{1,2}.fifo', '[p].fifo', 'p?.fifo', '!(p).fifo', 'p\\.fifo'])('%s', async (name) => {
    const root = mkdtempSync(join(tmpdir(), 'ff-agent-text-'));
    try {
      mkdirSync(join(root, 'real'));
      for (const decoy of ['p1.fifo', 'p2.fifo', 'p.fifo', 'px.fifo']) writeFileSync(join(root, 'real', decoy), '');
      execFileSync('mkfifo', [join(root, 'real', name)]);
      const refused = await grepTool({ query: 'x', path: `real/${name}` }, { root });
      expect(refused.content).toContain('is a special file');
      const found = await globTool({ ...suggested(refused.content), type: 'any' }, { root });
      expect((found.metadata as GlobMetadata).paths, found.content).toEqual([`real/${name}`]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

/**
 * F3: grep with `path` naming one file that the search then did not read answered "No matches for
 * X under <file> (search complete)", with its directory's policy counts as if about the file. Now
 * it says the file was not searched and why; a file that was read says nothing of its neighbours.
 */
describe('F3: grep on one file it does not read never says "No matches"', () => {
  const tree: Tree = {
    '.git': { HEAD: 'ref: refs/heads/main\n' },
    '.gitignore': '*.log\nsecret.txt\n',
    'app.log': 'ERROR needle\n',
    deep: { 'one.log': 'needle\n' },
    'secret.txt': 'needle\n',
    'data.bin': 'abc\0def\nneedle\n',
    vendor: { 'lib.js': 'needle\n' },
    'plain.txt': 'nothing here\n',
    'kept.js': 'needle\n',
  };
  const cases: [path: string, exclude: string[] | undefined, label: string, next: RegExp][] = [
    ['app.log', undefined, 'ignored', /respect_git_ignore: false/],
    ['deep/one.log', undefined, 'ignored', /respect_git_ignore: false/],
    ['secret.txt', undefined, 'ignored', /respect_git_ignore: false/],
    ['data.bin', undefined, 'binary', /cannot be searched/],
    ['vendor/lib.js', ['lib.js'], 'excluded by the host', /host's settings/],
    ['kept.js', ['*.js'], 'excluded by the host', /host's settings/],
    ['app.log', ['*.log'], 'excluded by the host, ignored', /host's settings/],
  ];
  it.each(cases)('%s (exclude %j): %s', async (path, exclude, label, next) => {
    const ctx = workspace(tree, exclude === undefined ? {} : { exclude });
    const result = await grepTool({ query: 'needle', path }, ctx);
    expect(result.content).toMatch(/^Not searched: the file /);
    expect(result.content).not.toMatch(/No matches|search complete|Left out by policy/);
    expect(result.content).toMatch(next);
    expect(result.summary).toBe(`File not searched (${label}): "needle" was not looked for in ${path}`);
    if (label === 'ignored') {
      // The advice, followed, finds the line.
      const again = await grepTool({ query: 'needle', path, respect_git_ignore: false }, ctx);
      expect(again.content.split('\n')[0]).toMatch(new RegExp(`^${path.replace('.', '\\.')}:\\d+:\\d+: `));
    }
  });
  it.each([
    ['app.log', undefined, 'ignored'],
    ['deep/one.log', undefined, 'ignored'],
    ['secret.txt', undefined, 'ignored'],
    ['vendor/lib.js', ['lib.js'], 'excluded'],
    ['app.log', ['*.log'], 'excluded'],
    ['plain.txt', ['*.log'], 'listed'],
  ] as const)('glob with path at %s (exclude %j): the refusal says when its suggestion would be dropped (%s)', async (path, exclude, how) => {
    const ctx = workspace(tree, exclude === undefined ? {} : { exclude: [...exclude] });
    const refused = await globTool({ pattern: '*', path }, ctx);
    const call = suggested(refused.content);
    const plain = await globTool(call, ctx);
    const lifted = await globTool({ ...call, respect_git_ignore: false }, ctx);
    if (how === 'listed') {
      expect(refused.content).not.toContain('But ');
      expect((plain.metadata as GlobMetadata).paths).toEqual([path]);
    } else if (how === 'ignored') {
      expect(refused.content).toContain('But ignore files (.gitignore, .ignore) ignore it: add respect_git_ignore: false to that search');
      expect((plain.metadata as GlobMetadata).paths).toEqual([]);
      expect((lifted.metadata as GlobMetadata).paths).toEqual([path]);
    } else {
      expect(refused.content).toContain('But the host excludes it');
      expect((lifted.metadata as GlobMetadata).paths).toEqual([]);
    }
  });
  it.each([['plain.txt'], ['kept.js']])('%s, read and without the text: "No matches", and nothing about its neighbours', async (path) => {
    const result = await grepTool({ query: path === 'kept.js' ? 'absent' : 'needle', path }, workspace(tree, { exclude: ['vendor/'] }));
    expect(result.content.split('\n')[0]).toMatch(/^No matches for .* \(search complete\)\.$/);
    expect(result.content).not.toMatch(/Left out by policy|ignore files|excludes/);
  });
});

/**
 * F1, F4: the missing-folder guidance's "these exist:" named paths the search's excludes or ignore
 * files drop (used verbatim: "No files matching"), and directories, FIFOs and links with no mark.
 * Now each is marked as everywhere else, and a dropped one says what drops it and gives the call
 * that lists it; a plain path that exists but was not listed is said so too. Each call given is
 * followed here and must list exactly that path.
 */
describe('F1, F4: existing paths in the guidance are marked, and dropped ones come with the call that lists them', () => {
  const tree: Tree = {
    '.git': { HEAD: 'ref: refs/heads/main\n' },
    '.gitignore': 'gen/\n*.gen.ts\n',
    node_modules: { pkg: { 'index.js': '' } },
    vendor: { lib: { 'a.ts': '' } },
    gen: { 'out.ts': '' },
    src: { 'x.gen.ts': '', 'y.js': '', thing: { 'x.ts': '' }, 'lnk.ts': { link: '../real/r.ts' } },
    real: { 'r.ts': '' },
  };
  const cases: [pattern: string, exclude: string[] | undefined, path: string, shown: string, how: 'path' | 'unignore' | 'none' | 'mark'][] = [
    ['node_module/pkg/index.js', undefined, 'node_modules/pkg/index.js', 'node_modules/pkg/index.js (excluded by the host: to list it, search with pattern "./index.js" and path "node_modules/pkg")', 'path'],
    ['vendr/lib/a.ts', ['vendor/'], 'vendor/lib/a.ts', 'vendor/lib/a.ts (excluded by the host: to list it, search with pattern "./a.ts" and path "vendor/lib")', 'path'],
    ['gne/out.ts', undefined, 'gen/out.ts', 'gen/out.ts (ignored by ignore files: to list it, add respect_git_ignore: false)', 'unignore'],
    ['sorc/x.gen.ts', undefined, 'src/x.gen.ts', 'src/x.gen.ts (ignored by ignore files: to list it, add respect_git_ignore: false)', 'unignore'],
    ['sorc/y.js', ['*.js'], 'src/y.js', 'src/y.js (excluded by the host: no search with the host\'s settings lists it)', 'none'],
    ['sorc/thing', undefined, 'src/thing', 'src/thing/', 'mark'],
    ['sorc/lnk.ts', undefined, 'src/lnk.ts', 'src/lnk.ts (symlink, not followed)', 'mark'],
    ['sorc/y.js', undefined, 'src/y.js', 'src/y.js', 'mark'],
  ];
  it.each(cases)('%s (exclude %j): %s', async (pattern, exclude, path, shown, how) => {
    const ctx = workspace(tree, exclude === undefined ? {} : { exclude });
    const result = await globTool({ pattern }, ctx);
    const line = result.content.split('\n').find((l) => l.startsWith('With a similar folder in its place, these exist: '));
    expect(line, result.content).toBe(`With a similar folder in its place, these exist: ${shown}`);
    if (how === 'path') expect((await globTool(suggested(line!), ctx)).metadata).toMatchObject({ paths: [path] });
    if (how === 'unignore') expect((await globTool({ pattern: path, respect_git_ignore: false }, ctx)).metadata).toMatchObject({ paths: [path] });
    if (how === 'none') expect((await globTool({ pattern: path, respect_git_ignore: false }, ctx)).metadata).toMatchObject({ paths: [] });
  });
  it.each([
    ['node_modules/pkg/index.js', undefined, 'The path node_modules/pkg/index.js exists, but the host excludes it: to list it, search with pattern "./index.js" and path "node_modules/pkg".'],
    ['./vendor/lib/a.ts', ['vendor/'], 'The path vendor/lib/a.ts exists, but the host excludes it: to list it, search with pattern "./a.ts" and path "vendor/lib".'],
    ['gen/out.ts', undefined, 'The path gen/out.ts exists, but ignore files ignore it: to list it, add respect_git_ignore: false.'],
    ['src/y.js', ['*.js'], 'The path src/y.js exists, but the host excludes it: no search with the host\'s settings lists it.'],
    ['src/thing', undefined, 'The path src/thing/ exists: it is a directory, which type "directory" or "any" lists.'],
  ] as const)('the plain path %s (exclude %j), not listed: said why, and what lists it', async (pattern, exclude, said) => {
    const ctx = workspace(tree, exclude === undefined ? {} : { exclude: [...exclude] });
    const result = await globTool({ pattern }, ctx);
    expect(result.content.split('\n')).toContain(said);
    if (said.includes('to list it, search with')) expect((await globTool(suggested(said), ctx)).metadata).toMatchObject({ paths: [pattern.replace(/^\.\//, '')] });
  });
});

describe.skipIf(onWindows)(posixOnly('F4: a FIFO among the existing paths names its kind', 'mkfifo'), () => {
  it('sorc/pipe: src/pipe (pipe), and the plain path says type "any" lists it', async () => {
    const root = mkdtempSync(join(tmpdir(), 'ff-agent-text-'));
    try {
      mkdirSync(join(root, 'src'));
      execFileSync('mkfifo', [join(root, 'src', 'pipe')]);
      const typo = await globTool({ pattern: 'sorc/pipe' }, { root });
      expect(typo.content.split('\n')).toContain('With a similar folder in its place, these exist: src/pipe (pipe)');
      const plain = await globTool({ pattern: 'src/pipe' }, { root });
      expect(plain.content.split('\n')).toContain('The path src/pipe (pipe) exists: type "any" lists it.');
      expect((await globTool({ pattern: 'src/pipe', type: 'any' }, { root })).metadata).toMatchObject({ paths: ['src/pipe'] });
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('F3 on the real disk: each backend says a binary or ignored file was not searched', () => {
  const backends = [['walker', []], ['ripgrep', [needsRg]]] as const;
  for (const [backend, needs] of backends) {
    itIf(...needs)(`${backend}: binary at the start, binary later, ignored; a text file without the text is "No matches"`, async () => {
      const root = mkdtempSync(join(tmpdir(), 'ff-agent-text-'));
      try {
        mkdirSync(join(root, '.git'));
        writeFileSync(join(root, '.gitignore'), 'app.log\n');
        writeFileSync(join(root, 'app.log'), 'ERROR needle\n');
        writeFileSync(join(root, 'data.bin'), 'abc\0def\nneedle\n');
        writeFileSync(join(root, 'late.bin'), `${'text\n'.repeat(1000)}\0\nneedle\n`);
        writeFileSync(join(root, 'plain.txt'), 'nothing\n');
        const ctx = { root, backend, ...(backend === 'ripgrep' ? { rgPath: realRg.path } : {}) };
        for (const [path, label] of [['data.bin', 'binary'], ['late.bin', 'binary'], ['app.log', 'ignored']]) {
          const result = await grepTool({ query: 'needle', path }, ctx);
          expect(result.summary, result.content).toBe(`File not searched (${label}): "needle" was not looked for in ${path}`);
          expect(result.content).not.toMatch(/No matches/);
        }
        const plain = await grepTool({ query: 'needle', path: 'plain.txt' }, ctx);
        expect(plain.summary).toMatch(/^No matches for "needle"/);
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    });
  }
});
