/**
 * The compiled matchers: the fast paths (literal names, `*.ext` suffixes, `**\/` prefixes) against
 * minimatch's `Minimatch.match` (never its regex builder), and the dialect's own rules where the
 * issue's table found minimatch's `makeRe` wrong (multi-`**`, newlines, `.` segments, braces).
 * The whole-walk comparison with bash and ripgrep is test/conformance.
 */
import fc from 'fast-check';
import { Minimatch, minimatch } from 'minimatch';
import { describe, expect, it } from 'vitest';
import { buildPartialTest, buildSteppedPartialTest, compilePath } from '../src/glob/path.js';
import { buildExcluder, buildMatcher, exactGlob, normalizePattern, normalizePatternList, type GlobFlavor } from '../src/patterns.js';

const POSIX: GlobFlavor = { platform: 'posix', caseSensitive: true };
const WIN32: GlobFlavor = { platform: 'win32', caseSensitive: false };
const matcher = (globs: string[], flavor = POSIX) => buildMatcher(normalizePatternList(globs, flavor, 'pattern', false), flavor);

const nameChars = fc.constantFrom('a', 'b', 'A', '.', 'j', 's', 'x', '-', ' ', 'é', '\n');
const names = fc.string({ unit: nameChars, minLength: 1, maxLength: 8 }).filter((n) => n !== '.' && n !== '..' && n.trim() !== '');
const patterns = fc.oneof(
  names,
  names.map((n) => `*${n}`),
  names.map((n) => `*.${n}`),
  names.map((n) => `${n}*`),
  names.map((n) => `?${n}`),
);

describe('base-name matching', () => {
  it('agrees with Minimatch.match (dot: true) for literal, suffix and general patterns, on posix', () => {
    fc.assert(
      fc.property(patterns, names, (pattern, name) => {
        const expected = minimatch(name, pattern, { dot: true });
        expect(matcher([pattern]).matches(`dir/${name}`, name)).toBe(expected);
        expect(matcher([`**/${pattern}`]).matches(`dir/${name}`, name)).toBe(expected);
      }),
      { numRuns: 2000 },
    );
  });

  it('agrees with Minimatch.match (nocase) on win32, and with caseSensitive: false on posix', () => {
    fc.assert(
      fc.property(patterns, names, (pattern, name) => {
        const expected = minimatch(name, pattern, { dot: true, nocase: true });
        expect(matcher([pattern], WIN32).matches(name, name)).toBe(expected);
        expect(matcher([pattern], { platform: 'posix', caseSensitive: false }).matches(name, name)).toBe(expected);
      }),
      { numRuns: 2000 },
    );
  });

  it('folds case the same way on the literal path and the regex path (KELVIN SIGN is not k, as on NTFS)', () => {
    for (const pattern of ['k.txt', 'k.tx?', 'K.TXT', '[k].txt']) {
      const m = matcher([pattern], WIN32);
      expect(m.matches('\u212A.txt', '\u212A.txt'), pattern).toBe(false);
      expect(m.matches('K.txt', 'K.txt'), pattern).toBe(true);
    }
    expect(matcher(['*.txt'], WIN32).matches('\u212A.txt', '\u212A.txt')).toBe(true);
    expect(matcher(['readme*'], { platform: 'posix', caseSensitive: false }).matches('README.md', 'README.md')).toBe(true);
    expect(matcher(['readme*']).matches('README.md', 'README.md')).toBe(false);
    expect(matcher(['README*'], { platform: 'win32', caseSensitive: true }).matches('readme.md', 'readme.md')).toBe(false);
  });
});

describe('the dialect', () => {
  const cases: [string, string, boolean][] = [
    // multi-** (minimatch 10.2.6's makeRe drops the second one)
    ['pkg/**/src/**/*.ts', 'pkg/core/src/util/s.ts', true],
    ['pkg/**/src/**/*.ts', 'pkg/src/s.ts', true],
    ['src/**/__tests__/**/*.ts', 'src/a/__tests__/b/c.ts', true],
    ['src/**/__tests__/**/*.ts', 'src/__tests__/c.ts', true],
    ['a/**/b/**/c/**/d', 'a/b/c/d', true],
    ['a/**/b/**/c/**/d', 'a/x/b/y/c/z/d', true],
    ['a/**/b', 'a/bb', false],
    // newlines in names are characters like any other
    ['**', 'top\nfile', true],
    ['d/**', 'd/x\ny/f', true],
    ['*', 'a\nb', true],
    ['a?b', 'a\nb', true],
    ['**/*.ts', 'd\nx/in.ts', true],
    // a trailing ** needs one more segment for a file
    ['a/**', 'a', false],
    ['a/**', 'a/x/y', true],
    // ? is one character, a code point
    ['?', '😀', true],
    ['??', '😀', false],
    ['?.js', 'é.js', true],
    // classes
    ['[ab].js', 'a.js', true],
    ['[!ab].js', 'a.js', false],
    ['[^ab].js', 'c.js', true],
    ['[a-c]', 'b', true],
    ['[]a]', ']', true],
    ['[[:digit:]]x', '7x', true],
    ['[z-a]', 'q', false],
    ['[😀x]', '😀', true],
    ['[!x]', '😀', true],
    ['[ab', '[ab', true], // unclosed: literal
    // extglobs
    ['@(a|b).js', 'b.js', true],
    ['+(ab).js', 'abab.js', true],
    ['*(ab).js', '.js', true],
    ['?(x)y', 'y', true],
    ['!(a)', 'a', false],
    ['!(a)', 'b', true],
    ['!(*.ts)', 'x.js', true],
    ['*.!(js)', 'a.js', false],
    ['*.!(js)', 'a.b.js', true],
    ['*.!(js)', 'a.ts', true],
    ['@(a', '@(a', true], // unclosed: literal
    // a `/` inside a closed group splits nothing: one name pattern, as bash reads it (its `a/b`
    // matches no name); a slash-less pattern so, at any depth
    ['@(a/b|c)', 'c', true],
    ['@(a/b|c)', 'x/c', true],
    ['@(a/b|c)', 'a/b', false],
    ['*(a/b|c)', 'c', true],
    ['x/@(a/b|c)', 'x/c', true],
    ['x/@(a/b|c)', 'x/a/b', false],
    ['@(a/b|c)/q', 'c/q', true],
    ['./@(a/b|c)', 'c', true],
    ['./@(a/b|c)', 'x/c', false],
    ['@(../x|c)', 'c', true],
    ['@(x|a)/b', 'a/b', true],
    // an open one holds the rest, `/` included: one name pattern that no name matches (bash), so
    // only the literal reading finds the path `@(a/b`; with a `*` it has none
    ['@(a/b', '@(a/b', true],
    ['x/@(a/b', 'x/@(a/b', true],
    ['x*@(a/b', 'x*@(a/b', false],
    ['x/**/@(a/b', 'x/y/@(a/b', false],
    // nor does a plain `(`
    ['x(/b)', 'x(/b)', true],
    ['x(/*)', 'x(/b)', true],
    // an unclosed *( is the plain text of the rest, as bash compares it (this once looped forever)
    ['*(x', '*(x', true],
    ['*(x', 'a(x', false],
    ['**/*(*', '*(*', true],
    ['**/*(*', 'q(z', false],
    // escapes (posix)
    ['a\\*b', 'a*b', true],
    ['a\\*b', 'axb', false],
    ['x\\{1,2\\}', 'x{1,2}', true],
    ['x\\{1,2\\}', 'x1', false],
    // brace alternatives, each normalised
    ['{./a/b/c,zzz}', 'a/b/c', true],
    ['a/./b/c', 'a/b/c', true],
    ['src/./a.ts', 'src/a.ts', true],
    ['a//b', 'a/b', true],
    ['{1..3}.txt', '2.txt', true],
    // braces around a newline expand; an escaped backslash stays one literal backslash
    ['{n\nl.ts,x1}', 'n\nl.ts', true],
    ['{😀,d\nx}/in.ts', 'd\nx/in.ts', true],
    ['a\\\\b', 'a\\b', true],
    ['{x,y}\\\\*', 'y\\z', true],
    // `./x` is the root's x (bash), not x at any depth
    ['./x1', 'x1', true],
    ['./x1', 'a/x1', false],
    ['{./x1,zzz}', 'a/zzz', true],
    ['{./x1,zzz}', 'a/x1', false],
    ['./!(zz)', 'a/b', false],
    ['./!(zz)', 'b', true],
    // POSIX classes as bash in a UTF-8 locale
    ['[[:alnum:]]文.ts', '中文.ts', true],
    ['[[:alpha:]]', 'é', true],
    ['[[:upper:]]*', 'Ωmega', true],
    ['[[:digit:]]', '٣', false],
    ['[![:alpha:]]x', '中x', false],
  ];
  it.each(cases)('%j against %j is %s', (pattern, path, expected) => {
    const name = path.slice(path.lastIndexOf('/') + 1);
    expect(matcher([pattern]).matches(path, name)).toBe(expected);
  });

  it('reads a pattern literally too when its text names a path the glob does not (app/[id]/page.tsx)', () => {
    const m = matcher(['app/[id]/page.tsx']);
    expect(m.matches('app/[id]/page.tsx', 'page.tsx')).toBe(true);
    expect(m.matches('app/i/page.tsx', 'page.tsx')).toBe(true);
    expect(m.couldMatchInside('app/[id]')).toBe(true);
    expect(matcher(['[id].ts']).matches('x/[id].ts', '[id].ts')).toBe(true);
    expect(matcher(['(group)/@(a|b)'], WIN32).matches('(group)/@(a|b)', '@(a|b)')).toBe(true);
    // an escaped pattern is a glob on purpose: no literal reading
    expect(normalizePattern('\\[id\\]', POSIX, 'pattern')).toEqual(['\\[id\\]']);
  });

  it('refuses !(...) where no regex says what bash means, and a leading ! that is a negation', () => {
    for (const bad of ['a!(b)c', '!(a)b', '@(x|!(y))']) {
      expect(() => matcher([bad]), bad).toThrow(expect.objectContaining({ code: 'FF_INVALID_PATTERN' }));
    }
    expect(() => matcher(['!*.js'])).toThrow(/negation/);
    expect(matcher(['!(a)']).matches('b', 'b')).toBe(true);
  });
});

describe('path matching and pruning', () => {
  it('prunes only directories a rooted pattern cannot enter', () => {
    const m = matcher(['src/**/*.ts', 'docs/*.md']);
    expect(m.prunes).toBe(true);
    expect(m.couldMatchInside('src')).toBe(true);
    expect(m.couldMatchInside('src/a/b')).toBe(true);
    expect(m.couldMatchInside('docs')).toBe(true);
    expect(m.couldMatchInside('docs/sub')).toBe(false);
    expect(m.couldMatchInside('lib')).toBe(false);
    expect(m.matches('src/a/b.ts', 'b.ts')).toBe(true);
    expect(m.matches('docs/sub/x.md', 'x.md')).toBe(false);
  });

  it('prunes a multi-** pattern only where no way through remains', () => {
    const m = matcher(['pkg/**/src/**/*.ts']);
    for (const dir of ['pkg', 'pkg/core', 'pkg/core/src', 'pkg/core/src/util', 'pkg/src']) expect(m.couldMatchInside(dir), dir).toBe(true);
    expect(m.couldMatchInside('lib')).toBe(false);
    const exact = matcher(['a/b/c']);
    expect(exact.couldMatchInside('a/b')).toBe(true);
    expect(exact.couldMatchInside('a/b/c')).toBe(false);
  });

  it('prunes a literal prefix then ** by string compares exactly as the general test would', () => {
    // The fast shape (`lit/lit/**/...`) against the stepped test, and against Minimatch.match on a
    // file one level below the directory: it could match inside exactly when such a file, named
    // for the pattern's tail, would match.
    const lit = fc.constantFrom('a', 'b', 'ab', '.a', 'a.b', '@s', 'A');
    const tail = fc.constantFrom('*.ts', 'x.ts', '*', '**', 'a/*.ts');
    const dirName = fc.constantFrom('a', 'b', 'ab', '.a', 'a.b', '@s', 'A', 'z');
    fc.assert(
      fc.property(fc.array(lit, { minLength: 0, maxLength: 3 }), tail, fc.array(dirName, { minLength: 1, maxLength: 5 }), (prefix, rest, dir) => {
        const glob = [...prefix, '**', rest].join('/');
        const segments = compilePath(glob, true, glob, true);
        const relDir = dir.join('/');
        const fast = buildPartialTest(segments, true)(relDir);
        expect(fast, `${glob} in ${relDir}`).toBe(buildSteppedPartialTest(segments)(relDir));
        // A witness below: the rest of the literal path (if any is left), then a name the tail takes.
        const onPath = dir.every((d, i) => i >= prefix.length || d === prefix[i]);
        const witness = [relDir, ...(onPath ? prefix.slice(dir.length) : []), ...(rest === 'a/*.ts' ? ['a', 'w.ts'] : rest === 'x.ts' ? ['x.ts'] : ['w.ts'])].join('/');
        expect(fast, `${glob} in ${relDir}, witness ${witness}`).toBe(new Minimatch(glob, { dot: true }).match(witness));
      }),
      { numRuns: 3000, seed: 20261203 },
    );
    // Case-insensitive globs keep the general test (the fast one compares exact strings).
    const folded = buildMatcher(normalizePatternList(['Src/**/*.ts'], WIN32, 'pattern', false), WIN32);
    expect(folded.couldMatchInside('src/a')).toBe(true);
    expect(folded.couldMatchInside('lib')).toBe(false);
  });

  it('agrees with Minimatch.match on whole paths for random path patterns', () => {
    const seg = fc.constantFrom('a', 'b', '*', '**', '?', 'a*', '*.ts', '[ab]');
    const pathSeg = fc.constantFrom('a', 'b', 'ab', 'x.ts', 'a.ts', '.h');
    fc.assert(
      fc.property(fc.array(seg, { minLength: 2, maxLength: 5 }), fc.array(pathSeg, { minLength: 1, maxLength: 5 }), (segs, parts) => {
        const pattern = segs.join('/');
        // minimatch reads `**/**` as something other than `**`; bash and find-file read it as `**`.
        if (pattern.includes('**/**')) return;
        const path = parts.join('/');
        // minimatch lets `a/**` match `a` itself; for a file find-file does not (rg and bash agree):
        // for files, `x/**` means `x/**/*`.
        const expected = minimatch(path, pattern.endsWith('/**') ? `${pattern}/*` : pattern, { dot: true });
        const name = parts[parts.length - 1]!;
        expect(matcher([pattern]).matches(path, name), `${pattern} vs ${path}`).toBe(expected);
      }),
      { numRuns: 3000 },
    );
  });

  it('does not let dir/** match a file named dir (minimatch does, bash and rg do not)', () => {
    const m = matcher(['a/**']);
    expect(m.matches('a', 'a')).toBe(false);
    expect(m.matches('a/x', 'x')).toBe(true);
  });

  it('never prunes when any pattern matches base names', () => {
    const m = matcher(['src/*.ts', '*.md']);
    expect(m.prunes).toBe(false);
    expect(m.couldMatchInside('anything/at/all')).toBe(true);
  });

  it('excludes directories matched by the directory or by everything below it, alternatives each normalised', () => {
    const excluder = (globs: string[]) => buildExcluder(normalizePatternList(globs, POSIX, 'exclude', true), POSIX);
    const e = excluder(['dist/**', 'cache/', '*.log']);
    expect(e.isExcluded('dist', 'dist', true)).toBe(true);
    expect(e.isExcluded('cache', 'cache', true)).toBe(true);
    expect(e.isExcluded('cache', 'cache', false)).toBe(false);
    expect(e.isExcluded('a/b.log', 'b.log', false)).toBe(true);
    expect(e.isExcluded('src', 'src', true)).toBe(false);
    const nested = excluder(['**/dist/**']);
    expect(nested.isExcluded('a/dist', 'dist', true)).toBe(true);
    expect(nested.isExcluded('a/dist', 'dist', false)).toBe(false); // a file named dist is not below dist
    expect(nested.isExcluded('a/dist/x.js', 'x.js', false)).toBe(true);
    expect(excluder(['{./dist,zzz}']).isExcluded('dist', 'dist', true)).toBe(true);
    expect(excluder(['pkg/**/src/**/*.ts']).isExcluded('pkg/core/src/util/s.ts', 's.ts', false)).toBe(true);
  });
});

describe('normalizePattern', () => {
  it('turns win32 separators into / and strips ./ from every alternative', () => {
    expect(normalizePattern('.\\src\\*.ts', WIN32, 'pattern')).toEqual(['src/*.ts']);
    expect(normalizePattern('./src/*.ts', POSIX, 'pattern')).toEqual(['src/*.ts']);
    expect(normalizePattern('{./a/b/c,zzz}', POSIX, 'pattern')).toEqual(['a/b/c', 'zzz']);
    expect(normalizePattern('a/./b/./c', POSIX, 'pattern')).toEqual(['a/b/c']);
  });

  it('expands braces once: escaped braces stay literal', () => {
    // The escapes stay in the alternative (a glob), where they mean the characters themselves.
    expect(normalizePattern('x\\{1,2\\}', POSIX, 'pattern')).toEqual(['x\\{1,2\\}']);
    expect(buildMatcher(['x\\{1,2\\}'], POSIX).matches('x{1,2}', 'x{1,2}')).toBe(true);
    expect(normalizePattern('*.{js,ts}', POSIX, 'pattern')).toEqual(['*.js', '*.ts']);
  });

  it('keeps a backslash as an escape on posix', () => {
    expect(normalizePattern('a\\*b', POSIX, 'pattern')).toEqual(['a\\*b']);
  });

  it('refuses what climbs out or names the root, per alternative', () => {
    for (const bad of ['{..,a}/x', '/etc/*', 'a/../b', '{.,./}', './']) {
      expect(() => normalizePattern(bad, POSIX, 'pattern'), bad).toThrow(expect.objectContaining({ code: expect.stringMatching(/^FF_(PATTERN_OUTSIDE_ROOT|INVALID_PATTERN)$/) }));
    }
  });
});

describe('what the caller is told (issue 28: each row kills a mutant of src/patterns.ts)', () => {
  const refused = (raw: unknown, code: string, words: RegExp, flavor = POSIX) =>
    expect(() => normalizePattern(raw, flavor, 'pattern'), String(raw)).toThrow(expect.objectContaining({ code, option: 'pattern', message: expect.stringMatching(words) }));

  it('refuses a non-string, an empty pattern, a NUL byte and a negation, naming the rule', () => {
    refused(3, 'FF_INVALID_PATTERN', /must be a string or an array of strings, got number$/);
    refused(null, 'FF_INVALID_PATTERN', /got null$/);
    refused(['x'], 'FF_INVALID_PATTERN', /got array$/);
    refused('', 'FF_INVALID_PATTERN', /^pattern is empty/);
    // Blank is refused, but never called empty: a name of white space can exist.
    refused(' \t', 'FF_INVALID_PATTERN', /^pattern " \\t" is only white space: .*\("\\ "\)$/);
    refused('a\0b', 'FF_INVALID_PATTERN', /holds a NUL byte/);
    refused('!a', 'FF_INVALID_PATTERN', /is a negation/);
    refused('C:/x/*.ts', 'FF_PATTERN_OUTSIDE_ROOT', /is absolute/, WIN32);
    refused('.', 'FF_INVALID_PATTERN', /names the root itself/);
  });

  it('accepts a pattern of exactly the longest length, and refuses one character more with the count', () => {
    expect(normalizePattern('a'.repeat(10_000), POSIX, 'pattern')).toEqual(['a'.repeat(10_000)]);
    refused('a'.repeat(10_001), 'FF_PATTERN_TOO_LARGE', /^pattern is 10,001 characters long, over the limit of 10,000$/);
  });

  it('a drive letter is only absolute on win32; on posix C:x is a name', () => {
    expect(normalizePattern('C:x', POSIX, 'pattern')).toEqual(['C:x']);
  });

  it('names the pattern of a list by its index, a lone string by the option', () => {
    const option = (raw: unknown) => {
      try {
        normalizePatternList(raw, POSIX, 'pattern', false);
      } catch (error) {
        return (error as { option: string }).option;
      }
      return undefined;
    };
    expect(option('')).toBe('pattern');
    expect(option([''])).toBe('pattern[0]');
    expect(option(['a', ''])).toBe('pattern[1]');
    expect(normalizePatternList([], POSIX, 'exclude', true)).toEqual([]);
    expect(() => normalizePatternList([], POSIX, 'pattern', false)).toThrow(/empty list/);
  });

  it('keeps a directory-only mark and anchors ./x at the root', () => {
    expect(normalizePattern('dist/', POSIX, 'exclude')).toEqual(['dist/']);
    expect(normalizePattern('./x', POSIX, 'pattern')).toEqual(['/x']);
    expect(normalizePattern('a//b', POSIX, 'pattern')).toEqual(['a/b']);
    expect(matcher(['./x']).matches('sub/x', 'x')).toBe(false);
    expect(matcher(['./x']).matches('x', 'x')).toBe(true);
  });

  it('an exact glob escapes what a glob reads as syntax, braces only when asked; on win32 as a one-character class', () => {
    expect(exactGlob('a*b?[c](d){e}\\', 'posix', true)).toBe('a\\*b\\?\\[c]\\(d)\\{e}\\\\');
    expect(exactGlob('{e}', 'posix', false)).toBe('{e}');
    expect(exactGlob('a*b?[c](d)', 'win32', true)).toBe('a[*]b[?][[]c][(]d)');
    expect(exactGlob('x{a,b}', 'win32', true)).toBeUndefined();
    expect(exactGlob('x{1..2}', 'win32', true)).toBeUndefined();
    expect(exactGlob('x{a,b}', 'win32', false)).toBe('x{a,b}');
    expect(exactGlob('x{a}', 'win32', true)).toBe('x{a}');
  });

  it('matches base names, paths, or both, by the shape of each alternative', () => {
    const both = matcher(['*.md', 'src/*.ts']);
    expect(both.nameOnly).toBe(false);
    expect(both.prunes).toBe(false);
    expect(both.matches('deep/x.md', 'x.md')).toBe(true);
    expect(both.matches('src/a.ts', 'a.ts')).toBe(true);
    expect(both.matches('lib/a.ts', 'a.ts')).toBe(false);
    expect(both.couldMatchInside('anything')).toBe(true);
    const names = matcher(['*.md']);
    expect(names.nameOnly).toBe(true);
    expect(names.matches('ignored-path', 'x.md')).toBe(true);
    const paths = matcher(['src/*.ts']);
    expect(paths.prunes).toBe(true);
    expect(paths.couldMatchInside('lib')).toBe(false);
    expect(paths.couldMatchInside('src')).toBe(true);
  });

  it('asks undecoded names and paths both ways (U+FFFD)', () => {
    expect(matcher(['??.txt']).couldMatchUndecoded('d/\uFFFD.txt', '\uFFFD.txt')).toBe(true);
    expect(matcher(['d/??.txt']).couldMatchUndecoded('d/\uFFFD.txt', '\uFFFD.txt')).toBe(true);
    expect(matcher(['d/ab.txt']).couldMatchUndecoded('d/\uFFFD.txt', '\uFFFD.txt')).toBe(false);
  });

  it('an excluder with nothing to exclude is inactive; a directory-only rule leaves files alone', () => {
    const none = buildExcluder([], POSIX);
    expect(none.active).toBe(false);
    expect(none.isExcluded('x', 'x', false)).toBe(false);
    const dirs = buildExcluder(normalizePatternList(['build/'], POSIX, 'exclude', false), POSIX);
    expect(dirs.active).toBe(true);
    expect(dirs.isExcluded('build', 'build', true)).toBe(true);
    expect(dirs.isExcluded('build', 'build', false)).toBe(false);
    expect(dirs.isExcluded('a/build', 'build', true)).toBe(true);
  });

  it('a drive letter is absolute on win32 only at the start; ".." is refused by name', () => {
    expect(normalizePattern('a/c:b', WIN32, 'pattern')).toEqual(['a/c:b']);
    // Said as it is: `a/../b` stays inside the root (refused all the same, with the path without it); `a/../../b` climbs out.
    refused('a/../b', 'FF_PATTERN_OUTSIDE_ROOT', /^pattern "a\/\.\.\/b" holds "\.\.", which a pattern may not, even inside the root: .* \(write "b"\)$/);
    refused('a/./../../b', 'FF_PATTERN_OUTSIDE_ROOT', /^pattern "a\/\.\/\.\.\/\.\.\/b" climbs out of the root with "\.\."/);
    refused('../b', 'FF_PATTERN_OUTSIDE_ROOT', /climbs out of the root/);
    refused('{a/..,c}/b', 'FF_PATTERN_OUTSIDE_ROOT', /even inside the root: paths are matched as read down from the root, and never hold "\.\."$/);
  });

  it('the literal reading keeps the anchor of ./x and the directory-only mark', () => {
    expect(normalizePattern('./[id]', POSIX, 'pattern')).toEqual(['/[id]', '/\\[id]']);
    expect(normalizePattern('app/[id]/', POSIX, 'pattern')).toEqual(['app/[id]/', 'app/\\[id]/']);
    expect(normalizePattern('./[id]/', POSIX, 'pattern')).toEqual(['/[id]/', '/\\[id]/']);
    // The root's [id] only, not one deeper: the literal alternative is anchored too.
    const m = matcher(['./[id]']);
    expect(m.matches('[id]', '[id]')).toBe(true);
    expect(m.matches('sub/[id]', '[id]')).toBe(false);
  });

  it('on win32 the literal reading of a text holding braces that are no set is the text itself (the alternatives are final)', () => {
    expect(normalizePattern('[x]{a}', WIN32, 'pattern')).toEqual(['[x]{a}', '[[]x]{a}']);
  });

  it('a brace set expands first and is never read literally, with magic beside it or not', () => {
    for (const flavor of [POSIX, WIN32]) {
      expect(normalizePattern('[x]{a,b}', flavor, 'pattern')).toEqual(['[x]a', '[x]b']);
      expect(normalizePattern('a{1..2}[x].txt', flavor, 'pattern')).toEqual(['a1[x].txt', 'a2[x].txt']);
      expect(normalizePattern('app/{x}/[id]', flavor, 'pattern')).toEqual(['app/{x}/[id]', flavor === POSIX ? 'app/{x}/\\[id]' : 'app/{x}/[[]id]']);
    }
  });

  it('on win32 an empty first or last brace alternative is still an expansion, which has no exact glob', () => {
    expect(normalizePattern('{,b}x', POSIX, 'pattern')).toEqual(['x', 'bx']);
    expect(exactGlob('{,b}x', 'win32', true)).toBeUndefined();
    expect(exactGlob('{a,}x', 'win32', true)).toBeUndefined();
    expect(exactGlob('{a,bc}', 'win32', true)).toBeUndefined();
  });

  it('an exclude: a backslash escapes on posix, ./x leaves out the root file x only, and its cost is counted', () => {
    const escaped = buildExcluder(normalizePatternList(['a\\*'], POSIX, 'exclude', false), POSIX);
    expect(escaped.isExcluded('a*', 'a*', false)).toBe(true);
    expect(escaped.isExcluded('ab', 'ab', false)).toBe(false);
    const anchored = buildExcluder(normalizePatternList(['./x'], POSIX, 'exclude', false), POSIX);
    expect(anchored.isExcluded('x', 'x', false)).toBe(true);
    expect(anchored.isExcluded('x', 'x', true)).toBe(true);
    expect(anchored.isExcluded('sub/x', 'x', false)).toBe(false);
    // The engine checks its clock more often when each entry costs more (src/walk/engine.ts checkInterval).
    // Both sets are asked: `*.log` costs 5 as a file glob and 5 as a directory glob, `build/` 1 as a directory glob.
    expect(buildExcluder(['*.log'], POSIX).cost).toBe(10);
    expect(buildExcluder(['*.log', 'build/'], POSIX).cost).toBe(11);
  });
});
