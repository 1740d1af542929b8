/**
 * find-file/tinyglobby's string helpers (`escapePath`, `isDynamicPattern`, `convertPathToPattern`)
 * against the real tinyglobby 0.2 (a devDependency), as a generated oracle: several thousand
 * seeded strings, rich in the characters these rules are about, each through the POSIX and the
 * win32 variant of our helpers and of tinyglobby's. tinyglobby picks its variant once, from
 * `process.platform` when it is loaded: its win32 variant here is a fresh copy loaded while
 * `process.platform` reads 'win32' (and checked to be that variant before it is trusted).
 * Hand-picked cases follow, one per rule, with the answer written out and tinyglobby's checked too.
 */
import { createRequire } from 'node:module';
import * as peer from 'tinyglobby';
import { describe, expect, it } from 'vitest';
import * as entry from '../../src/compat/tinyglobby.js';
import {
  convertPosixPathToPattern,
  convertWin32PathToPattern,
  escapePosixPath,
  escapeWin32Path,
  helpersFor,
  isDynamicPattern,
  win32EscapesAsSets,
} from '../../src/compat/tinyglobby-paths.js';
import { findFilesSync } from '../../src/find.js';
import { FakeClock, asFs, buildVolume, win32Fs } from '../helpers/memfs.js';
import { mulberry32 } from '../helpers/prng.js';

type Peer = typeof peer;

/**
 * A fresh copy of tinyglobby, loaded as if on `platform`. Through `require` (its CommonJS build,
 * the same code as the ES one) because Node's require cache can be emptied of one file, so the
 * copy computes its platform choice again; the override lasts for the synchronous load only.
 */
function loadPeerAs(platform: NodeJS.Platform): Peer {
  const require = createRequire(import.meta.url);
  const file = require.resolve('tinyglobby');
  const real = Object.getOwnPropertyDescriptor(process, 'platform')!;
  delete require.cache[file];
  Object.defineProperty(process, 'platform', { ...real, value: platform });
  try {
    return require(file) as Peer;
  } finally {
    Object.defineProperty(process, 'platform', real);
    delete require.cache[file];
  }
}

const peerPosix = loadPeerAs('linux');
const peerWin32 = loadPeerAs('win32');

// Where a generated string starts: negations, `./`, drive letters, UNC and long-path prefixes.
const PREFIXES = ['', '', '', '', '!', '!!', '!./', './', '././', 'C:', 'C:\\', 'c:/', '//', '\\\\', '\\\\?\\', '//?/', '\\\\server\\share\\', '!(', '\\{', '\\!'];
// Every character a rule names, some twice or as a pair (`..`, `\\`, `{,}`, `C:`), a NUL (picomatch's
// inner scans stop there) and letters, so that a string gets past its first magic character often enough.
const ALL = [
  ...'\\/()[]{}!*+?@|,.:-^$ ',
  '\\', '/', '(', '{', '[', ']', '}', ',', '.', '!',
  '..', '\\\\', 'C:', '{,}', '\0', 'é', '😀',
  'a', 'b', 'Z', 'a', 'b', 'x', 'y', 'src', '9',
];

interface Family {
  name: string;
  count: number;
  prefixes: readonly string[];
  tokens: readonly string[];
}

// The wide family meets most strings' first magic character early; the narrow ones keep a scan
// going, so that what a brace or set body holds, and escapes next to escapes, decide the answer.
const FAMILIES: Family[] = [
  { name: 'every character', count: 4000, prefixes: PREFIXES, tokens: ALL },
  { name: 'brace bodies', count: 1000, prefixes: ['{', '{', 'a{', '!{', '\\{'], tokens: [...'{},.\\a/!', '\0'] },
  { name: 'set bodies', count: 500, prefixes: ['[', 'a[', '!['], tokens: [...'[]\\a!^-/.', '\0'] },
  { name: 'escapes', count: 500, prefixes: ['', '!', '\\'], tokens: [...'\\\\()[]{}!+@*?|a/'] },
];
const COUNT = FAMILIES.reduce((sum, f) => sum + f.count, 0);

/** `count` distinct strings of one family, from a seeded stream (the same on every machine). */
function generate(seed: number, { count, prefixes, tokens }: Family): string[] {
  const next = mulberry32(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const strings = new Set<string>();
  while (strings.size < count) {
    let s = pick(prefixes);
    const length = Math.floor(next() * 13);
    for (let i = 0; i < length; i++) s += pick(tokens);
    strings.add(s);
  }
  return [...strings];
}

const generated = FAMILIES.map((family, i) => ({ family: family.name, strings: generate(0x7196_1ab5 + i, family) }));
const inputs = [...new Set(generated.flatMap((g) => g.strings))];

interface Helper {
  name: string;
  ours: (s: string) => string | boolean;
  theirs: (s: string) => string | boolean;
}

// Each helper, each platform variant, and the public entry's choice on this machine.
const HELPERS: Helper[] = [
  { name: 'escapePath (posix)', ours: escapePosixPath, theirs: peerPosix.escapePath },
  { name: 'escapePath (win32)', ours: escapeWin32Path, theirs: peerWin32.escapePath },
  { name: 'convertPathToPattern (posix)', ours: convertPosixPathToPattern, theirs: peerPosix.convertPathToPattern },
  { name: 'convertPathToPattern (win32)', ours: convertWin32PathToPattern, theirs: peerWin32.convertPathToPattern },
  { name: 'isDynamicPattern', ours: (s) => isDynamicPattern(s), theirs: (s) => peer.isDynamicPattern(s) },
  { name: 'isDynamicPattern (win32 copy)', ours: (s) => isDynamicPattern(s), theirs: (s) => peerWin32.isDynamicPattern(s) },
  { name: 'isDynamicPattern { caseSensitiveMatch: false }', ours: (s) => isDynamicPattern(s, { caseSensitiveMatch: false }), theirs: (s) => peer.isDynamicPattern(s, { caseSensitiveMatch: false }) },
  { name: 'isDynamicPattern { caseSensitiveMatch: true }', ours: (s) => isDynamicPattern(s, { caseSensitiveMatch: true }), theirs: (s) => peer.isDynamicPattern(s, { caseSensitiveMatch: true }) },
  { name: `escapePath (entry, ${process.platform})`, ours: entry.escapePath, theirs: peer.escapePath },
  { name: `convertPathToPattern (entry, ${process.platform})`, ours: entry.convertPathToPattern, theirs: peer.convertPathToPattern },
  { name: 'isDynamicPattern (entry)', ours: (s) => entry.isDynamicPattern(s), theirs: (s) => peer.isDynamicPattern(s) },
];

describe('the oracle: tinyglobby loaded as each platform', () => {
  it('the two copies are the two variants (escapePath and convertPathToPattern differ on `*` and `\\`)', () => {
    expect([peerPosix.escapePath('C:\\a*'), peerPosix.convertPathToPattern('C:\\a*')]).toEqual(['C:\\\\a\\*', 'C:\\\\a\\*']);
    expect([peerWin32.escapePath('C:\\a*'), peerWin32.convertPathToPattern('C:\\a*')]).toEqual(['C:\\a*', 'C:/a*']);
    expect(peer.escapePath('a*')).toBe(process.platform === 'win32' ? 'a*' : 'a\\*');
  });

  it(`generated ${COUNT} distinct strings that reach every kind of answer`, () => {
    expect(inputs.length).toBeGreaterThan(COUNT * 0.95); // the families may share a few strings
    // Each family gets both answers from isDynamicPattern, in good numbers.
    const shares = generated.map(({ family, strings }) => ({ family, share: strings.filter((s) => peer.isDynamicPattern(s)).length / strings.length }));
    expect(shares.filter(({ share }) => share < 0.15 || share > 0.85)).toEqual([]);
    // The variants part ways, and convert does more than escape on win32, on a good share.
    expect(inputs.filter((s) => peerPosix.escapePath(s) !== peerWin32.escapePath(s)).length).toBeGreaterThan(COUNT / 4);
    expect(inputs.filter((s) => peerWin32.escapePath(s) !== peerWin32.convertPathToPattern(s)).length).toBeGreaterThan(COUNT / 4);
  });
});

describe(`find-file's helpers give tinyglobby's answer on ${COUNT} generated strings`, () => {
  it.each(HELPERS)('$name', ({ ours, theirs }) => {
    const differences = inputs
      .map((input) => ({ input, ours: ours(input), theirs: theirs(input) }))
      .filter((d) => d.ours !== d.theirs);
    expect({ count: differences.length, first: differences.slice(0, 8) }).toEqual({ count: 0, first: [] });
  });
});

describe('the platform choice', () => {
  it('win32 takes the win32 variant, every other platform the POSIX one', () => {
    expect(helpersFor('win32')).toEqual({ escapePath: escapeWin32Path, convertPathToPattern: convertWin32PathToPattern });
    for (const platform of ['linux', 'darwin', 'freebsd'] as const) {
      expect(helpersFor(platform)).toEqual({ escapePath: escapePosixPath, convertPathToPattern: convertPosixPathToPattern });
    }
  });

  it('the entry exports the running platform variant', () => {
    expect(entry.escapePath).toBe(helpersFor(process.platform).escapePath);
    expect(entry.convertPathToPattern).toBe(helpersFor(process.platform).convertPathToPattern);
  });
});

// [input, expected answer, the rule]: `\` in the inputs and answers is one backslash.
const ESCAPE_POSIX: [string, string, string][] = [
  ['a(b)', 'a\\(b\\)', 'parentheses, brackets and braces are escaped'],
  ['[id]/{a,b}', '\\[id\\]/\\{a,b\\}', 'so are sets and braces (the `,` stays)'],
  ['a*?|', 'a\\*\\?\\|', 'wildcards and `|` are escaped on POSIX'],
  ['!a!', '\\!a!', 'a `!` is escaped first only (negation)'],
  ['a!(b)', 'a\\!\\(b\\)', '`!+@` are escaped right before `(` (extglob)'],
  ['me@host+x', 'me@host+x', 'and left alone elsewhere'],
  ['a\\b', 'a\\\\b', 'a `\\` before a plain character is a name character: escaped'],
  ['a\\', 'a\\\\', 'so is a `\\` at the end'],
  ['a\\*', 'a\\*', 'a `\\` before a magic character is taken as its escape: both kept'],
  ['a\\\\b', 'a\\\\\\b', 'one character back only: the second `\\` follows a `\\`, so it stays'],
];
const ESCAPE_WIN32: [string, string, string][] = [
  ['C:\\a(b)\\*.js', 'C:\\a\\(b\\)\\*.js', '`\\` and `*?|` are left: separators and characters no Windows name holds'],
  ['!a+(b)', '\\!a\\+\\(b\\)', 'a leading `!` and extglob leaders are escaped as on POSIX'],
];
const CONVERT_WIN32: [string, string, string][] = [
  ['C:\\src\\a(b)', 'C:/src/a\\(b\\)', 'separators become `/`, escapes stay'],
  ['\\\\?\\C:\\a', '//?/C:/a', 'a long-path prefix is separators too'],
  ['C:\\a\\*', 'C:/a/*', 'a `\\` before `*` is a separator (no name holds `*`)'],
  ['C:\\src\\(a)', 'C:/src\\(a\\)', "tinyglobby's quirk: a `\\` before a name starting `(` is read as an escape, not a separator"],
];
const DYNAMIC: [string, boolean, string][] = [
  ['src/index.ts', false, 'a plain path'],
  ['src/*.ts', true, 'a wildcard'],
  ['a\\*', false, 'an escaped wildcard'],
  ['a[b', false, 'a `[` without `]`'],
  ['a[]', true, 'a closed set, even an empty one'],
  ['{a}', false, 'a brace without `,` or `..`'],
  ['{a,', true, 'an unfinished brace with `,`'],
  ['{a..b}', true, 'a range'],
  ['\\{a*', false, 'after an escaped `{` nothing counts, not even `*`'],
  ['{a\\,}', false, 'an escaped `,`'],
  ['{.\\,}', true, "a `.` in braces takes the next character with it, so that `\\` escapes nothing"],
  ['(', true, 'any `(`'],
  ['!a', true, 'a leading `!` (negation)'],
  ['./!a', true, 'a `!` after leading `./` still negates'],
  ['a/!b', false, 'a `!` elsewhere does not'],
  ['{\0,}', false, 'the brace scan stops at a NUL'],
];

describe('one case per rule, written out (tinyglobby agreeing)', () => {
  it.each(ESCAPE_POSIX)('escapePath (posix) %j is %j: %s', (input, expected) => {
    expect([escapePosixPath(input), peerPosix.escapePath(input)]).toEqual([expected, expected]);
  });
  it.each(ESCAPE_WIN32)('escapePath (win32) %j is %j: %s', (input, expected) => {
    expect([escapeWin32Path(input), peerWin32.escapePath(input)]).toEqual([expected, expected]);
  });
  it.each(CONVERT_WIN32)('convertPathToPattern (win32) %j is %j: %s', (input, expected) => {
    expect([convertWin32PathToPattern(input), peerWin32.convertPathToPattern(input)]).toEqual([expected, expected]);
  });
  it('convertPathToPattern (posix) is escapePath: `C:\\a*` is `C:\\\\a\\*`', () => {
    expect([convertPosixPathToPattern('C:\\a*'), peerPosix.convertPathToPattern('C:\\a*')]).toEqual(['C:\\\\a\\*', 'C:\\\\a\\*']);
  });
  it.each(DYNAMIC)('isDynamicPattern %j is %j: %s', (input, expected) => {
    expect([isDynamicPattern(input), peer.isDynamicPattern(input)]).toEqual([expected, expected]);
  });
  it('escapePath and convertPathToPattern refuse a non-string with a TypeError, as tinyglobby does', () => {
    const notAPath = 5 as unknown as string;
    for (const f of [escapePosixPath, escapeWin32Path, convertWin32PathToPattern, peerPosix.escapePath, peerWin32.convertPathToPattern]) {
      expect(() => f(notAPath)).toThrow(TypeError);
    }
  });
  it('isDynamicPattern with caseSensitiveMatch: false is always true (tinyglobby then matches to fold case)', () => {
    expect([isDynamicPattern('src/index.ts', { caseSensitiveMatch: false }), peer.isDynamicPattern('src/index.ts', { caseSensitiveMatch: false })]).toEqual([true, true]);
  });
});

describe('on win32, tinyglobby\'s escapes as find-file reads them (`\\` is a separator there)', () => {
  it.each([
    ['dir \\(2\\)/app\\[1\\].exe', 'dir [(]2[)]/app[[]1[]].exe'],
    ['\\!x', '@(!)x'],
    ['a\\@\\(b\\)', 'a[@][(]b[)]'],
    ['src\\a.js', 'src\\a.js'],
    ['[\\]]x', '[\\]]x'],
  ])('%j is read as %j', (input, expected) => {
    expect(win32EscapesAsSets(input)).toBe(expected);
  });

  // Windows names with tinyglobby's magic in them, each escaped by its win32 escapePath, turned
  // into sets and searched by the win32 engine (memfs under drive paths) among look-alikes: the
  // name itself is found, and nothing else.
  it('an escaped Windows name finds that name, and only it, through the win32 engine (400 generated names)', () => {
    const random = mulberry32(0x77696e);
    const pick = (chars: string) => chars[Math.floor(random() * chars.length)]!;
    const failures: string[] = [];
    for (let i = 0; i < 400; i++) {
      const name = Array.from({ length: 2 + Math.floor(random() * 6) }, () => pick('ab()[]{}!+@ .,-x')).join('');
      if (name.trim() !== name || name.endsWith('.')) continue; // Windows trims these
      const decoys = [name.replace(/[()[\]{}!+@]/g, ''), name.replace(/[()[\]{}!+@]/g, 'a'), `${name}x`];
      const tree = { d: Object.fromEntries([name, ...decoys].filter((n) => n !== '' && !/^\.+$/.test(n)).map((n) => [n, ''])) };
      const pattern = win32EscapesAsSets(`d/${escapeWin32Path(name)}`);
      const result = findFilesSync({ root: 'C:\\proj', platform: 'win32', fs: win32Fs(asFs(buildVolume(tree, '/C/proj'))), clock: new FakeClock(), pattern, caseSensitive: true });
      if (JSON.stringify(result.matches) !== JSON.stringify([`d/${name}`])) failures.push(`${JSON.stringify(name)} as ${JSON.stringify(pattern)}: ${JSON.stringify(result.matches)}`);
    }
    expect(failures.slice(0, 10)).toEqual([]);
  });
});
