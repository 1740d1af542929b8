/**
 * A model's `path` with `..` after a symbolic link: a POSIX kernel reads `link/..` as the parent of
 * the link's target, elsewhere than the name says; reading it by name searched the link's own
 * folder and could answer "does not exist" about what is there (the library's root had the same
 * fault: test/contract/root-dotdot.test.ts). The agent lstats each component a `..` climbs out of,
 * as it lstats the others, and refuses a link as a link; a `..` after a plain folder stays as it was.
 */
import { describe, expect, it } from 'vitest';
import { globTool, grepTool, type GrepMetadata } from '../../src/agent/index.js';
import { workspace } from '../helpers/agent.js';

const tree = {
  real: { sub: { 'in-sub.txt': 'NEEDLE\n' }, 'target.txt': 'NEEDLE\n' },
  view: { lnk: { link: '../real/sub' }, plain: { 'p.txt': 'NEEDLE\n' }, 'v.txt': 'NEEDLE\n' },
};

describe('`..` after a link in the model\'s path', () => {
  // Relative, and absolute (read by name to find its workspace, then checked the same way).
  for (const path of ['view/lnk/..', 'view/lnk/../', 'view/lnk/../v.txt', 'view/plain/../lnk/..', 'view\\lnk\\..', '/w/view/lnk/..', '/w/view/lnk/../v.txt', '/w/view/plain/../lnk/../real']) {
    it(`${JSON.stringify(path)}: refused as the link it goes through, by glob and by grep`, async () => {
      const ctx = workspace(tree);
      for (const answer of [await globTool({ pattern: '*', path }, ctx), await grepTool({ query: 'NEEDLE', path }, ctx)]) {
        expect(answer.content.split('\n')[0]).toMatch(/^Refused: path ".*" goes through the symbolic link "view\/lnk"/);
      }
    });
  }

  it('after a plain folder, `..` is read as before: view/plain/.. is view', async () => {
    const ctx = workspace(tree);
    const answer = await grepTool({ query: 'NEEDLE', path: 'view/plain/..' }, ctx);
    expect(answer.isError, answer.content).toBeFalsy();
    expect((answer.metadata as GrepMetadata).hits.map((h) => h.path).sort()).toEqual(['view/plain/p.txt', 'view/v.txt']);
  });
});
