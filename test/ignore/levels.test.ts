/**
 * The chain of ignore levels a walk carries: a directory adds a level only when it brings rules or
 * starts a repository. A level with neither was asked by every entry below it (five sources each, a
 * path joined for each): ~50 ms of CPU in a listing of /usr, whose root's parents hold no ignore file.
 */
import { describe, expect, it } from 'vitest';
import { buildIgnoreLevel, ignoreNamesIn, isIgnored } from '../../src/walk/ignore.js';

describe('an ignore level is made only when something applies', () => {
  it('no rules and no .git, nothing above: no level at all', () => {
    expect(buildIgnoreLevel(undefined, '', { hasGit: false })).toBeUndefined();
    // Files that hold no rule (blank lines, comments) count as none.
    expect(buildIgnoreLevel(undefined, 'a/', { hasGit: false, ignore: '\n# nothing\n', rgignore: '' })).toBeUndefined();
  });

  it('no rules and no .git under a level: the level above stands, the same object', () => {
    const above = buildIgnoreLevel(undefined, '', { hasGit: false, ignore: '*.log\n' });
    expect(above).toBeDefined();
    expect(buildIgnoreLevel(above, 'sub/', { hasGit: false })).toBe(above);
  });

  it('a .git alone makes a level (the repository starts there: its .gitignore files apply below)', () => {
    const top = buildIgnoreLevel(undefined, 'repo/', { hasGit: true });
    expect(top).toMatchObject({ hasGit: true, inRepository: true });
    const below = buildIgnoreLevel(top, 'repo/src/', { hasGit: false, gitignore: '*.tmp\n' });
    expect(isIgnored(below, 'repo/src/x.tmp', false)).toBe(true);
    // Outside a repository the same .gitignore is no rule, so no level.
    expect(buildIgnoreLevel(undefined, 'src/', { hasGit: false, gitignore: '*.tmp\n' })).toBeUndefined();
  });

  it('rules make a level, and what they ignore is ignored', () => {
    const level = buildIgnoreLevel(undefined, '', { hasGit: false, ignore: '*.log\n' });
    expect(isIgnored(level, 'a/b.log', false)).toBe(true);
    expect(isIgnored(level, 'a/b.txt', false)).toBe(false);
  });
});

describe('a listing asks for the ignore files that can apply in it, and only those', () => {
  const listing = (...names: string[]) => names.map((name) => ({ name }));

  it('outside a repository a .gitignore alone asks for nothing (it defines nothing there)', () => {
    expect(ignoreNamesIn(listing('a.c', '.gitignore', 'b'), false)).toBeUndefined();
    expect(ignoreNamesIn(listing('a.c', 'b'), false)).toBeUndefined();
  });

  it('inside a repository, or beside a .git, the .gitignore is asked for', () => {
    expect(ignoreNamesIn(listing('a.c', '.gitignore'), true)).toEqual(new Set(['.gitignore']));
    expect(ignoreNamesIn(listing('.git', '.gitignore'), false)).toEqual(new Set(['.git', '.gitignore']));
  });

  it('.ignore and .rgignore apply anywhere: asked for outside a repository, without the .gitignore beside them', () => {
    expect(ignoreNamesIn(listing('.gitignore', '.ignore', '.rgignore', 'x'), false)).toEqual(new Set(['.ignore', '.rgignore']));
  });
});
