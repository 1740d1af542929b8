/**
 * grep over ripgrep, on the real disk, where the text is only in a binary file: ripgrep leaves
 * such a file without a word, so the answer is complete and empty, but it must not read as "not in
 * the tree". An adversarial run found the default answer claiming "every file was searched" with
 * `binarySkipped: 0`. The pure-TS path counts the file; ripgrep's answer says it cannot.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { grepTool, type GrepMetadata } from '../../src/agent/index.js';
import { structuredAnswer } from '../../src/mcp/structured.js';
import { describeIf } from '../helpers/skip-why.js';
import { needsRg, realRg } from '../helpers/real-rg.js';

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'ff-agent-binary-'));
  writeFileSync(join(root, 'tool.bin'), Buffer.from('\0\x01\x02 MAGIC_MARKER \x03'));
  writeFileSync(join(root, 'notes.txt'), 'nothing here\n');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const NOTE = 'Binary files are not searched, and ripgrep does not say which it left out: text inside a binary file is not found by this search.';

describeIf(needsRg)('grep, with the text only inside a binary file', () => {
  it('through ripgrep: complete and empty, with the note; MCP gives no binary count rather than a false 0', async () => {
    const answer = await grepTool({ query: 'MAGIC_MARKER' }, { root, backend: 'ripgrep', rgPath: realRg.path });
    expect((answer.metadata as GrepMetadata).complete).toBe(true);
    expect(answer.content.split('\n')).toContain(NOTE);
    const structured = structuredAnswer(answer);
    expect(structured).toMatchObject({ complete: true, returned: 0 });
    expect(structured.policy).not.toHaveProperty('binarySkipped');
  });

  it('through the pure-TS path: the file is counted, and no note is needed', async () => {
    const answer = await grepTool({ query: 'MAGIC_MARKER' }, { root, backend: 'walker' });
    expect(answer.content).toContain('Left out by policy: 1 binary file skipped.');
    expect(answer.content).not.toContain(NOTE);
    expect(structuredAnswer(answer).policy).toMatchObject({ binarySkipped: 1 });
  });
});
