/**
 * grepTool on memfs workspaces with a fake clock: the same answers as globTool, for lines of text,
 * word for word, and what it tries after a complete search found nothing.
 */
import { describe, expect, it } from 'vitest';
import { globTool, grepTool, type GrepMetadata, type GrepToolResult } from '../../src/agent/index.js';
import { FakeClock, asFs, buildVolume, win32Fs, type Tree } from '../helpers/memfs.js';
import { W, workspace } from '../helpers/agent.js';

const tree: Tree = {
  src: {
    'engine.ts': 'export class queryEngine {}\n',
    'a.ts': 'const x = 1;\nfunction QueryEngine2() {}\n',
    'blob.dat': 'a\0QueryEngine',
  },
  docs: { 'QueryEngine.md': '# notes\n' },
  locked: { 'x.ts': 'QueryEngine' },
  node_modules: { dep: { 'index.js': 'QueryEngine' } },
};

function ok(result: GrepToolResult): GrepMetadata {
  expect(result.isError).toBe(false);
  return result.metadata as GrepMetadata;
}

describe('answers', () => {
  it('lists path:line:column: text, workspace-relative, with policy', async () => {
    const result = await grepTool({ query: 'QueryEngine' }, workspace(tree));
    expect(result.content).toBe(
      ['locked/x.ts:1:1: QueryEngine', 'src/a.ts:2:10: function QueryEngine2() {}', 'Left out by policy: 1 entry matching the excludes .git/, node_modules/; 1 binary file skipped.'].join('\n'),
    );
    expect(result.summary).toBe('2 matches for "QueryEngine"');
    expect(ok(result)).toMatchObject({ returned: 2, total: { count: 2, kind: 'exact' }, truncated: false, complete: true, regex: false });
    expect(ok(result).hits.map((h) => h.path)).toEqual(['locked/x.ts', 'src/a.ts']);
  });

  it('nothing found after a complete search: says so, then what else was tried and what it found', async () => {
    const result = await grepTool({ query: 'QUERYENGINE' }, workspace(tree));
    expect(result.content).toBe(
      [
        'No matches for "QUERYENGINE" under /w (search complete).',
        'Left out by policy: 1 entry matching the excludes .git/, node_modules/; 1 binary file skipped.',
        'Tried:',
        '- "QUERYENGINE", exact case: 0 matches',
        '- "QUERYENGINE", ignoring case: 3 matches, e.g. locked/x.ts:1:1, src/a.ts:2:10, src/engine.ts:1:14',
        '- file names matching "**/*QUERYENGINE*": 0 files',
        'The search root /w holds 4 entries: docs/, locked/, node_modules/, src/',
      ].join('\n'),
    );
    expect(result.summary).toBe('No matches for "QUERYENGINE" (search complete)');
    expect(ok(result).guidance?.tried?.[1]).toMatchObject({ total: { count: 3, kind: 'exact' }, complete: true });
  });

  it('a lower-case query already ignored case: only the file names are tried', async () => {
    const result = await grepTool({ query: 'queryengine', include: '*.md' }, workspace(tree));
    expect(result.content).toBe(
      [
        'No matches for "queryengine" in files matching "*.md" under /w (search complete).',
        'Left out by policy: 1 entry matching the excludes .git/, node_modules/.',
        'Tried:',
        '- "queryengine", ignoring case (the query has no capital letter): 0 matches',
        '- file names matching "**/*queryengine*": 0 files',
        'The search root /w holds 4 entries: docs/, locked/, node_modules/, src/',
      ].join('\n'),
    );
  });

  it('the one-line summary names the files an include chose, never plain "No matches" (issue 27)', async () => {
    const none = await grepTool({ query: 'queryengine', include: '*.md' }, workspace(tree));
    expect(none.summary).toBe('No matches for "queryengine" in files matching "*.md" (search complete)');
    const some = await grepTool({ query: 'queryEngine', include: 'src/*.ts' }, workspace(tree));
    expect(some.summary).toBe('1 match for "queryEngine" in files matching "src/*.ts"');
    const files = await grepTool({ query: 'QueryEngine', include: '*.md', output_mode: 'files_with_matches' }, workspace(tree));
    expect(files.summary).toBe('No files with matches for "QueryEngine" in files matching "*.md" (search complete)');
  });

  it('the file-name glob finds what the text search cannot', async () => {
    const result = await grepTool({ query: 'QueryEngine', include: '*.md' }, workspace(tree));
    expect(result.content.split('\n').slice(2, 6)).toEqual([
      'Tried:',
      '- "QueryEngine", exact case: 0 matches',
      '- "QueryEngine", ignoring case: 0 matches',
      '- file names matching "**/*QueryEngine*": 1 file, e.g. docs/QueryEngine.md',
    ]);
  });

  it('a regex is not turned into a file-name glob; a query without a word is not either', async () => {
    const regex = await grepTool({ query: 'foo.*bar', regex: true }, workspace(tree));
    expect(regex.content.split('\n').slice(0, 5)).toEqual([
      'No matches for regex "foo.*bar" under /w (search complete).',
      'Left out by policy: 1 entry matching the excludes .git/, node_modules/; 1 binary file skipped.',
      'Tried:',
      '- regex "foo.*bar", ignoring case (the query has no capital letter): 0 matches',
      '- file names: not tried (the query is a regular expression)',
    ]);
    const symbols = await grepTool({ query: '=>!' }, workspace(tree));
    expect(symbols.content.split('\n')[4]).toBe('- file names: not tried (the query holds no run of 3 or more letters, digits, "_", "." or "-")');
  });

  it('cuts at the limit and says how many there were', async () => {
    const lines = Array.from({ length: 7 }, (_, i) => `TODO ${i}`).join('\n');
    const result = await grepTool({ query: 'TODO', limit: 2 }, workspace({ 'notes.txt': lines }));
    expect(result.content).toBe(
      ['notes.txt:1:1: TODO 0', 'notes.txt:2:1: TODO 1', '(truncated: showing 2 of 7)', 'Next: for the rest, make the query or path more specific, or raise limit (at most 500).'].join('\n'),
    );
    expect(result.summary).toBe('2 of 7 matches for "TODO"');
  });

  it('caps the limit at 500', async () => {
    const lines = Array.from({ length: 501 }, () => 'x').join('\n');
    const result = await grepTool({ query: 'x', limit: 9999 }, workspace({ 'a.txt': lines }));
    expect(result.content.split('\n').slice(500)).toEqual(['(truncated: showing 500 of 501)', 'Next: for the rest, make the query or path more specific.', '(limit 9999 is above the maximum: capped at 500)']);
    expect(ok(result)).toMatchObject({ limit: 500, limitRequested: 9999, returned: 500 });
  });

  it('marks lines cut at 500 characters', async () => {
    const result = await grepTool({ query: 'Needle' }, workspace({ 'min.js': `Needle${'y'.repeat(600)}` }));
    expect(result.content).toBe(`min.js:1:1: Needle${'y'.repeat(494)}…\n(lines ending in "…" were cut at 500 characters)`);
  });
});

describe('incomplete answers', () => {
  it('a denied directory: hits kept, the directory named, absence not claimed', async () => {
    const result = await grepTool({ query: 'QueryEngine' }, workspace(tree, {}, { readdir: { '/w/locked/': 'EACCES' } }));
    expect(result.content).toBe(
      [
        'src/a.ts:2:10: function QueryEngine2() {}',
        '(incomplete)',
        'Warning: the search did not cover everything, so absence elsewhere cannot be concluded.',
        'Not searched:',
        '- 1 path could not be read (permission denied): locked',
        'Next: search a path that avoids the unreadable ones, or another folder where it may be.',
        'Left out by policy: 1 entry matching the excludes .git/, node_modules/; 1 binary file skipped.',
      ].join('\n'),
    );
    expect(result.summary).toBe('Incomplete search (permission denied): 1 match for "QueryEngine" found in the part searched');
  });

  it('a file that cannot be opened is a gap too', async () => {
    const result = await grepTool({ query: 'QueryEngine', path: 'src' }, workspace(tree, {}, { open: { '/w/src/a.ts': 'EACCES' } }));
    expect(result.content).toBe(
      [
        'Search incomplete: no matches in the part that could be searched ("QueryEngine" under /w/src).',
        'Absence cannot be concluded: part of the tree was not searched.',
        'Not searched:',
        '- 1 path could not be read (permission denied): src/a.ts',
        'Next: search a path that avoids the unreadable ones, or another folder where it may be.',
        'Left out by policy: 1 binary file skipped.',
        'The search root /w/src holds 3 entries: a.ts, blob.dat, engine.ts',
      ].join('\n'),
    );
    // No retries after an incomplete search: its "nothing" is not an answer to improve on.
    expect(ok(result).guidance?.tried).toBeUndefined();
    // A host that shows only the summary line must not show an absence.
    expect(result.summary).toBe('Incomplete search (permission denied): 0 matches for "QueryEngine" found in the part searched');
  });

  it('the output limit: both labels, and the count is only "at least"', async () => {
    const line = 'Q'.repeat(600);
    const big = Array.from({ length: 2500 }, () => line).join('\n');
    const result = await grepTool({ query: 'Q', limit: 1 }, workspace({ 'big.txt': big }, { countCap: 5000 }));
    const meta = ok(result);
    const found = meta.result.hitCount;
    expect(found).toBeGreaterThan(1000);
    expect(found).toBeLessThan(2500);
    expect(meta.result.incompleteReasons).toEqual(['output-limit']);
    expect(result.content).toBe(
      [
        `big.txt:1:1: ${'Q'.repeat(500)}…`,
        `(truncated: showing 1 of at least ${found})`,
        '(incomplete)',
        'Warning: the search did not cover everything, so absence elsewhere cannot be concluded.',
        'Not searched:',
        '- output limit of 1048576 bytes of matching text reached',
        'Next: make the query or include glob more specific; for the rest, make the query or path more specific, or raise limit (at most 500).',
        '(lines ending in "…" were cut at 500 characters)',
      ].join('\n'),
    );
  });

  it('counting stopped at the cap: "more than", not a gap', async () => {
    const lines = Array.from({ length: 1200 }, () => 'x').join('\n');
    const result = await grepTool({ query: 'x', limit: 1 }, workspace({ 'a.txt': lines }));
    expect(result.content).toBe(['a.txt:1:1: x', '(truncated: showing 1 of more than 1000)', 'Next: for the rest, make the query or path more specific, or raise limit (at most 500).'].join('\n'));
  });
});

describe('input, path and sort', () => {
  it('refuses a path outside the workspace, naming the root', async () => {
    const result = await grepTool({ query: 'x', path: '../../etc' }, workspace(tree));
    expect(result).toMatchObject({ isError: true, metadata: { tool: 'grep', error: { code: 'path-climbs-out' } } });
    expect(result.content).toBe(
      'Refused: path "../../etc" climbs out of the workspace root /w with "..". Only the workspace root /w can be searched: give a path relative to it (for example "src"), or omit path to search all of it.',
    );
  });

  it('answers a bad regex and bad input with what is wrong', async () => {
    const regex = await grepTool({ query: '(', regex: true }, workspace(tree));
    // The reason after the colon is the content search's own wording; ours is the frame around it.
    expect(regex.content).toMatch(/^Invalid query: query is not a valid regex \(RE2 syntax, as ripgrep's\): missing closing \).*\.$/);
    expect(regex.metadata).toMatchObject({ error: { code: 'FF_INVALID_QUERY' } });
    const input = await grepTool({ query: 'x', limit: '10' }, workspace(tree));
    expect(input.content).toBe('Invalid grep input: input.limit must be a whole number, got "10".');
  });

  it('relevance: files whose name holds the query first, source before build output, the test after its code', async () => {
    const code: Tree = {
      dist: { 'parser.js': 'parse()' },
      src: { 'parser.ts': 'parse()', 'util.ts': 'parse()\nparse()' },
      test: { 'parser.test.ts': 'parse()' },
    };
    const result = await grepTool({ query: 'parse', sort: 'relevance' }, workspace(code));
    expect(result.content).toBe(['src/parser.ts:1:1: parse()', 'test/parser.test.ts:1:1: parse()', 'src/util.ts:1:1: parse()', 'src/util.ts:2:1: parse()', 'dist/parser.js:1:1: parse()'].join('\n'));
    const byPath = await grepTool({ query: 'parse' }, workspace(code));
    expect(byPath.content.split('\n').map((l) => l.split(':')[0])).toEqual(['dist/parser.js', 'src/parser.ts', 'src/util.ts', 'src/util.ts', 'test/parser.test.ts']);
  });

  it('relevance fills the page file by file', async () => {
    const code: Tree = { src: { 'parser.ts': 'parse\nparse\nparse', 'other.ts': 'parse' } };
    const result = await grepTool({ query: 'parse', sort: 'relevance', limit: 2 }, workspace(code));
    expect(result.content.split('\n').slice(0, 3)).toEqual(['src/parser.ts:1:1: parse', 'src/parser.ts:2:1: parse', '(truncated: showing 2 of 4)']);
  });
});

describe('ignore files (respect_git_ignore, default true)', () => {
  const repo: Tree = { '.git': {}, '.gitignore': 'dist/\n', src: { 'a.ts': 'const needle = 1;' }, dist: { 'a.js': 'var needle=1' } };

  it('searches what the ignore files leave, says how many they left out, and false searches every file', async () => {
    const kept = await grepTool({ query: 'needle' }, workspace(repo));
    expect(kept.content).toBe(['src/a.ts:1:7: const needle = 1;', 'Left out by policy: 1 entry matching the excludes .git/, node_modules/; 1 path ignored by ignore files (.gitignore, .ignore).'].join('\n'));
    const every = await grepTool({ query: 'needle', respect_git_ignore: false }, workspace(repo));
    expect(ok(every).hits.map((h) => h.path)).toEqual(['dist/a.js', 'src/a.ts']);
  });

  it('a complete empty answer says what was ignored; the file-name retry respects the same files', async () => {
    const result = await grepTool({ query: 'needle', include: 'dist/**' }, workspace(repo));
    expect(result.content).toContain('Ignore files left out 1 path: search again with respect_git_ignore: false to include ignored files.');
    expect(ok(result).guidance?.tried?.at(-1)).toMatchObject({ what: 'file names matching "**/*needle*"', total: { count: 0, kind: 'exact' } });
  });
});

describe('case_sensitive', () => {
  const code: Tree = { src: { 'a.ts': 'const Needle = 1;\nconst needle = 2;\n' } };

  it('true keeps case (a lower-case query no longer ignores it); false ignores it (a capital no longer keeps it)', async () => {
    const exact = await grepTool({ query: 'needle', case_sensitive: true }, workspace(code));
    expect(ok(exact).hits.map((h) => h.line)).toEqual([2]);
    const ignoring = await grepTool({ query: 'Needle', case_sensitive: false }, workspace(code));
    expect(ok(ignoring).hits.map((h) => h.line)).toEqual([1, 2]);
    const smart = await grepTool({ query: 'Needle' }, workspace(code));
    expect(ok(smart).hits.map((h) => h.line)).toEqual([1]);
  });

  it('after an empty answer, the retry ignoring case runs when case was kept, and the first attempt is named as asked', async () => {
    const kept = await grepTool({ query: 'NEEDLE', case_sensitive: true }, workspace(code));
    expect(ok(kept).guidance?.tried?.map((t) => t.what).slice(0, 2)).toEqual(['"NEEDLE", exact case', '"NEEDLE", ignoring case']);
    const ignored = await grepTool({ query: 'zzz', case_sensitive: false }, workspace(code));
    expect(ok(ignored).guidance?.tried?.[0]?.what).toBe('"zzz", ignoring case');
    expect(ok(ignored).guidance?.tried).toHaveLength(2); // no second "ignoring case" search
  });
});

describe('output_mode and max_matches_per_file', () => {
  const code: Tree = { src: { 'a.ts': 'x\nx\nx\n', 'b.ts': 'x\n', 'c.md': 'none\n' } };

  it('files_with_matches lists each file once; count gives path:N; the summary counts files', async () => {
    const files = await grepTool({ query: 'x', output_mode: 'files_with_matches' }, workspace(code));
    expect(files.content).toBe(['src/a.ts', 'src/b.ts'].join('\n'));
    expect(files.summary).toBe('2 files with matches for "x"');
    // Each file read to its first hit only: its count is at least 1.
    expect(ok(files)).toMatchObject({ outputMode: 'files_with_matches', hits: [], files: [{ path: 'src/a.ts', count: 1, atLeast: true }, { path: 'src/b.ts', count: 1, atLeast: true }], total: { count: 2, kind: 'exact' } });
    const counts = await grepTool({ query: 'x', output_mode: 'count' }, workspace(code));
    expect(counts.content).toBe(['src/a.ts:3', 'src/b.ts:1'].join('\n'));
  });

  it('files_with_matches: the hit cap counts files, so one file of many hits does not hide the others', async () => {
    const lines = (n: number) => 'Q\n'.repeat(n);
    const tree = { 'a.txt': lines(50), 'b.txt': lines(2000), 'c.txt': lines(1), 'd.txt': 'none\n' }; // b.txt alone passes the cap of hits
    const result = await grepTool({ query: 'Q', output_mode: 'files_with_matches' }, workspace(tree, { countCap: 501 }));
    expect(result.content).toBe(['a.txt', 'b.txt', 'c.txt'].join('\n'));
    expect(ok(result)).toMatchObject({ complete: true, total: { count: 3, kind: 'exact' } });
  });

  it('count past the hit cap: the file the search stopped inside reads N+, with how to get the exact number', async () => {
    const lines = (n: number) => 'Q\n'.repeat(n);
    const result = await grepTool({ query: 'Q', output_mode: 'count' }, workspace({ 'a.txt': lines(5), 'b.txt': lines(2000), 'c.txt': lines(1) }, { countCap: 1001 }));
    expect(result.content.split('\n').slice(0, 2)).toEqual(['a.txt:5', 'b.txt:996+']);
    expect(result.content).toContain(
      '(b.txt:996+: the search stopped inside this file, so it holds at least 996 matching lines. For the exact number, search it alone (path "b.txt"); one search counts up to 1001 matching lines.)',
    );
    expect(ok(result).files).toEqual([{ path: 'a.txt', count: 5 }, { path: 'b.txt', count: 996, atLeast: true }]);
    // Under the cap every count is exact, and none says "+".
    const exact = await grepTool({ query: 'Q', output_mode: 'count' }, workspace({ 'a.txt': lines(5), 'b.txt': lines(996) }, { countCap: 1001 }));
    expect(exact.content).toBe(['a.txt:5', 'b.txt:996'].join('\n'));
  });

  it('max_matches_per_file keeps the first lines of each file; the total still counts every hit', async () => {
    const result = await grepTool({ query: 'x', max_matches_per_file: 1 }, workspace(code));
    expect(ok(result).hits.map((h) => `${h.path}:${h.line}`)).toEqual(['src/a.ts:1', 'src/b.ts:1']);
    expect(ok(result).total).toEqual({ count: 4, kind: 'exact' });
    expect(result.content).toContain('(max_matches_per_file 1: only the first matching line of each file is listed; the total counts them all)');
    const refused = await grepTool({ query: 'x', max_matches_per_file: 0 }, workspace(code));
    expect(refused.isError).toBe(true);
  });

  it('count is exact whatever max_matches_per_file says (it caps the lines listed, and a count lists none)', async () => {
    for (const cap of [1, 2, 3, 50]) {
      const counts = await grepTool({ query: 'x', output_mode: 'count', max_matches_per_file: cap }, workspace(code));
      expect(counts.content, `max_matches_per_file ${cap}`).toBe(['src/a.ts:3', 'src/b.ts:1'].join('\n'));
      expect(ok(counts).files, `max_matches_per_file ${cap}`).toEqual([{ path: 'src/a.ts', count: 3 }, { path: 'src/b.ts', count: 1 }]);
    }
  });
});

describe('context, before and after', () => {
  const code: Tree = { src: { 'a.ts': 'one\nneedle 1\ntwo\nthree\nfour\nneedle 2\nfive\n', 'b.ts': 'x\nneedle\n' } };

  it('context lines as path-line- text around each hit, each once, "--" between groups that do not run on (as rg -C)', async () => {
    const result = await grepTool({ query: 'needle', context: 1 }, workspace(code));
    expect(result.content).toBe(
      ['src/a.ts-1- one', 'src/a.ts:2:1: needle 1', 'src/a.ts-3- two', '--', 'src/a.ts-5- four', 'src/a.ts:6:1: needle 2', 'src/a.ts-7- five', '--', 'src/b.ts-1- x', 'src/b.ts:2:1: needle'].join('\n'),
    );
    expect(result.summary).toBe('3 matches for "needle"');
    expect(ok(result)).toMatchObject({ returned: 3, total: { count: 3, kind: 'exact' }, truncated: false, complete: true });
    expect(ok(result).hits[0]).toEqual({ path: 'src/a.ts', line: 2, column: 1, text: 'needle 1', before: [{ line: 1, text: 'one' }], after: [{ line: 3, text: 'two' }] });
  });

  it('before and after override context on their side; windows that meet are one group', async () => {
    const result = await grepTool({ query: 'needle', path: 'src/a.ts', context: 3, after: 0 }, workspace(code));
    expect(result.content).toBe(['src/a.ts-1- one', 'src/a.ts:2:1: needle 1', 'src/a.ts-3- two', 'src/a.ts-4- three', 'src/a.ts-5- four', 'src/a.ts:6:1: needle 2'].join('\n'));
    const after = await grepTool({ query: 'needle', path: 'src/b.ts', after: 2 }, workspace(code));
    expect(after.content).toBe('src/b.ts:2:1: needle');
  });

  it('a page cut by limit keeps each listed hit whole, with its context', async () => {
    const result = await grepTool({ query: 'needle', before: 1, limit: 1 }, workspace(code));
    expect(result.content.split('\n').slice(0, 3)).toEqual(['src/a.ts-1- one', 'src/a.ts:2:1: needle 1', '(truncated: showing 1 of 3)']);
  });

  it('above the cap: capped, and said; with a mode that lists no lines: not shown, and said', async () => {
    const capped = await grepTool({ query: 'needle', path: 'src/b.ts', before: 50 }, workspace(code));
    expect(capped.content).toBe(['src/b.ts-1- x', 'src/b.ts:2:1: needle', '(context 50 is above the maximum: capped at 20 lines)'].join('\n'));
    const files = await grepTool({ query: 'needle', output_mode: 'files_with_matches', context: 2 }, workspace(code));
    expect(files.content).toBe(['src/a.ts', 'src/b.ts', '(context, before and after apply to output_mode "content" only: no context lines are listed with "files_with_matches")'].join('\n'));
    for (const bad of [{ context: -1 }, { before: 1.5 }, { after: '2' }]) {
      const refused = await grepTool({ query: 'needle', ...bad }, workspace(code));
      expect(refused.isError).toBe(true);
    }
  });

  it('a name that could forge a line stays one escaped line in the context rows too', async () => {
    const result = await grepTool({ query: 'needle', context: 1 }, workspace({ 'evil\nsrc': { 'x.ts': 'a\nneedle\n' } }));
    expect(result.content.split('\n').slice(0, 2)).toEqual(['evil\\u{a}src/x.ts-1- a', 'evil\\u{a}src/x.ts:2:1: needle']);
  });
});

describe('a file as the path', () => {
  const code: Tree = { src: { 'a.ts': 'needle\n', 'b.ts': 'needle\n', 'x[1].ts': 'needle\n' }, 'top.ts': 'needle\n' };

  it('searches that file only, and the answer names it', async () => {
    const result = await grepTool({ query: 'needle', path: 'src/a.ts' }, workspace(code));
    expect(result.content).toBe('src/a.ts:1:1: needle');
    expect(ok(result).searchRoot).toBe(`${W}/src`);
    const none = await grepTool({ query: 'absent', path: 'src/a.ts' }, workspace(code));
    expect(none.content.split('\n')[0]).toBe(`No matches for "absent" under ${W}/src/a.ts (search complete).`);
    expect((await grepTool({ query: 'needle', path: 'top.ts' }, workspace(code))).content).toBe('top.ts:1:1: needle');
  });

  it('a name a glob would read as more than itself is searched exactly, and only it; glob with a file as the path is still refused', async () => {
    // Each name beside the file its unescaped glob would also match (or expand to).
    const odd: Tree = {
      'x[1].ts': 'needle\n', 'x1.ts': 'needle\n', 'a*b.ts': 'needle\n', 'aXb.ts': 'needle\n', 'b{1,2}.ts': 'needle\n', 'b1.ts': 'needle\n',
      '@(z).ts': 'needle\n', 'z.ts': 'needle\n', 'back\\slash.ts': 'needle\n', 'backslash.ts': 'needle\n', '!(n).ts': 'needle\n', 'm.ts': 'needle\n',
    };
    for (const name of ['x[1].ts', 'a*b.ts', 'b{1,2}.ts', '@(z).ts', '!(n).ts']) {
      const result = await grepTool({ query: 'needle', path: `d/${name}` }, workspace({ d: odd }));
      expect(result.content).toBe(`d/${name}:1:1: needle`);
      expect(ok(result).result.filesSearched).toBe(1);
    }
    const { globTool } = await import('../../src/agent/index.js');
    const glob = await globTool({ pattern: '*', path: 'src/a.ts' }, workspace(code));
    expect(glob).toMatchObject({ isError: true, metadata: { error: { code: 'path-not-directory' } } });
  });

  it('on Windows too (a class, not a backslash, escapes there); a brace expression, which cannot be escaped there, is refused with the way to find it', async () => {
    const odd: Tree = { 'x[1].ts': 'needle\n', 'x1.ts': 'needle\n', 'p(1).ts': 'needle\n', 'b{1,2}.ts': 'needle\n', 'b1.ts': 'needle\n' };
    const ctx = () => ({ root: 'C:\\w', fs: win32Fs(asFs(buildVolume({ d: odd }, '/C/w'))), platform: 'win32' as const, clock: new FakeClock() });
    for (const name of ['x[1].ts', 'p(1).ts']) {
      const result = await grepTool({ query: 'needle', path: `d\\${name}` }, ctx());
      expect(result.content).toBe(`d/${name}:1:1: needle`);
      expect(ok(result).result.filesSearched).toBe(1);
    }
    const braces = await grepTool({ query: 'needle', path: 'd\\b{1,2}.ts' }, ctx());
    expect(braces).toMatchObject({ isError: true, metadata: { error: { code: 'path-not-directory' } } });
    expect(braces.content).toBe('Path "d\\\\b{1,2}.ts" is a file, not a directory. To find it, search with pattern "./b?1,2?.ts" and path "d".');
    // The suggestion, followed verbatim, lists that file and no other.
    const found = await globTool({ pattern: './b?1,2?.ts', path: 'd' }, ctx());
    expect(found.content).toBe('d/b{1,2}.ts');
  });
});

describe('the retries after an empty answer share the call\'s budget', () => {
  // Three directories: each read advances the fake clock 300 ms, so the first search takes 900 of
  // the 1,000 ms budget (complete), and the retries have 100 left, not a budget each.
  const tree: Tree = { a: { 'x.txt': 'nothing here\n' }, b: { 'y.txt': 'nor here\n' } };

  it('the retry ignoring case gets what is left and says it was cut; the name search is not tried', async () => {
    const ctx = workspace(tree, { timeBudgetMs: 1000 });
    ctx.onDirectory = () => ctx.clock.advance(300);
    const result = await grepTool({ query: 'Needle' }, ctx);
    expect(result.content).toContain('No matches for "Needle"');
    expect(result.content).toMatch(/- "needle" ignoring case: .*incomplete|ignoring case: .*time/);
    expect(result.content).toContain('not tried (the searches before it took the whole time budget)');
    // The whole call: the first search's 900 ms and the 100 left, a directory read at most past it.
    expect(ctx.clock.now()).toBeLessThanOrEqual(1000 + 300);
  });
});

describe('a hit, count or context row names its file unmistakably', () => {
  // Names that hold what reads as a row's field end, beside real files they could be taken for.
  const names = ['config.ts:12:5: const key = 1', 'a.ts:3', 'b.ts-4- x', 'c:1:1', 'plain.ts', 'v1-2.txt', 'd - 5 - e'];
  const tree: Tree = Object.fromEntries([...names, 'config.ts', 'a.ts', 'b.ts', 'c'].map((name) => [name, names.includes(name) ? 'one\nneedle\ntwo\n' : 'none\n']));

  /** The file a row names: a quoted name read back, else the text before the first `:digit` (or `-digits-`). */
  function fileOf(row: string, separator: ':' | '-'): string {
    if (row.startsWith('"')) return JSON.parse(row.slice(0, row.indexOf('"', 1) + 1)) as string;
    const end = separator === ':' ? row.search(/:\d/) : row.search(/-\d+-/);
    return row.slice(0, end);
  }

  it('in every mode, each row reads back as the file it is about', async () => {
    const hits = await grepTool({ query: 'needle' }, workspace(tree));
    expect(hits.content.split('\n').filter((r) => /:\d+:\d+: /.test(r)).map((r) => fileOf(r, ':')).sort()).toEqual([...names].sort());
    const counts = await grepTool({ query: 'needle', output_mode: 'count' }, workspace(tree));
    expect(counts.content.split('\n').map((r) => fileOf(r, ':')).sort()).toEqual([...names].sort());
    const context = await grepTool({ query: 'needle', context: 1 }, workspace(tree));
    const rows = context.content.split('\n').filter((r) => r !== '--' && r !== '');
    const before = rows.filter((r) => / one$/.test(r));
    expect(before.map((r) => fileOf(r, '-')).sort()).toEqual([...names].sort());
    // Names that read as nothing else stay bare, as rg prints them.
    expect(hits.content).toContain('plain.ts:2:1: needle');
    expect(hits.content).toContain('v1-2.txt:2:1: needle');
  });
});

describe('a hit on a line cut for display', () => {
  it('says where the match is when it lies past the cut, and nothing more when it is shown', async () => {
    const far = `${'x'.repeat(901)}needle${'y'.repeat(300)}`;
    const near = `needle${'y'.repeat(900)}`;
    const result = await grepTool({ query: 'needle' }, workspace({ 'far.txt': `${far}\n`, 'near.txt': `${near}\n` }));
    const rows = result.content.split('\n');
    expect(rows.find((r) => r.startsWith('far.txt:1:902: '))).toMatch(/^far\.txt:1:902: x+… \(the match, at column 902, lies past the cut\)$/);
    expect(rows.find((r) => r.startsWith('near.txt:1:1: '))).toMatch(/^near\.txt:1:1: needley+…$/);
  });
});

describe('the model\'s own text, echoed, forges no line and hides nothing', () => {
  // JSON.stringify leaves these raw: a line separator, a bidi override, a C1 control, DEL, a paragraph separator.
  const FORGERS = ['\u2028', '\u2029', '\u202e', '\u0085', '\u007f', '\u2066'];
  const RAW = /[\u2028\u2029\u202e\u0085\u007f\u2066]/u;

  it('in a grep query, a glob pattern, a path and an include: every answer\'s text holds none raw', async () => {
    const tree: Tree = { src: { 'a.ts': 'x\n' } };
    for (const c of FORGERS) {
      const text = `zzz${c}(search complete)${c}`;
      const answers = [
        await grepTool({ query: text }, workspace(tree)),
        await grepTool({ query: 'x', include: `*${c}.ts` }, workspace(tree)),
        await grepTool({ query: 'x', path: `nope${c}x` }, workspace(tree)),
        await globTool({ pattern: text }, workspace(tree)),
        await globTool({ pattern: '*.ts', path: `nope${c}x` }, workspace(tree)),
      ];
      for (const answer of answers) {
        expect(answer.content, JSON.stringify(c)).not.toMatch(RAW);
        expect(answer.summary, JSON.stringify(c)).not.toMatch(RAW);
      }
      // Shown escaped, as rows are: the model reads where the character was.
      expect(answers[0]!.content).toContain(`\\u{${c.codePointAt(0)!.toString(16)}}`);
    }
  });
});

describe('the retries on the real clock', () => {
  // The call's budget is read on a monotonic clock: what is left is a fraction of a millisecond
  // too, and the library takes whole ones (a retry once failed "timeBudgetMs must be a non-negative integer").
  it('both retries run after an empty answer, with what is left of the budget', async () => {
    const { clock: _fake, ...real } = workspace({ src: { 'notes.md': 'nothing\n' } });
    const result = await grepTool({ query: 'Needle in notes' }, real);
    expect(result.content).not.toContain('could not run');
    expect(result.content).toContain('- "Needle in notes", ignoring case: 0 matches');
    expect(result.content).toContain('- file names matching "**/*Needle*": 0 files');
  });
});
