/**
 * Links on the way (issue 27): a symlink the walk would have entered had it been a directory is
 * never followed, so what lies below it was not searched. The result names it (`linksOnTheWay`),
 * so a complete empty answer is never read as "no such file by that path". memfs and a fake
 * clock; every case through the promise, sync and stream flavours, which must agree.
 */
import { describe, expect, it } from 'vitest';
import { MAX_LINK_MATCHES, findFiles, type FindOptions } from '../../src/index.js';
import { FakeClock, asFs, buildVolume, faultyFs, type FaultOptions, type Tree } from '../helpers/memfs.js';
import { findAll } from '../helpers/every-form.js';

const ROOT = '/root';

function over(tree: Tree, options: Partial<FindOptions> = {}, faults: FaultOptions = {}) {
  const vol = buildVolume(tree);
  return () => ({ root: ROOT, platform: 'posix', pattern: '*', fs: faultyFs(asFs(vol), faults), clock: new FakeClock(), ...options }) as FindOptions;
}

const linked: Tree = {
  real: { 'a.ts': '' },
  'linked-src': { link: `${ROOT}/real` },
  'file-link': { link: `${ROOT}/real/a.ts` },
  dangling: { link: '/nowhere' },
};

describe('links on the way', () => {
  it('names the link the pattern would have descended into; complete stays true (the linked-src case)', async () => {
    for (const pattern of ['linked-src/*.ts', 'linked-src/a.ts', 'linked-src/**']) {
      const result = await findAll(over(linked, { pattern }));
      expect(result).toMatchObject({ matches: [], matchedCount: 0, linksOnTheWay: ['linked-src'], linkOnTheWayCount: 1, linksExamined: true, complete: true, incompleteReasons: [] });
    }
  });

  it('stats only the links the partial test lets through, and names only those whose target is a directory', async () => {
    const make = over(linked, { pattern: '*/a.ts' });
    const result = await findAll(make);
    // file-link and dangling pass the partial test too, but lead to no directory.
    expect(result).toMatchObject({ matches: ['real/a.ts'], linksOnTheWay: ['linked-src'], linkOnTheWayCount: 1 });
    const options = make();
    await findFiles(options);
    const stats = (options.fs as ReturnType<typeof faultyFs>).calls.filter((c) => c.call === 'stat').map((c) => c.path);
    expect(stats.sort()).toEqual([`${ROOT}/dangling`, `${ROOT}/file-link`, `${ROOT}/linked-src`]);

    // A pattern that cannot lead into any link: nothing named, nothing stat'ed.
    const pruned = over(linked, { pattern: 'real/*.ts' });
    expect(await findAll(pruned)).toMatchObject({ matches: ['real/a.ts'], linksOnTheWay: [], linkOnTheWayCount: 0 });
    const prunedOptions = pruned();
    await findFiles(prunedOptions);
    expect((prunedOptions.fs as ReturnType<typeof faultyFs>).calls.filter((c) => c.call === 'stat')).toEqual([]);
  });

  it("pnpm's node_modules/<pkg> links: node_modules/react/**/*.js names node_modules/react", async () => {
    const pnpm: Tree = {
      node_modules: {
        '.pnpm': { 'react@18.2.0': { node_modules: { react: { 'index.js': '', cjs: { 'react.js': '' } } } } },
        react: { link: `${ROOT}/node_modules/.pnpm/react@18.2.0/node_modules/react` },
        vue: { link: `${ROOT}/node_modules/.pnpm/react@18.2.0/node_modules/react` },
      },
    };
    for (const hidden of [true, false]) {
      const result = await findAll(over(pnpm, { pattern: 'node_modules/react/**/*.js', hidden }));
      expect(result).toMatchObject({ matches: [], linksOnTheWay: ['node_modules/react'], linkOnTheWayCount: 1, complete: true });
    }
  });

  it('a stat error that may hide a directory names the link; dangling, loops and files do not', async () => {
    const tree: Tree = { a: { link: `${ROOT}/x` }, b: { link: `${ROOT}/y` }, c: { link: `${ROOT}/c` } };
    const result = await findAll(over(tree, { pattern: '*/f.ts' }, { stat: { [`${ROOT}/a`]: 'EACCES', [`${ROOT}/b`]: 'ENOENT', [`${ROOT}/c`]: 'ELOOP' } }));
    expect(result).toMatchObject({ linksOnTheWay: ['a'], linkOnTheWayCount: 1, complete: true, skipped: [] });
    // A name holding U+FFFD may not open by its string: its ENOENT proves nothing, so it is named.
    const odd: Tree = { 'l\uFFFD': { link: `${ROOT}/x` } };
    expect(await findAll(over(odd, { pattern: '*/f.ts' }, { stat: { [`${ROOT}/l\uFFFD`]: 'ENOENT' } }))).toMatchObject({ linksOnTheWay: ['l\uFFFD'] });
  });

  it('without stat (an injected fs) or without types from readdir, every link on the way is named unchecked', async () => {
    for (const faults of [{ noStat: true }, { untyped: true }]) {
      const result = await findAll(over(linked, { pattern: '*/a.ts' }, faults));
      expect(result).toMatchObject({ matches: ['real/a.ts'], linksOnTheWay: ['dangling', 'file-link', 'linked-src'], linkOnTheWayCount: 3 });
    }
  });

  it('an excluded, ignored-by-hidden or depth-limited link is not on the way', async () => {
    expect(await findAll(over(linked, { pattern: 'linked-src/*.ts', exclude: ['linked-src/'] }))).toMatchObject({ linksOnTheWay: [], linkOnTheWayCount: 0, symlinkSkipped: 3 });
    const hiddenTree: Tree = { real: { 'a.ts': '' }, '.linked': { link: `${ROOT}/real` } };
    expect(await findAll(over(hiddenTree, { pattern: '.linked/a.ts', hidden: false }))).toMatchObject({ linksOnTheWay: [], linkOnTheWayCount: 0 });
    // maxDepth 1: a directory at depth 1 is only peeked at, so a link there leads past the limit, not on the way.
    expect(await findAll(over(linked, { pattern: 'linked-src/a.ts', maxDepth: 1 }))).toMatchObject({ linksOnTheWay: [] });
    expect(await findAll(over(linked, { pattern: 'linked-src/a.ts', maxDepth: 2 }))).toMatchObject({ linksOnTheWay: ['linked-src'] });
  });

  it('a link returned as a match (type lists links) is not named again', async () => {
    const result = await findAll(over(linked, { pattern: 'linked-src', type: 'any' }));
    expect(result).toMatchObject({ matches: ['linked-src'], linksOnTheWay: [], linkOnTheWayCount: 0 });
  });

  it('native absolute paths with absolute: true; capped at MAX_LINK_MATCHES, counted past it', async () => {
    expect((await findAll(over(linked, { pattern: 'linked-src/*.ts', absolute: true }))).linksOnTheWay).toEqual([`${ROOT}/linked-src`]);
    const many: Tree = { real: {} };
    for (let i = 0; i < MAX_LINK_MATCHES + 3; i++) many[`l${i}`] = { link: `${ROOT}/real` };
    const result = await findFiles(over(many, { pattern: '*/x.ts' })());
    expect(result.linksOnTheWay).toHaveLength(MAX_LINK_MATCHES);
    expect(result.linkOnTheWayCount).toBe(MAX_LINK_MATCHES + 3);
  });
});
