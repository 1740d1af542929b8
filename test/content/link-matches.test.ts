/**
 * Content search names the links its file patterns chose (`linkMatches`): a link is never followed,
 * so a file reached only through one is never searched, and "the text does not occur" must not
 * cover it. An adversarial run: `--contains hello link.txt`, link.txt a link to a file holding
 * hello, answered "complete ... the text does not occur", the link named nowhere.
 *
 * A generated family on memfs (seeded trees of files, links to files inside and outside the root,
 * links to directories, dangling links; patterns of each shape), both pure-TS engines, against the
 * name search of the same tree and pattern as the oracle: what the name search names as a matching
 * link, content search names as one too, unless it is a directory the walk would have entered (then
 * it is on the way); nothing else is named. Then the real disk with the real ripgrep: `auto` names
 * them after ripgrep's empty answer, ripgrep alone says it could not see them, and the command says so.
 */
import { mkdtempSync, rmSync, symlinkSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ONE_THREAD } from '../../src/content/search.js';
import { findFiles, searchContent } from '../../src/index.js';
import { grepTool } from '../../src/agent/index.js';
import { runFindFile } from '../helpers/cli.js';
import { makeSpecialTree, type SpecialTree } from '../helpers/special-files.js';
import { buildVolume, type Tree } from '../helpers/memfs.js';
import { mulberry32 } from '../helpers/prng.js';
import { needsRg, realRg } from '../helpers/real-rg.js';
import { describeIf, posix } from '../helpers/skip-why.js';

const NAMES = ['a.txt', 'b.md', 'link.txt', 'l2.md', 'cfg'];
const PATTERNS = ['*', '*.txt', '**/*.txt', 'link.txt', 'l*', 'd0/*', 'd0/**', 'd1/l*.txt', '**/cfg', '*/*.md', 'cfg', '{a,l2}.md'];

interface Case {
  tree: Tree;
  /** Root-relative paths of the links whose target is a directory (or may be: none here is unknown). */
  dirLinks: Set<string>;
}

/** A tree of two levels: files holding NEEDLE or not, and links of every kind under the same names. */
function generate(seed: number): Case {
  const random = mulberry32(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const dirLinks = new Set<string>();
  const fill = (prefix: string, depth: number): Tree => {
    const node: Tree = {};
    for (const name of NAMES) {
      const roll = random();
      const rel = prefix + name;
      if (roll < 0.3) node[name] = random() < 0.6 ? 'NEEDLE\n' : 'other\n';
      else if (roll < 0.5) node[name] = { link: pick(['/root/real/f.txt', '/outside/o.txt', '../real/f.txt', 'a.txt']) };
      else if (roll < 0.62) {
        node[name] = { link: pick(['/root/real', '/outside', '/root/d0']) };
        dirLinks.add(rel);
      } else if (roll < 0.7) node[name] = { link: '/root/gone' };
    }
    if (depth < 1) for (const dir of ['d0', 'd1']) node[dir] = fill(`${prefix}${dir}/`, depth + 1);
    return node;
  };
  const tree = fill('', 0);
  tree.real = { 'f.txt': 'NEEDLE\n' };
  return { tree, dirLinks };
}

function volumeOf(tree: Tree) {
  const vol = buildVolume(tree);
  vol.mkdirSync('/outside');
  vol.writeFileSync('/outside/o.txt', 'NEEDLE\n');
  return vol;
}

const CASES = Array.from({ length: 40 }, (_, i) => generate(9000 + i));

for (const engine of ['walker.ts', 'one-thread.ts'] as const) {
  describe(`content search names the links its patterns chose (${engine}, memfs)`, () => {
    beforeAll(() => Object.assign(ONE_THREAD, { enabled: engine === 'one-thread.ts', anyFs: engine === 'one-thread.ts' }));
    afterAll(() => Object.assign(ONE_THREAD, { enabled: true, anyFs: false }));

    it(`${CASES.length} generated trees x ${PATTERNS.length} patterns: every matching link not on the way is named, nothing else`, async () => {
      const failures: string[] = [];
      let named = 0;
      let onTheWay = 0;
      for (const [index, { tree, dirLinks }] of CASES.entries()) {
        for (const pattern of PATTERNS) {
          const fs = volumeOf(tree);
          const options = { root: '/root', pattern, fs, platform: 'posix' as const, hidden: true };
          const names = await findFiles(options);
          const content = await searchContent({ ...options, query: 'NEEDLE' });
          // Matching links the walk would have entered as directories are on the way; every other matching link is named.
          const expected = names.linkMatches.filter((rel) => !(dirLinks.has(rel) && content.linksOnTheWay.includes(rel)));
          const seen = `tree ${index}, ${JSON.stringify(pattern)}`;
          if (JSON.stringify(content.linkMatches) !== JSON.stringify(expected)) failures.push(`${seen}: named ${JSON.stringify(content.linkMatches)}, expected ${JSON.stringify(expected)}`);
          if (content.linkMatchedCount !== content.linkMatches.length) failures.push(`${seen}: linkMatchedCount ${content.linkMatchedCount}`);
          // Nothing is named twice, and the two lists together hold what the name search names.
          const both = new Set([...content.linkMatches, ...content.linksOnTheWay]);
          if (both.size !== content.linkMatches.length + content.linksOnTheWay.length) failures.push(`${seen}: a link named twice`);
          for (const rel of [...names.linkMatches, ...names.linksOnTheWay]) if (!both.has(rel)) failures.push(`${seen}: ${rel} named by the name search only`);
          if (!content.complete) failures.push(`${seen}: incomplete (${content.incompleteReasons.join()})`);
          named += content.linkMatches.length;
          onTheWay += content.linksOnTheWay.length;
        }
      }
      expect(failures.slice(0, 10)).toEqual([]);
      // The family holds both kinds in numbers: links named as unsearched files, and links on the way.
      expect(named).toBeGreaterThan(100);
      expect(onTheWay).toBeGreaterThan(50);
    });

    it('link.txt, a link to a file holding the text: complete, no hit, and the link named (not a hit, not on the way)', async () => {
      const fs = volumeOf({ 'link.txt': { link: '/outside/o.txt' }, 'a.txt': 'other\n' });
      const result = await searchContent({ root: '/root', pattern: 'link.txt', query: 'NEEDLE', fs, platform: 'posix' });
      expect(result).toMatchObject({ hitCount: 0, complete: true, linkMatches: ['link.txt'], linkMatchedCount: 1, linksOnTheWay: [], linksExamined: true });
    });
  });
}

describeIf(posix('symlinks need a privilege on Windows'), needsRg)('on the real disk: ripgrep, auto and the command', () => {
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'ff-link-matches-'));
    writeFileSync(join(root, 'real.txt'), 'hello\n');
    mkdirSync(join(root, 'd'));
    writeFileSync(join(root, 'd', 'x.txt'), 'other\n');
    symlinkSync('real.txt', join(root, 'link.txt'));
    symlinkSync('d', join(root, 'dl'));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('auto names link.txt after ripgrep found nothing; ripgrep alone names none and says it could not see them', async () => {
    const auto = await searchContent({ root, pattern: 'link.txt', query: 'hello', backend: 'auto', rgPath: realRg.path });
    expect(auto).toMatchObject({ backend: 'ripgrep', hitCount: 0, complete: true, linkMatches: ['link.txt'], linkMatchedCount: 1, linksExamined: true });
    const forced = await searchContent({ root, pattern: 'link.txt', query: 'hello', backend: 'ripgrep', rgPath: realRg.path });
    expect(forced).toMatchObject({ hitCount: 0, complete: true, linkMatches: [], linkMatchedCount: 0, linksExamined: false });
  });

  it('the command: the empty answer names the unsearched link in its headline; with a hit, on a line of its own', () => {
    for (const backend of ['auto', 'walker']) {
      const none = runFindFile(['--contains', 'hello', '--backend', backend, 'link.txt'], { cwd: root });
      expect(none.status).toBe(0);
      expect(none.stdout).toBe('');
      const headline = none.stderr.split('\n')[0]!;
      expect(headline).toMatch(/the text does not occur in them( \(among files not ignored\))?; 1 matching symlink was not searched \(links are never followed\): link\.txt($|;)/);
      const json = JSON.parse(runFindFile(['--contains', 'hello', '--backend', backend, '--json', 'link.txt'], { cwd: root }).stdout);
      expect(json).toMatchObject({ linkMatches: ['link.txt'], linkMatchedCount: 1 });
    }
    const found = runFindFile(['--contains', 'hello', '--backend', 'walker', '*.txt'], { cwd: root });
    expect(found.stdout).toBe('real.txt:1:1: hello\n');
    expect(found.stderr).toContain('\n  also 1 matching symlink was not searched (links are never followed): link.txt\n');
    const forced = runFindFile(['--contains', 'hello', '--backend', 'ripgrep', 'link.txt'], { cwd: root });
    expect(forced.stderr).toContain('symlinks and special files were not examined (ripgrep does not see them)');
  });
});

describeIf(posix('FIFOs and sockets are POSIX files'))('special files the patterns match: never opened, named', () => {
  let tree: SpecialTree;
  beforeAll(async () => {
    tree = await makeSpecialTree('ff-special-matches-');
  });
  afterAll(() => tree.remove());

  // `app.fifo`, `sub/deep.fifo`, `app.sock` beside `a.txt` and `sub/b.txt` (both holding needle).
  const CASES: [string | string[], string[]][] = [
    ['app.fifo', ['app.fifo']],
    ['*.fifo', ['app.fifo', 'sub/deep.fifo']],
    ['app.*', ['app.fifo', 'app.sock']],
    ['sub/*', ['sub/deep.fifo']],
    ['*.txt', []],
    ['*', ['app.fifo', 'app.sock', 'sub/deep.fifo']],
  ];

  it('each engine names every FIFO and socket its pattern matches, and only those; the hits are unchanged', async () => {
    for (const [pattern, named] of CASES) {
      for (const options of [{ backend: 'walker' as const }, { backend: 'walker' as const, timeBudgetMs: 60_000 }, { backend: 'auto' as const, rgPath: realRg.path }]) {
        const result = await searchContent({ root: tree.root, pattern, query: 'absent-text', ...options });
        expect(result, `${JSON.stringify(pattern)} ${JSON.stringify(options)}`).toMatchObject({ complete: true, hitCount: 0, specialMatches: named, specialMatchedCount: named.length });
      }
      const found = await searchContent({ root: tree.root, pattern, query: 'needle', backend: 'walker' });
      expect(found.specialMatches).toEqual(named);
    }
  });

  it('the command and the agent grep say so; ripgrep alone names none', async () => {
    const none = runFindFile(['--contains', 'needle', '--backend', 'walker', 'app.fifo'], { cwd: tree.root });
    expect(none.status).toBe(0);
    expect(none.stderr.split('\n')[0]).toMatch(/the text does not occur in them; 1 matching special file was not searched \(a FIFO, socket or device is never opened\): app\.fifo$/);
    const found = runFindFile(['--contains', 'needle', '--backend', 'walker', '*'], { cwd: tree.root });
    expect(found.stderr).toContain('\n  also 3 matching special files were not searched (a FIFO, socket or device is never opened): app.fifo, app.sock, sub/deep.fifo\n');
    const forced = await searchContent({ root: tree.root, pattern: 'app.fifo', query: 'needle', backend: 'ripgrep', rgPath: realRg.path });
    expect(forced).toMatchObject({ specialMatches: [], specialMatchedCount: 0, linksExamined: false });
    const grep = await grepTool({ query: 'needle', include: '*.fifo' }, { root: tree.root, backend: 'walker' });
    expect(grep.content).toContain('2 matching special files were not searched (a FIFO, socket or device is never opened): app.fifo, sub/deep.fifo.');
  });
});
