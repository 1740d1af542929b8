/**
 * Every flag that takes a value, given a switch's form: `--no-X` (yargs accepts it for any flag and
 * hands `false` on) or `--X` with no value. Each must be a usage error (status 2) that names the
 * flag, never a JS error ("root.split is not a function") nor a hang (`--no-name-regex` spun at
 * 100% CPU in the regex reader). Generated from the flag table, so a new flag is covered too.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFlags } from '../../src/cli/flags.js';
import { runFindFile, writeTree } from '../helpers/cli.js';

/** The built reader (the CLI tests run the build anyway). */
const READER = new URL('../../dist/regex-syntax.js', import.meta.url).href;

let tree: string;
beforeAll(() => {
  tree = mkdtempSync(join(tmpdir(), 'find-file-cli-value-flags-'));
  writeTree(tree, ['a.md']);
});
afterAll(() => rmSync(tree, { recursive: true, force: true }));

const VALUED = Object.entries(buildFlags(0)).filter(([, spec]) => spec.type === 'string').map(([name]) => name);

describe('a flag that takes a value, in a switch form', () => {
  it('the table has the valued flags this file is about', () => {
    expect(VALUED).toEqual(expect.arrayContaining(['root', 'name-regex', 'type', 'extension', 'changed-within', 'contains', 'color', 'jobs']));
  });

  const cases = VALUED.flatMap((name) => [
    { name, argv: ['*.md', `--no-${name}`] },
    { name, argv: ['*.md', `--${name}`] },
    // The last value wins: a negation after a value reached the coercer as [value, false].
    { name, argv: ['*.md', `--${name}`, 'x', `--no-${name}`] },
  ]);
  it.each(cases)('$argv is a usage error naming the flag', ({ name, argv }) => {
    const run = runFindFile(argv, { cwd: tree }); // spawnSync's timeout: a hang ends as status null
    expect({ status: run.status, stdout: run.stdout }).toEqual({ status: 2, stdout: '' });
    const last = run.stderr.trim().split('\n').at(-1)!;
    expect(last).toMatch(/^find-file: error: /);
    expect(last).toContain(name);
    expect(last).not.toMatch(/is not a function|unexpected failure|undefined/);
  });
});

describe('the regex reader', () => {
  it('throws on a non-string instead of looping forever (in a child with a timeout: a sync loop would stall the runner)', () => {
    const script = `import { readRegexSyntax } from ${JSON.stringify(READER)}; try { readRegexSyntax(false); console.log('returned') } catch (e) { console.log(e.name) }`;
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 10_000 });
    expect({ status: child.status, stdout: child.stdout.trim() }).toEqual({ status: 0, stdout: 'TypeError' });
  });
});
