/**
 * ripgrep's own gitignore table, as data: the `ignored!` / `not_ignored!` rows of the tests in
 * `crates/ignore/src/gitignore.rs` at tag 13.0.0 (BurntSushi/ripgrep; unchanged since, up to
 * ignore-0.4.33). Each row is (name, root, gitignore text, path[, is_dir]) and says whether that
 * one gitignore ignores the path. Here each row becomes a real tree: an empty `.git/` at the top, the
 * `.gitignore` in the row's root, the path as a file, or for a directory row as a directory
 * holding `probe`. find-file with `gitignore: true` (walker, sync, stream and ripgrep forms) must
 * list the path (or the probe) exactly when the row says it is not ignored, and list what the real
 * rg lists in the same tree.
 *
 * How a row's root lands on disk: `ROOT` ("/home/foobar/rust/rg") is the tree's top, and a row's
 * path is relative to it; a relative root (`./src`, `./`, `.`, `././.`, ...) is a directory below
 * the top, where the `.gitignore` goes, and the path (a leading `./` dropped) is relative to the
 * top, as ripgrep's test reads it relative to the working directory.
 *
 * A directory row is judged by whether the walk enters the directory, which a file in it shows only
 * if no rule ignores the file itself: in ignot13 (`foo/**`, `foo` not ignored) every file in `foo`
 * is ignored. So the directory also holds `.rgignore` with `!probe`: the strongest source
 * re-includes the probe, and it is listed exactly when the directory was entered (an ignored
 * directory's ignore files are never read).
 *
 * Left out:
 * - `case_insensitive`: needs `GitignoreBuilder::case_insensitive(true)`, which rg applies only
 *   with `--ignore-file-case-insensitive`, not by default.
 * - `parse_excludes_file1..3`: parse `core.excludesFile` in a git config, i.e. the global
 *   gitignore, which `gitignore: true` never reads.
 * - On Windows only: ig39 (`?`) and ig40 (`*`), names Windows cannot hold.
 * `regression_106` (a gitignore holding one space must parse) is kept as a row: it ignores nothing.
 *
 * Rows where real rg 13 on a real disk disagrees with the row: none (checked on ripgrep 13.0.0).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchForms } from '../helpers/forms.js';
import { buildTrees, files, rgFiles, type TreeSpec, type Trees } from '../helpers/ignore-trees.js';
import { realRg } from '../helpers/real-rg.js';

interface Row {
  name: string;
  /** The row's root: `ROOT`, or relative to the working directory. */
  root: string;
  gitignore: string;
  /** As the row writes it, relative to `root` (or, with a relative root, to the working directory). */
  path: string;
  isDir: boolean;
  ignored: boolean;
}

const ROOT = '/home/foobar/rust/rg';
const ignored = (name: string, root: string, gitignore: string, path: string, isDir = false): Row => ({ name, root, gitignore, path, isDir, ignored: true });
const notIgnored = (name: string, root: string, gitignore: string, path: string, isDir = false): Row => ({ name, root, gitignore, path, isDir, ignored: false });

const ROWS: Row[] = [
  ignored('ig1', ROOT, 'months', 'months'),
  ignored('ig2', ROOT, '*.lock', 'Cargo.lock'),
  ignored('ig3', ROOT, '*.rs', 'src/main.rs'),
  ignored('ig4', ROOT, 'src/*.rs', 'src/main.rs'),
  ignored('ig5', ROOT, '/*.c', 'cat-file.c'),
  ignored('ig6', ROOT, '/src/*.rs', 'src/main.rs'),
  ignored('ig7', ROOT, '!src/main.rs\n*.rs', 'src/main.rs'),
  ignored('ig8', ROOT, 'foo/', 'foo', true),
  ignored('ig9', ROOT, '**/foo', 'foo'),
  ignored('ig10', ROOT, '**/foo', 'src/foo'),
  ignored('ig11', ROOT, '**/foo/**', 'src/foo/bar'),
  ignored('ig12', ROOT, '**/foo/**', 'wat/src/foo/bar/baz'),
  ignored('ig13', ROOT, '**/foo/bar', 'foo/bar'),
  ignored('ig14', ROOT, '**/foo/bar', 'src/foo/bar'),
  ignored('ig15', ROOT, 'abc/**', 'abc/x'),
  ignored('ig16', ROOT, 'abc/**', 'abc/x/y'),
  ignored('ig17', ROOT, 'abc/**', 'abc/x/y/z'),
  ignored('ig18', ROOT, 'a/**/b', 'a/b'),
  ignored('ig19', ROOT, 'a/**/b', 'a/x/b'),
  ignored('ig20', ROOT, 'a/**/b', 'a/x/y/b'),
  ignored('ig21', ROOT, '\\!xy', '!xy'),
  ignored('ig22', ROOT, '\\#foo', '#foo'),
  ignored('ig23', ROOT, 'foo', './foo'),
  ignored('ig24', ROOT, 'target', 'grep/target'),
  ignored('ig25', ROOT, 'Cargo.lock', './tabwriter-bin/Cargo.lock'),
  ignored('ig26', ROOT, '/foo/bar/baz', './foo/bar/baz'),
  ignored('ig27', ROOT, 'foo/', 'xyz/foo', true),
  ignored('ig28', './src', '/llvm/', './src/llvm', true),
  ignored('ig29', ROOT, 'node_modules/ ', 'node_modules', true),
  ignored('ig30', ROOT, '**/', 'foo/bar', true),
  ignored('ig31', ROOT, 'path1/*', 'path1/foo'),
  ignored('ig32', ROOT, '.a/b', '.a/b'),
  ignored('ig33', './', '.a/b', '.a/b'),
  ignored('ig34', '.', '.a/b', '.a/b'),
  ignored('ig35', './.', '.a/b', '.a/b'),
  ignored('ig36', '././', '.a/b', '.a/b'),
  ignored('ig37', '././.', '.a/b', '.a/b'),
  ignored('ig38', ROOT, '\\[', '['),
  ignored('ig39', ROOT, '\\?', '?'),
  ignored('ig40', ROOT, '\\*', '*'),
  ignored('ig41', ROOT, '\\a', 'a'),
  ignored('ig42', ROOT, 's*.rs', 'sfoo.rs'),
  ignored('ig43', ROOT, '**', 'foo.rs'),
  ignored('ig44', ROOT, '**/**/*', 'a/foo.rs'),

  notIgnored('ignot1', ROOT, 'amonths', 'months'),
  notIgnored('ignot2', ROOT, 'monthsa', 'months'),
  notIgnored('ignot3', ROOT, '/src/*.rs', 'src/grep/src/main.rs'),
  notIgnored('ignot4', ROOT, '/*.c', 'mozilla-sha1/sha1.c'),
  notIgnored('ignot5', ROOT, '/src/*.rs', 'src/grep/src/main.rs'),
  notIgnored('ignot6', ROOT, '*.rs\n!src/main.rs', 'src/main.rs'),
  notIgnored('ignot7', ROOT, 'foo/', 'foo', false),
  notIgnored('ignot8', ROOT, '**/foo/**', 'wat/src/afoo/bar/baz'),
  notIgnored('ignot9', ROOT, '**/foo/**', 'wat/src/fooa/bar/baz'),
  notIgnored('ignot10', ROOT, '**/foo/bar', 'foo/src/bar'),
  notIgnored('ignot11', ROOT, '#foo', '#foo'),
  notIgnored('ignot12', ROOT, '\n\n\n', 'foo'),
  notIgnored('ignot13', ROOT, 'foo/**', 'foo', true),
  notIgnored('ignot14', './third_party/protobuf', 'm4/ltoptions.m4', './third_party/protobuf/csharp/src/packages/repositories.config'),
  notIgnored('ignot15', ROOT, '!/bar', 'foo/bar'),
  notIgnored('ignot16', ROOT, '*\n!**/', 'foo', true),
  notIgnored('ignot17', ROOT, 'src/*.rs', 'src/grep/src/main.rs'),
  notIgnored('ignot18', ROOT, 'path1/*', 'path2/path1/foo'),
  notIgnored('ignot19', ROOT, 's*.rs', 'src/foo.rs'),
  // regression_106: `gi_from_str("/", " ")` must not fail; the line is blank once trimmed.
  notIgnored('regression_106', ROOT, ' ', 'foo'),

  ignored('cs1', ROOT, '*.html', 'foo.html'),
  notIgnored('cs2', ROOT, '*.html', 'foo.HTML'),
  notIgnored('cs3', ROOT, '*.html', 'foo.htm'),
  notIgnored('cs4', ROOT, '*.html', 'foo.HTM'),
];

const WINDOWS_CANNOT_NAME = new Set(['ig39', 'ig40']);
const CASES = ROWS.filter((row) => process.platform !== 'win32' || !WINDOWS_CANNOT_NAME.has(row.name));

/** `./a/./b/` → `a/b`: a row's root or path as a path below the tree's top. */
function below(path: string): string {
  return path.split('/').filter((s) => s !== '' && s !== '.').join('/');
}

/** What must be listed for the row's path: the file, or the probe in the directory. */
function witnessOf(row: Row): string {
  return row.isDir ? `${below(row.path)}/probe` : below(row.path);
}

function treeOf(row: Row): TreeSpec {
  const at = row.root === ROOT ? '' : below(row.root);
  const path = below(row.path);
  return {
    '.git/': '',
    [at === '' ? '.gitignore' : `${at}/.gitignore`]: row.gitignore,
    ...(row.isDir ? { [`${path}/.rgignore`]: '!probe\n', ...files(`${path}/probe`) } : files(path)),
  };
}

let trees: Trees;
const oracle = new Map<string, string[]>();

beforeAll(() => {
  trees = buildTrees('ff-ignore-table-', Object.fromEntries(CASES.map((row) => [row.name, treeOf(row)])));
  for (const row of CASES) oracle.set(row.name, rgFiles(trees.dirOf(row.name)));
});

afterAll(() => trees?.cleanup());

const EACH = CASES.map((row) => [`${row.name}: ${JSON.stringify(row.gitignore)} ${row.ignored ? 'ignores' : 'keeps'} ${row.path}${row.isDir ? '/' : ''}`, row] as const);

describe('the oracle: real rg agrees with each row', () => {
  it.each(EACH)('%s', (_title, row) => {
    expect(oracle.get(row.name)!.includes(witnessOf(row))).toBe(!row.ignored);
  });
});

// `auto` is left to parity.test.ts: with rg installed it is the ripgrep form again, and each
// ripgrep form here costs a process per row.
const FORMS = searchForms(realRg.path).filter(([form]) => form !== 'auto');

describe.each(FORMS)('%s', (_form, search) => {
  it.each(EACH)('%s', async (_title, row) => {
    const result = await search({ root: trees.dirOf(row.name), pattern: '**', gitignore: true });
    const matches = [...result.matches].sort();
    expect(matches.includes(witnessOf(row))).toBe(!row.ignored);
    expect(matches).toEqual(oracle.get(row.name));
    expect(result.complete).toBe(true);
  });
});
