/**
 * A folder whose name is not UTF-8 is one gap, named once (an adversary's find): with `type`
 * asking for directories, its lstat (for the match's metadata) and its listing both failed with
 * `EILSEQ`, and `skipped` named it twice, `skippedCount` doubled. A generated family on the real
 * disk: three such folders at depths 1-3, every `type` shape x `maxDepth` x form, each named
 * exactly when something of it was within reach (its listing, or itself as a candidate), never twice.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { findFiles, findFilesStream, findFilesSync, type FindOptions, type FindSummary } from '../../src/index.js';
import { describeIf, linux } from '../helpers/skip-why.js';

/** Parent folders (plain names), the folder's bytes, its depth. */
const FOLDERS = [
  { parent: '', bytes: [0x64, 0xff], depth: 1 },
  { parent: 'e/', bytes: [0x66, 0xfe], depth: 2 },
  { parent: 'h/i/', bytes: [0x6a, 0xe9, 0x80], depth: 3 },
];
const TYPES: FindOptions['type'][] = [undefined, 'directory', 'any', ['file', 'directory'], ['symlink']];
const DEPTHS = [undefined, 0, 1, 2, 3, 4];

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'ff-undecodable-dir-'));
  for (const folder of FOLDERS) {
    mkdirSync(join(root, folder.parent), { recursive: true });
    const dir = Buffer.concat([Buffer.from(join(root, folder.parent)), Buffer.from('/'), Buffer.from(folder.bytes)]);
    mkdirSync(dir);
    writeFileSync(Buffer.concat([dir, Buffer.from('/x.txt')]), 'x');
  }
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

function asksDirectories(type: FindOptions['type']): boolean {
  const kinds = type === undefined ? ['file'] : [type].flat();
  return kinds.includes('directory') || kinds.includes('any');
}

/** How often the folder is named: once when its listing or its own lstat was within reach. */
function expectedNamings(depth: number, maxDepth: number | undefined, type: FindOptions['type']): number {
  const limit = maxDepth ?? Infinity;
  const listed = depth < limit;
  const candidate = asksDirectories(type) && depth <= limit;
  return listed || candidate ? 1 : 0;
}

async function summaries(options: FindOptions): Promise<Array<[string, FindSummary]>> {
  const stream = findFilesStream(options);
  for await (const _ of stream);
  return [
    ['findFiles', await findFiles(options)],
    ['findFilesSync', findFilesSync(options)],
    ['findFilesStream', await stream.summary],
  ];
}

describeIf(linux('folder names that are not UTF-8 need a Linux filesystem that takes any bytes'))('a folder whose name is not UTF-8', () => {
  for (const type of TYPES) {
    for (const maxDepth of DEPTHS) {
      it(`type ${JSON.stringify(type)}, maxDepth ${maxDepth}: each such folder named once at most, exactly when within reach`, async () => {
        for (const [form, result] of await summaries({ root, pattern: '*', type, maxDepth })) {
          const paths = result.skipped.map((entry) => entry.path);
          expect(new Set(paths).size, `${form}: ${JSON.stringify(paths)}`).toBe(paths.length);
          expect(result.skippedCount, form).toBe(paths.length);
          for (const folder of FOLDERS) {
            const named = result.skipped.filter((entry) => entry.path === `${folder.parent}${Buffer.from(folder.bytes).toString()}` && entry.code === 'EILSEQ').length;
            expect(named, `${form}: ${folder.parent} depth ${folder.depth}`).toBe(expectedNamings(folder.depth, maxDepth, type));
          }
          if (result.skipped.length > 0) expect(result.complete, form).toBe(false);
        }
      });
    }
  }
});
