/**
 * Issue 27, links on the way, on the real disk through every form (walker promise, sync, stream,
 * ripgrep, auto): a symlinked directory the pattern would have descended into is named in
 * `linksOnTheWay` by every form that sees links; ripgrep (`rg --files` lists no links) says it did
 * not look (`linksExamined: false`), and `auto`, whose ripgrep answer was empty, lets the walker
 * answer (`links-unexamined`), so the link is named there too.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { searchForms } from '../helpers/forms.js';
import { describeIf, posix } from '../helpers/skip-why.js';
import { needsRg, realRg, requireRipgrepInCi } from '../helpers/real-rg.js';

requireRipgrepInCi();

const FILES = ['real/a.ts', 'src/b.ts', 'node_modules/.pnpm/react@18.2.0/node_modules/react/index.js', 'node_modules/.pnpm/react@18.2.0/node_modules/react/cjs/react.js'];
const LINKS: [string, string][] = [
  ['linked-src', 'real'],
  ['file-link', 'real/a.ts'],
  ['dangling', 'nowhere'],
  ['node_modules/react', '.pnpm/react@18.2.0/node_modules/react'],
];

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'ff-on-the-way-'));
  for (const f of FILES) {
    mkdirSync(join(root, dirname(f)), { recursive: true });
    writeFileSync(join(root, f), '');
  }
  for (const [link, target] of LINKS) symlinkSync(target, join(root, link));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const FORMS = searchForms(realRg.path);

/** pattern, the matches, the links on the way (as the walker names them). */
const ROWS: [string, string[], string[]][] = [
  ['linked-src/*.ts', [], ['linked-src']],
  ['linked-src/a.ts', [], ['linked-src']],
  ['node_modules/react/**/*.js', [], ['node_modules/react']],
  ['*/a.ts', ['real/a.ts'], ['linked-src']],
  ['src/*.ts', ['src/b.ts'], []],
  ['nothing/*.ts', [], []],
];

describeIf(posix('symlinks need a privilege on Windows (test/windows covers junctions)'), needsRg)('issue 27: links on the way, every form', () => {
  for (const [pattern, matches, onTheWay] of ROWS) {
    it.each(FORMS)(`${JSON.stringify(pattern)} on %s`, async (name, form) => {
      const result = await form({ root, pattern });
      expect(result).toMatchObject({ matches, matchedCount: matches.length, complete: true });
      // ripgrep never sees links; auto keeps ripgrep's answer only when it found something.
      const seesLinks = name !== 'ripgrep' && !(name === 'auto' && matches.length > 0);
      expect(result.linksExamined).toBe(seesLinks);
      expect(result.linksOnTheWay).toEqual(seesLinks ? onTheWay : []);
      expect(result.linkOnTheWayCount).toBe(seesLinks ? onTheWay.length : 0);
      if (name === 'auto') expect(result.fallbackReason).toBe(matches.length === 0 ? 'links-unexamined' : undefined);
    });
  }
});
