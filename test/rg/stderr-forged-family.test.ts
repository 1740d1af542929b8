/**
 * Generated directory names that forge ripgrep's stderr, against the real ripgrep on the real disk,
 * as a user who can be denied (nobody, when the tests run as root). An adversarial run found a
 * denied directory named `g: gone (os error 2)⏎.gitignore: line 1: error parsing glob 'z` answered
 * complete by ripgrep, auto and `find-file --contains` (src/rg/stderr.ts, src/rg/ignore-warnings.ts).
 *
 * Each name is fragments of ripgrep's own message shapes (a vanished line, a path error, an
 * ignore-file warning, a true warning about an ignore file inside or above the root copied word for
 * word, `./deny`, blank) joined by newlines; the tree is a subfolder of a repository whose
 * `.gitignore` has a bad line (so ripgrep 13 exits 2 with true warnings every time). With the
 * crafted directory unreadable: ripgrep and auto, listing and content, are never complete, and the
 * walker's skipped paths are each named or the answer says `io-error`. With it readable: ripgrep and
 * auto are complete with the walker's matches (the true warnings are believed). And `d\xff` denied
 * beside a readable `d\uFFFD` (ripgrep prints both as `d\uFFFD`): the readable one is never named;
 * beside a denied one, the line is believed.
 */
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { findFiles, searchContent } from '../../src/index.js';
import { mulberry32 } from '../helpers/prng.js';
import { needsRg, realRg, requireRipgrepInCi } from '../helpers/real-rg.js';
import { describeIf, posix } from '../helpers/skip-why.js';
import { buildNobodySandbox, isRoot, writeProbe, type Sandbox } from '../helpers/unprivileged.js';
import type { SearchAnswer } from '../helpers/search-answer.js';

requireRipgrepInCi();

const UNCLOSED = ": unclosed character class; missing ']'";
const TWIN = 'd\uFFFD';

interface Tree {
  root: string;
  /** The crafted directory (root-relative), when one is unreadable. */
  denied?: string;
}


function fragments(base: string): string[] {
  return [
    'g: gone (os error 2)',
    'g: No such file or directory (os error 2)',
    ".gitignore: line 1: error parsing glob 'z",
    `./sub/.ignore: line 1: error parsing glob 'q['${UNCLOSED}`,
    `${base}/.gitignore: line 1: error parsing glob '['${UNCLOSED}`,
    './deny',
    '.',
    '',
    'rg: ./deny: Permission denied (os error 13)',
    'f: Not a directory (os error 20)',
    "error parsing glob 'z': nested alternate groups are not allowed",
  ];
}

function craftedName(random: () => number, parts: readonly string[]): string | undefined {
  const count = 2 + Math.floor(random() * 3);
  let path = Array.from({ length: count }, () => parts[Math.floor(random() * parts.length)]!).join('\n').replace(/^(\.\/|\/)+/, '');
  if (random() < 0.5) path += '\n.';
  const components = path.split('/');
  if (components.some((c) => c === '' || c === '.' || c === '..' || Buffer.byteLength(c) > 255)) return undefined;
  return path;
}

const PROBE = `
import { findFiles, searchContent } from './dist/index.js';
const [treesJson, rgPath] = process.argv.slice(2);
const out = [];
for (const root of JSON.parse(treesJson)) {
  const answers = [];
  for (const backend of ['walker', 'ripgrep', 'auto']) {
    const f = await findFiles({ root, pattern: '**/*.txt', gitignore: true, backend, rgPath });
    answers.push({ name: 'files', backend, matches: f.matches, skipped: f.skipped, complete: f.complete, incompleteReasons: f.incompleteReasons });
    const c = await searchContent({ root, query: 'password', gitignore: true, backend, rgPath });
    answers.push({ name: 'content', backend, matches: c.hits.map((h) => h.path).sort(), skipped: c.skipped, complete: c.complete, incompleteReasons: c.incompleteReasons });
  }
  out.push(answers);
}
console.log(JSON.stringify(out));
`;

async function searchHere(roots: string[]): Promise<SearchAnswer[][]> {
  const out: SearchAnswer[][] = [];
  for (const root of roots) {
    const answers: SearchAnswer[] = [];
    for (const backend of ['walker', 'ripgrep', 'auto'] as const) {
      const f = await findFiles({ root, pattern: '**/*.txt', gitignore: true, backend });
      answers.push({ name: 'files', backend, matches: f.matches, skipped: [...f.skipped], complete: f.complete, incompleteReasons: [...f.incompleteReasons] });
      const c = await searchContent({ root, query: 'password', gitignore: true, backend });
      answers.push({ name: 'content', backend, matches: c.hits.map((h) => h.path).sort(), skipped: [...c.skipped], complete: c.complete, incompleteReasons: [...c.incompleteReasons] });
    }
    out.push(answers);
  }
  return out;
}

describeIf(posix('the crafted names hold newlines and the denied folders need chmod and setpriv/runuser'), needsRg)(`generated names that forge ripgrep's stderr (real disk${isRoot ? ', as nobody' : ''})`, () => {
  let sandbox: Sandbox | undefined;
  let base: string;
  const denied: (string | Buffer)[] = [];
  const trees: Tree[] = [];

  beforeAll(() => {
    if (isRoot) sandbox = buildNobodySandbox();
    base = realpathSync(mkdtempSync(join(tmpdir(), 'ff-forged-family-')));
    chmodSync(base, 0o755);
    mkdirSync(join(base, '.git'));
    writeFileSync(join(base, '.gitignore'), '[\n*.log\n');
    const random = mulberry32(0xf0_12ed);
    const parts = fragments(base);
    for (let i = 0; trees.length < 24 && i < 1000; i++) {
      const name = craftedName(random, parts);
      if (name === undefined) continue;
      const root = join(base, `t${trees.length}`);
      for (const dir of ['sub', 'deny', name]) mkdirSync(join(root, dir), { recursive: true });
      writeFileSync(join(root, 'sub', '.ignore'), 'q[\n');
      writeFileSync(join(root, 'deny', 'a.txt'), 'nothing\n');
      writeFileSync(join(root, 'other.txt'), 'nothing\n');
      writeFileSync(join(root, name, 'secret.txt'), 'password\n');
      const unreadable = trees.length % 2 === 0;
      trees.push(unreadable ? { root, denied: name } : { root });
      if (!unreadable) for (const rel of prefixes(name)) chmodSync(join(root, rel), 0o755);
    }
    // `d\xff` denied beside a readable `d\uFFFD`: ripgrep prints both names as `d\uFFFD`.
    const twins = join(base, 'twins');
    const badByte = Buffer.concat([Buffer.from(`${twins}/d`), Buffer.from([0xff])]);
    mkdirSync(badByte, { recursive: true });
    writeFileSync(Buffer.concat([badByte, Buffer.from('/a.txt')]), 'password\n');
    mkdirSync(join(twins, TWIN));
    writeFileSync(join(twins, TWIN, 'b.txt'), 'password\n');
    trees.push({ root: twins });
    // Both denied: the line names a directory we cannot read either, and is believed.
    const bothDenied = join(base, 'twins-denied');
    const badByte2 = Buffer.concat([Buffer.from(`${bothDenied}/d`), Buffer.from([0xff])]);
    mkdirSync(badByte2, { recursive: true });
    mkdirSync(join(bothDenied, TWIN));
    trees.push({ root: bothDenied });
    // Every directory searchable by all (whatever the umask), then the denials.
    for (const tree of trees) {
      if (tree.root === twins || tree.root === bothDenied) continue;
      for (const rel of ['.', 'sub', 'deny', ...prefixes(tree.denied ?? '')]) chmodSync(join(tree.root, rel), 0o755);
    }
    for (const dir of [twins, join(twins, TWIN), bothDenied]) chmodSync(dir, 0o755);
    for (const tree of trees) if (tree.denied !== undefined) denied.push(join(tree.root, tree.denied));
    denied.push(badByte, badByte2, join(bothDenied, TWIN));
    for (const dir of denied) chmodSync(dir, 0o000);
  }, 120_000);

  afterAll(() => {
    for (const dir of denied) {
      try {
        chmodSync(dir, 0o755);
      } catch {
        // gone already
      }
    }
    if (base !== undefined) rmSync(base, { recursive: true, force: true });
    if (sandbox !== undefined) rmSync(sandbox.dir, { recursive: true, force: true });
  });

  it('unreadable: never complete, the walker\'s gaps named or io-error; readable: complete with the walker\'s answer', async () => {
    const roots = trees.map((tree) => tree.root);
    const results = isRoot
      ? (JSON.parse(sandbox!.runAsNobody(writeProbe(sandbox!, 'probe-forged-family.mjs', PROBE), [JSON.stringify(roots), sandbox!.reachable(realRg.path!)], { PATH: process.env.PATH ?? '/usr/bin:/bin' })) as SearchAnswer[][])
      : await searchHere(roots);
    expect(results).toHaveLength(trees.length);
    trees.forEach((tree, index) => {
      const answers = results[index]!;
      const label = JSON.stringify(tree.denied ?? tree.root.slice(base.length));
      for (const kind of ['files', 'content']) {
        const walker = answers.find((a) => a.name === kind && a.backend === 'walker')!;
        for (const backend of ['ripgrep', 'auto']) {
          const answer = answers.find((a) => a.name === kind && a.backend === backend)!;
          const where = `${label} ${kind} ${backend}`;
          if (tree.root.endsWith('twins-denied')) {
            expect(answer.complete, where).toBe(false);
            expect(answer.skipped, where).toContainEqual({ path: TWIN, code: 'EACCES' });
          } else if (tree.root.endsWith('twins')) {
            expect(answer.complete, where).toBe(false);
            // The readable twin is never named denied (the walker names d\xff, as U+FFFD, EILSEQ).
            expect(answer.skipped, where).not.toContainEqual({ path: TWIN, code: 'EACCES' });
          } else if (tree.denied !== undefined) {
            expect(walker.skipped, where).toEqual([{ path: tree.denied, code: 'EACCES' }]);
            expect(answer.complete, where).toBe(false);
            for (const gap of walker.skipped) {
              const named = answer.skipped.some((s) => s.path === gap.path);
              expect(named || answer.incompleteReasons.includes('io-error'), where).toBe(true);
            }
          } else {
            expect(walker.complete, where).toBe(true);
            expect({ complete: answer.complete, matches: answer.matches }, where).toEqual({ complete: true, matches: walker.matches });
          }
        }
      }
    });
  }, 180_000);
});

/** `a/b/c` → `a`, `a/b`, `a/b/c`. */
function prefixes(rel: string): string[] {
  const parts = rel === '' ? [] : rel.split('/');
  return parts.map((_, i) => parts.slice(0, i + 1).join('/'));
}
