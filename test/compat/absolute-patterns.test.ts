/**
 * Patterns that start outside cwd, as hosts write them (`glob(path.join(dir, '**' + '/*.js'))`,
 * tinyglobby's `convertPathToPattern(root) + '/**'`, `../x/*.js`), through both adapters against the
 * real peers: generated trees (directories, dot directories, links of each kind) and generated
 * patterns made absolute, alone, in pairs and with ignores. The one difference allowed is the link
 * policy (docs/compat.md): what the peers found below a link is named in the verdict instead. And
 * a start that does not exist is an empty, complete answer (its parent's listing proves it), never
 * an error.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import * as ng from 'glob';
import * as tg from 'tinyglobby';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as ffGlob from '../../src/compat/glob.js';
import * as ffTiny from '../../src/compat/tinyglobby.js';
import { Rng } from '../conformance/generate.js';
import { drawLinkedTree, sorted } from './tree.js';
import { itIf, posix } from '../helpers/skip-why.js';

const TREES = 5;
const PATTERNS_PER_TREE = 40;
let base: string;
let elsewhere: string;
const trees: { root: string; links: string[]; patterns: string[] }[] = [];

const DIRS = ['a', 'b', 'src', 'lib', '.hid', 'x y'];
const FILES = ['a.js', 'b.ts', 'ab.js', 'x.md', '.rc'];
const SEGMENTS = ['*', '**', '?', 'a*', '*.js', '{a,b}*', '[ab]*', 'src', 'lib', 'a', '*.{js,ts}', 'x y'];

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'ff-abs-'));
  elsewhere = join(base, 'elsewhere');
  mkdirSync(elsewhere);
  const rng = new Rng(0x616273);
  for (let t = 0; t < TREES; t++) {
    // A name with glob magic on the way: the literal start must be read literally.
    const root = join(base, t % 2 === 0 ? `t${t}` : `t${t} [x] (y)`);
    mkdirSync(root);
    const links = drawLinkedTree(rng, root, { dirs: DIRS, files: FILES, rounds: 7 });
    const patterns = Array.from({ length: PATTERNS_PER_TREE }, () => Array.from({ length: rng.range(1, 3) }, () => rng.pick(SEGMENTS)).join('/'));
    trees.push({ root, links, patterns });
  }
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

const escapeGlob = (dir: string) => ng.escape(dir);
const escapeTiny = (dir: string) => tg.escapePath(dir);

/**
 * What an ignore of `**` + `/lib/**` leaves of a peer's answer: every path with a `lib` segment below
 * the tree's root goes. find-file applies such an ignore to the whole search; the peers apply a
 * relative ignore to paths outside cwd in some layouts only (node-glob from an unrelated cwd, not
 * from a sibling; tinyglobby likewise): docs/compat.md.
 */
function withoutLib(paths: string[], treeName: string, options: { ignore?: unknown }): string[] {
  if (options.ignore === undefined) return paths;
  return paths.filter((p) => !/(^|\/)lib(\/|$)/.test(p.slice(p.indexOf(`${treeName}/`) + treeName.length + 1)));
}

/** Fails where ours lacks a path the peer returned that is not below a link, or returns one the peer did not. */
function compare(label: string, theirs: string[], ours: string[], belowLink: (p: string) => boolean, failures: string[]): void {
  const missing = theirs.filter((p) => !ours.includes(p) && !belowLink(p));
  const extra = ours.filter((p) => !theirs.includes(p));
  if (missing.length > 0 || extra.length > 0) failures.push(`${label}: missing ${JSON.stringify(missing)}, extra ${JSON.stringify(extra)}`);
}

describe('find-file/glob: absolute patterns, as node-glob answers them', () => {
  const OPTIONS: ng.GlobOptions[] = [{}, { nodir: true }, { mark: true }, { dot: true }, { ignore: '**/lib/**' }];
  for (const options of OPTIONS) {
    itIf(posix('the generated names hold characters a Windows name cannot'))(`${TREES} trees x ${PATTERNS_PER_TREE} patterns made absolute, ${JSON.stringify(options)}`, async () => {
      const failures: string[] = [];
      let answered = 0;
      for (const { root, links, patterns } of trees) {
        const belowLink = (p: string) => links.some((l) => p.startsWith(`${root}/${l}/`));
        for (let i = 0; i < patterns.length; i++) {
          const list = i % 5 === 0 ? [`${escapeGlob(root)}/${patterns[i]}`, `${escapeGlob(root)}/${patterns[(i + 1) % patterns.length]}`] : `${escapeGlob(root)}/${patterns[i]}`;
          const full = { ...options, cwd: elsewhere };
          const theirs = withoutLib((await ng.glob(list, full)) as string[], root.slice(base.length + 1), options);
          const ours = await ffGlob.glob(list, full as ffGlob.GlobOptionsWithFileTypesFalse);
          compare(`${JSON.stringify(list)} ${JSON.stringify(options)}`, theirs, ours, belowLink, failures);
          if (theirs.some(belowLink) && ours.result.linksOnTheWay.length === 0) failures.push(`${JSON.stringify(list)}: below a link, and no link named`);
          if (theirs.length > 0) answered++;
        }
      }
      expect(failures.slice(0, 10)).toEqual([]);
      expect(answered).toBeGreaterThan(TREES * PATTERNS_PER_TREE * 0.3);
    });
  }

  it('an ignore written from cwd, absolute, or from above the start with **', async () => {
    const { root } = trees[0]!;
    const pattern = `${escapeGlob(root)}/**/*.js`;
    for (const ignore of [`${escapeGlob(root)}/a/**`, `${escapeGlob(dirname(root))}/**/lib/**`, 'nowhere/**']) {
      expect(ffGlob.globSync(pattern, { cwd: elsewhere, ignore }).slice().sort(), ignore).toEqual(((await ng.glob(pattern, { cwd: elsewhere, ignore })) as string[]).filter((p) => !p.includes('/ldir/')).sort());
    }
  });

  it('an ignore that covers the start folder leaves it out, as node-glob; one written in another case meets it under nocase', async () => {
    const { root } = trees[0]!;
    const dir = join(root, 'a');
    mkdirSync(join(dir, 'lib'), { recursive: true });
    writeFileSync(join(dir, 'lib', 'x.js'), '');
    for (const ignore of [`${dirname(root)}/**`, `${dir}/**`]) {
      expect([...(await ffGlob.glob(`${dir}/**`, { cwd: elsewhere, ignore }))], ignore).toEqual(await ng.glob(`${dir}/**`, { cwd: elsewhere, ignore }));
    }
    const upper = `${dir.toUpperCase()}/LIB/**`;
    const theirs = ((await ng.glob(`${dir}/**`, { cwd: elsewhere, nocase: true, ignore: upper })) as string[]).filter((p) => !p.includes('/ldir'));
    expect(sorted([...(await ffGlob.glob(`${dir}/**`, { cwd: elsewhere, nocase: true, ignore: upper }))])).toEqual(sorted(theirs));
    expect(theirs.some((p) => p.includes('/lib'))).toBe(false);
  });

  it('refuses what one search cannot answer as node-glob does, by name', () => {
    const { root } = trees[0]!;
    expect(() => ffGlob.globSync([`${root}/*.js`, '*.js'], { cwd: elsewhere })).toThrow(expect.objectContaining({ code: 'FF_INVALID_PATTERN' }));
    expect(() => ffGlob.globSync(`${root}/*.js`, { cwd: elsewhere, withFileTypes: true })).toThrow(expect.objectContaining({ code: 'FF_INVALID_OPTION', option: 'withFileTypes' }));
    expect(() => ffGlob.globSync(`${root}/*.js`, { cwd: elsewhere, absolute: false })).toThrow(expect.objectContaining({ code: 'FF_INVALID_OPTION', option: 'absolute' }));
    expect(() => ffGlob.globSync(`${root}/a/*.js`, { cwd: elsewhere, ignore: `${dirname(root)}/*/a/b.js` })).toThrow(expect.objectContaining({ code: 'FF_INVALID_PATTERN', option: 'ignore' }));
    // node-glob counts maxDepth from cwd (here unrelated), tinyglobby deep from the folder it picks.
    expect(() => ffGlob.globSync(`${root}/**/*.js`, { cwd: elsewhere, maxDepth: 1 })).toThrow(expect.objectContaining({ code: 'FF_INVALID_OPTION', option: 'maxDepth' }));
    expect(() => ffTiny.globSync(`${root}/**/*.js`, { cwd: elsewhere, deep: 1 })).toThrow(expect.objectContaining({ code: 'FF_INVALID_OPTION', option: 'deep' }));
  });
});

describe('find-file/tinyglobby: absolute and `..` patterns, as tinyglobby answers them', () => {
  const OPTIONS: ffTiny.GlobOptions[] = [{}, { absolute: true }, { onlyFiles: false }, { ignore: ['**/lib/**'] }];
  for (const options of OPTIONS) {
    itIf(posix('the generated names hold characters a Windows name cannot'))(`${TREES} trees x ${PATTERNS_PER_TREE} patterns made absolute, and from a sibling with ../, ${JSON.stringify(options)}`, async () => {
      const failures: string[] = [];
      let answered = 0;
      for (const { root, links, patterns } of trees) {
        const name = root.slice(base.length + 1);
        const belowLink = (p: string) => links.some((l) => p.includes(`${name}/${l}/`) || p.endsWith(`${name}/${l}`));
        for (let i = 0; i < patterns.length; i++) {
          const pattern = i % 2 === 0 ? `${escapeTiny(root)}/${patterns[i]}` : `../${escapeTiny(name)}/${patterns[i]}`;
          const full = { ...options, cwd: elsewhere };
          const theirs = withoutLib(await tg.glob(pattern, full), name, options);
          const ours = await ffTiny.glob(pattern, full);
          compare(`${JSON.stringify(pattern)} ${JSON.stringify(options)}`, theirs, ours, belowLink, failures);
          if (theirs.length > 0) answered++;
        }
      }
      expect(failures.slice(0, 10)).toEqual([]);
      expect(answered).toBeGreaterThan(TREES * PATTERNS_PER_TREE * 0.3);
    });
  }
});

describe('names on the way from the searched directory are read literally', () => {
  // A relative pattern beside an absolute one: the search starts above cwd, and cwd's own names
  // (here holding glob magic) become part of the pattern, escaped; read as magic they matched nothing.
  itIf(posix('a Windows name cannot hold * or ?'))('tinyglobby: cwd `c?* [x]` beside an absolute pattern elsewhere', async () => {
    const cwd = join(base, 'c?* [x]');
    const other = join(base, 'other {1,2}');
    for (const [dir, file] of [[cwd, 'a.js'], [other, 'b.js'], [join(base, 'cab x'), 'a.js']] as const) {
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, file), '');
    }
    const patterns = ['a.js', `${escapeTiny(other)}/b.js`];
    expect(sorted([...(await ffTiny.glob(patterns, { cwd }))])).toEqual(['../other {1,2}/b.js', 'a.js']);
    expect(sorted([...ffTiny.globSync(patterns, { cwd, absolute: true })])).toEqual([join(other, 'b.js'), join(cwd, 'a.js')].sort());
  });
});

describe('ignores that start outside cwd, beside relative patterns', () => {
  // `ignore: path.join(root, 'node_modules/**')` was refused (FF_PATTERN_OUTSIDE_ROOT): node-glob and
  // tinyglobby read an absolute ignore, and tinyglobby one climbing with `..`.
  it('absolute and ../ ignores, through both adapters against the peers', async () => {
    const { root } = trees[2]!;
    const name = root.slice(base.length + 1);
    const notBelowLinks = (paths: string[]) => paths.filter((p) => !/(^|\/)ldir\//.test(p));
    for (const ignore of [`${escapeGlob(root)}/a/**`, `${escapeGlob(root)}/**/lib/**`, `${escapeGlob(base)}/**`, `${escapeGlob(dirname(base))}/elsewhere-not-here/**`]) {
      expect(sorted([...(await ffGlob.glob('**/*.js', { cwd: root, ignore }))]), ignore).toEqual(sorted(notBelowLinks((await ng.glob('**/*.js', { cwd: root, ignore })) as string[])));
    }
    for (const ignore of [`${escapeTiny(root)}/a/**`, `../${escapeTiny(name)}/src/**`, '../nowhere/**']) {
      expect(sorted([...(await ffTiny.glob('**/*.js', { cwd: root, ignore: [ignore] }))]), ignore).toEqual(sorted(notBelowLinks(await tg.glob('**/*.js', { cwd: root, ignore: [ignore] }))));
    }
  });
});

describe('the second adversarial pass over these shapes', () => {
  itIf(posix('a Windows name cannot hold `\\`'))('tinyglobby: a `\\` in a name found from above cwd comes back as itself, never as a `/`', async () => {
    const top = join(base, 'bs');
    for (const file of ['a\\b/f.js', 'plain/f.js', 'cwd/x']) {
      mkdirSync(dirname(join(top, file)), { recursive: true });
      writeFileSync(join(top, file), '');
    }
    const cwd = join(top, 'cwd');
    for (const pattern of ['../*/f.js', `${escapeTiny(top)}/*/f.js`]) {
      expect(sorted([...(await ffTiny.glob(pattern, { cwd }))]), pattern).toEqual(sorted(await tg.glob(pattern, { cwd })));
    }
    expect(await ffTiny.glob('../*/f.js', { cwd })).toContain('../a\\b/f.js');
  });

  it('tinyglobby: cwd itself is never an answer from a search above it (it came back as `/`, the file system\'s root)', async () => {
    const top = join(base, 'cwdslash');
    mkdirSync(join(top, 'src'), { recursive: true });
    mkdirSync(join(top, 'a'), { recursive: true });
    const cwd = join(top, 'src');
    for (const [pattern, options] of [['../*', { onlyDirectories: true }], ['../s*', { onlyFiles: false, expandDirectories: false }], ['../*', { onlyDirectories: true, absolute: true }]] as const) {
      const ours = [...(await ffTiny.glob(pattern, { cwd, ...options }))];
      expect(ours).not.toContain('/');
      expect(sorted(ours), `${pattern} ${JSON.stringify(options)}`).toEqual(sorted(await tg.glob(pattern, { cwd, ...options })));
    }
  });

  it('an ignore from above the start with ** takes off the names the start holds; one naming the start leaves out the start only', async () => {
    const top = join(base, 'above');
    for (const file of ['plain/sub/g.js', 'plain/sub/deep/h.ts']) {
      mkdirSync(dirname(join(top, file)), { recursive: true });
      writeFileSync(join(top, file), '');
    }
    const pattern = `${escapeGlob(top)}/plain/sub/**`;
    for (const ignore of [`${escapeGlob(top)}/**/plain/sub/deep/**`, '/**/sub/**', `${escapeGlob(dirname(top))}/**/plain/**`, `${escapeGlob(top)}/plain/sub`]) {
      expect(sorted([...(await ffGlob.glob(pattern, { cwd: elsewhere, ignore }))]), ignore).toEqual(sorted((await ng.glob(pattern, { cwd: elsewhere, ignore })) as string[]));
    }
  });
});

describe('a literal start ending in `/` names that folder, from its parent', () => {
  // As the start, the folder had become the search's root, which is never a match: `../real/`
  // answered [] (complete) where tinyglobby returns `../real/` (the adversarial pass).
  it('tinyglobby and node-glob, against the peers: existing, missing, and a file named as a folder', async () => {
    const top = join(base, 'slash');
    for (const file of ['real/r.js', 'top.js', 'src/lib/deep/x.js']) {
      mkdirSync(dirname(join(top, file)), { recursive: true });
      writeFileSync(join(top, file), '');
    }
    const cwd = join(top, 'src');
    const tiny: [string, ffTiny.GlobOptions][] = [
      ['../real/', { onlyDirectories: true }],
      ['../real/', { onlyFiles: false, expandDirectories: false }],
      ['../real/', {}],
      [`${escapeTiny(top)}/real/`, { onlyDirectories: true }],
      [`${escapeTiny(cwd)}/lib/`, { onlyDirectories: true }],
      ['../nope/', { expandDirectories: false }],
      [`${escapeTiny(top)}/nope/`, { expandDirectories: false }],
      [`${escapeTiny(top)}/top.js/`, { expandDirectories: false }],
    ];
    for (const [pattern, options] of tiny) {
      const ours = await ffTiny.glob(pattern, { cwd, ...options });
      expect(sorted([...ours]), `${pattern} ${JSON.stringify(options)}`).toEqual(sorted(await tg.glob(pattern, { cwd, ...options })));
      expect(ours.result.complete).toBe(true);
    }
    for (const pattern of [`${escapeGlob(top)}/real/`, `${escapeGlob(top)}/nope/`, `${escapeGlob(top)}/top.js/`]) {
      expect(sorted([...(await ffGlob.glob(pattern, { cwd }))]), pattern).toEqual(sorted((await ng.glob(pattern, { cwd })) as string[]));
    }
    expect(await ffTiny.glob('../real/', { cwd, onlyDirectories: true })).toEqual(['../real/']);
  });
});

describe('a start that does not exist', () => {
  it('is an empty, complete answer in every form of both adapters (the parent\'s listing proves it), as the peers answer []', async () => {
    const { root } = trees[0]!;
    // The last: 1,500 missing names (a few searches, climbing 1, 2, 4... levels, not one per name).
    const deep = `${root}/${Array.from({ length: 1500 }, () => 'x').join('/')}/*.js`;
    for (const pattern of [`${root}/nothere/**/*.js`, `${root}/nothere/deeper/*`, `${root}/a.js/below/*`, deep]) {
      expect(await ng.glob(pattern)).toEqual([]);
      const answers = [await ffGlob.glob(pattern), ffGlob.globSync(pattern), await ffTiny.glob(pattern), ffTiny.globSync(pattern)];
      for (const answer of answers) expect({ paths: [...answer], complete: answer.result.complete }).toEqual({ paths: [], complete: true });
      const iterator = ffGlob.globIterate(pattern);
      const items: string[] = [];
      for await (const item of iterator) items.push(item);
      expect(items).toEqual([]);
      expect((await iterator.result).complete).toBe(true);
    }
  });
});
