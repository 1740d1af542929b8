/**
 * Issue 27, links on the way, in the MCP answer: `structuredContent.linksOnTheWay` names the
 * symlinked directories the glob pattern (or grep) would have descended into (workspace-relative, counted),
 * the text is the agent tool's own, and the output schema declares the field.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { globTool } from '../../src/agent/index.js';
import { OUTPUT_SCHEMA, structuredAnswer } from '../../src/mcp/structured.js';
import { describeIf, onWindows, posix } from '../helpers/skip-why.js';
import { connect, serverCommand, textOf, type Session } from './helpers.js';

let tree: string;
let session: Session;
beforeAll(async () => {
  tree = mkdtempSync(join(tmpdir(), 'ff-mcp-links-'));
  mkdirSync(join(tree, 'real'));
  writeFileSync(join(tree, 'real', 'a.ts'), '');
  if (!onWindows) symlinkSync('real', join(tree, 'linked-src'));
  session = await connect(serverCommand(['--root', tree]));
}, 60_000);
afterAll(async () => {
  await session?.close();
  rmSync(tree, { recursive: true, force: true });
});

describeIf(posix('symlinks need a privilege on Windows (test/windows covers junctions)'))('MCP: links on the way (issue 27)', () => {
  it('glob linked-src/a.ts: structuredContent names linked-src, complete stays true, the text never claims absence', async () => {
    const result = await session.client.callTool({ name: 'glob', arguments: { pattern: 'linked-src/a.ts' } });
    expect(result.structuredContent).toMatchObject({ ok: true, complete: true, returned: 0, linksOnTheWay: { count: 1, paths: ['linked-src'] } });
    expect(textOf(result)).toBe((await globTool({ pattern: 'linked-src/a.ts' }, { root: tree })).content);
    expect(textOf(result)).toContain('1 symlinked directory on the way was not followed: linked-src.');
    expect(textOf(result)).not.toContain('(search complete).');
  });

  it('none on the way: an empty list; the schema declares the field', async () => {
    expect(structuredAnswer(await globTool({ pattern: 'real/*.ts' }, { root: tree }))).toMatchObject({ paths: ['real/a.ts'], linksOnTheWay: { count: 0, paths: [] } });
    expect(OUTPUT_SCHEMA.properties!.linksOnTheWay).toEqual({ type: 'object', properties: { count: { type: 'integer', minimum: 0 }, paths: { type: 'array', items: { type: 'string' } } }, required: ['count', 'paths'] });
  });

  it('grep: a complete answer with no hit names linked-src too (its files were never read), in the text and structuredContent', async () => {
    const grep = await session.client.callTool({ name: 'grep', arguments: { query: 'absent text' } });
    expect(grep.structuredContent).toMatchObject({ ok: true, complete: true, returned: 0, linksOnTheWay: { count: 1, paths: ['linked-src'] } });
    expect(textOf(grep)).toContain('outside symlinked directories');
    expect(textOf(grep)).not.toContain('(search complete).');
  });
});
