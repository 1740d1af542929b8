/**
 * The parity fixtures for `gitignore: true`: one ignore-file rule each (or one interplay of
 * rules), with what the real ripgrep 13 lists for it (`rg --files --hidden --no-ignore-global` in
 * the fixture's root). Every `lists` was first read off real rg by hand; parity.test.ts checks it
 * again against the rg on the machine, then checks find-file against that rg.
 *
 * Where ripgrep 13 departs from git, rg is kept and the fixture's name says so ("rg 13:").
 */
import { files, TOP, type TreeSpec } from '../helpers/ignore-trees.js';

export interface IgnoreFixture {
  name: string;
  tree: TreeSpec;
  /** The search root below the tree's top. @default the top */
  root?: string;
  /** What rg 13 lists in `root`, sorted. */
  lists: string[];
  /** What rg 13 says on stderr, when it says anything (it lists all the same, and exits 0). */
  warns?: RegExp[];
  /** Names the other platforms cannot hold (trailing spaces, `?`, twins by case). @default everywhere */
  onlyOn?: 'posix' | 'linux';
}

export const FIXTURES: IgnoreFixture[] = [
  {
    name: 'nested .gitignore files: each applies to its own directory and below',
    tree: {
      '.git/': '',
      '.gitignore': '*.log\n',
      'sub/.gitignore': '*.tmp\n',
      ...files('a.log', 'a.txt', 'c.tmp', 'sub/b.log', 'sub/b.tmp', 'sub/b.txt', 'sub/deep/d.tmp', 'sub/deep/d.log'),
    },
    lists: ['.gitignore', 'a.txt', 'c.tmp', 'sub/.gitignore', 'sub/b.txt'],
  },
  {
    name: 'a negated file is re-included, at any depth',
    tree: { '.git/': '', '.gitignore': '*.log\n!keep.log\n', ...files('a.log', 'keep.log', 'sub/b.log', 'sub/keep.log') },
    lists: ['.gitignore', 'keep.log', 'sub/keep.log'],
  },
  {
    name: 'a negated file inside an ignored directory stays ignored (the directory is never entered)',
    tree: { '.git/': '', '.gitignore': 'logs/\n!logs/keep.log\n', ...files('logs/keep.log', 'logs/x.txt', 'other.txt') },
    lists: ['.gitignore', 'other.txt'],
  },
  {
    name: 'dir/** ignores the contents, not the directory: a negation re-includes, but not below an ignored subdirectory',
    tree: { '.git/': '', '.gitignore': 'bar/**\n!bar/keep\n!bar/deep/two\n', ...files('bar/one', 'bar/keep', 'bar/deep/two') },
    lists: ['.gitignore', 'bar/keep'],
  },
  {
    name: 'anchored /build vs unanchored out',
    tree: { '.git/': '', '.gitignore': '/build\nout\n', ...files('build/x', 'sub/build/y', 'out/o', 'sub/out/p', 'lib/out', 'lib/outer') },
    lists: ['.gitignore', 'lib/outer', 'sub/build/y'],
  },
  {
    name: 'dist/ matches directories only; cache matches files and directories',
    tree: { '.git/': '', '.gitignore': 'dist/\ncache\n', ...files('dist/d', 'sub/dist', 'cache/c', 'sub/cache', 'sub/cache2') },
    lists: ['.gitignore', 'sub/cache2', 'sub/dist'],
  },
  {
    name: '**/ prefix, a/**/b (zero or more directories), x/**/y/ (directories only)',
    tree: {
      '.git/': '',
      '.gitignore': '**/foo\na/**/b\nx/**/y/\n',
      ...files('foo', 'm/foo', 'm/n/foo/z', 'a/b', 'a/m/b', 'a/m/n/b', 'a/bb', 'x/y/f', 'x/m/y/g', 'x/m/z/y'),
    },
    lists: ['.gitignore', 'a/bb', 'x/m/z/y'],
  },
  {
    name: 'a slash in the middle anchors the pattern to its file (doc/frotz)',
    tree: { '.git/': '', '.gitignore': 'doc/frotz\n', ...files('doc/frotz', 'm/doc/frotz', 'frotz', 'doc/m/frotz') },
    lists: ['.gitignore', 'doc/m/frotz', 'frotz', 'm/doc/frotz'],
  },
  {
    name: 'comments, blank lines, trailing spaces (dropped unless escaped), leading spaces (kept), \\# and \\!',
    tree: {
      '.git/': '',
      '.gitignore': '# comment.txt\n\n   \ntrail.txt   \nesc\\ \n lead\n\\#hash.txt\n\\!bang.txt\n',
      ...files('# comment.txt', 'comment.txt', 'trail.txt', 'trail.txt   ', 'esc', 'esc ', 'lead', ' lead', '#hash.txt', '!bang.txt'),
    },
    lists: ['# comment.txt', '.gitignore', 'comment.txt', 'esc', 'lead', 'trail.txt   '],
    onlyOn: 'posix',
  },
  {
    name: 'rg 13: a trailing tab is dropped like a space (git keeps it)',
    tree: { '.git/': '', '.gitignore': 'tab.txt\t\n', ...files('tab.txt', 'tab.txt\t') },
    lists: ['.gitignore', 'tab.txt\t'],
    onlyOn: 'posix',
  },
  {
    name: 'character classes [abc], [!a], [a-c] and ?',
    tree: {
      '.git/': '',
      '.gitignore': '[abc].c\n[!a].d\n[a-c].e\n?.q\n',
      ...files('a.c', 'b.c', 'd.c', 'ab.c', 'a.d', 'b.d', 'a.e', 'c.e', 'd.e', '1.q', '12.q'),
    },
    lists: ['.gitignore', '12.q', 'a.d', 'ab.c', 'd.c', 'd.e'],
  },
  {
    // Issue 28's "[!x] may match /" is rg 13's own behaviour (globset's sets are not kept inside a segment): pinned, not killed.
    name: 'rg 13: a negated set [!x] matches the separator too, so a[!x]b ignores a/b (git keeps it)',
    tree: { '.git/': '', '.gitignore': 'a[!x]b\n', ...files('a/b', 'axb', 'ayb', 'sub/a/b', 'sub/a/c', 'sub/ayb') },
    lists: ['.gitignore', 'axb', 'sub/a/c'],
  },
  {
    name: 'rg 13: [[:alpha:]] is not a POSIX class but the set "[:alph" then "]" (git ignores a and b)',
    tree: { '.git/': '', '.gitignore': '[[:alpha:]]\n', ...files('a', 'b', 'a]', 'p]', 'b]') },
    lists: ['.gitignore', 'a', 'b', 'b]'],
  },
  {
    // Issue 28 (a mutation of src/walk/gitignore-rules.ts): the walker read `\` as an escape inside a set.
    name: 'rg 13: inside a set \\ is itself: [\\]]x is the set of \\ then ]x, and [a-\\c]x an invalid range (skipped)',
    tree: { '.git/': '', '.gitignore': '[\\]]x\n[a-\\c]y\n', ...files(']x', '\\]x', 'by') },
    lists: ['.gitignore', ']x', 'by'],
    warns: [/line 2: error parsing glob '\[a-\\c\]y': invalid range/],
    onlyOn: 'posix',
  },
  {
    // Issue 28 (a mutation of src/walk/gitignore-rules.ts): the walker read a `}` with no `{` open as a literal.
    name: 'rg 13: a } with no { open closes an empty group: x} ignores x, not x}',
    tree: { '.git/': '', '.gitignore': 'x}\n', ...files('x', 'x}') },
    lists: ['.gitignore', 'x}'],
  },
  {
    // The walker read every `**` inside braces as `*` (docs/mutation.md named the divergence); globset reads it by its neighbours.
    name: 'rg 13: ** inside braces after a / and before a / is any directories between: {a/**/b,c} ignores a/b, a/x/b, a/x/y/b and c',
    tree: { '.git/': '', '.gitignore': '{a/**/b,c}\n', ...files('a/b', 'a/c', 'a/x/b', 'a/x/y/b', 'c', 'd/c') },
    lists: ['.gitignore', 'a/c', 'd/c'],
  },
  {
    name: 'rg 13: ** first in a braced alternative and before a / is any leading directories: {**/q,c} and a{**/b,zz}',
    tree: { '.git/': '', '.gitignore': '{**/q,c}\na{**/b,zz}\n', ...files('q', 'd/q/z', 'e/f/q/z', 'a/b', 'a/x/b', 'a/x/y/b', 'a/c', 'ab', 'zz') },
    lists: ['.gitignore', 'a/c', 'zz'],
  },
  {
    name: 'rg 13: ** inside braces anywhere else is two *, within one segment: {x,**}/b ignores a/b, not a/x/b; {a/**c,zz} ignores a/c and a/xc, not a/x/c',
    tree: { '.git/': '', '.gitignore': '{x,**}/b\n{a/**c,zz}\n', ...files('a/b', 'a/x/b', 'x/b', 'a/c', 'a/xc', 'a/x/c') },
    lists: ['.gitignore', 'a/x/b', 'a/x/c'],
  },
  {
    name: 'rg 13: {x,y} are alternatives (git reads braces literally)',
    tree: { '.git/': '', '.gitignore': '*.{x,y}\n', ...files('f.x', 'f.y', 'f.z', 'f.{x,y}') },
    lists: ['.gitignore', 'f.z', 'f.{x,y}'],
  },
  {
    name: 'rg 13: a lone ! re-includes everything the lines above it ignored (git skips the line)',
    tree: { '.git/': '', '.gitignore': '*.log\n!\nsub/\n', ...files('a.log', 'sub/s.txt', 't.txt') },
    lists: ['.gitignore', 'a.log', 't.txt'],
  },
  {
    name: 'rg 13: ** inside a segment is *, it does not cross /',
    tree: { '.git/': '', '.gitignore': 'a/**b\n', ...files('a/b', 'a/xb', 'a/m/b', 'a/m/yb') },
    lists: ['.gitignore', 'a/m/b', 'a/m/yb'],
  },
  {
    name: 'rg 13: a line that is not a glob is skipped (a warning on stderr), the other lines apply; "esc\\  " is one',
    tree: { '.git/': '', '.gitignore': 'c[\n[z-a]\nesc\\  \nok.txt\n', ...files('c[', 'z', 'esc ', 'ok.txt', 'keep') },
    lists: ['.gitignore', 'c[', 'esc ', 'keep', 'z'],
    warns: [/line 1: error parsing glob 'c\[': unclosed character class/, /line 2: error parsing glob '\[z-a\]': invalid range/, /line 3: error parsing glob 'esc\\': dangling '\\'/],
    onlyOn: 'posix',
  },
  {
    name: 'rg 13: a UTF-8 byte order mark is part of the first pattern (git skips it)',
    tree: { '.git/': '', '.gitignore': '\uFEFFbom.txt\nsecond.txt\n', ...files('bom.txt', 'second.txt', 'keep') },
    lists: ['.gitignore', 'bom.txt', 'keep'],
  },
  {
    name: 'CRLF line endings',
    tree: { '.git/': '', '.gitignore': 'cr.txt\r\ndir/\r\n', ...files('cr.txt', 'dir/x', 'keep') },
    lists: ['.gitignore', 'keep'],
  },
  {
    name: '* then !*/ then !*.txt: only .txt files, at any depth (the ignore file ignores itself and still applies)',
    tree: { '.git/': '', '.gitignore': '*\n!*/\n!*.txt\n', ...files('a.txt', 'a.md', 's/b.txt', 's/b.md', '.h/c.txt') },
    lists: ['.h/c.txt', 'a.txt', 's/b.txt'],
  },
  {
    name: '** ignores everything; !**/*.md cannot reach into the directories it ignored',
    tree: { '.git/': '', '.gitignore': '**\n!**/*.md\n', ...files('z.md', 'd/z.md', 'x') },
    lists: ['z.md'],
  },
  {
    name: '.ignore overrides .gitignore (a ! in .ignore re-includes); .rgignore overrides .ignore',
    tree: {
      '.git/': '',
      '.gitignore': '*.gen\nrg.txt\n',
      '.ignore': '!keep.gen\nig.txt\n',
      '.rgignore': '!ig.txt\n',
      ...files('a.gen', 'keep.gen', 'ig.txt', 'rg.txt', 'other'),
    },
    lists: ['.gitignore', '.ignore', '.rgignore', 'ig.txt', 'keep.gen', 'other'],
  },
  {
    name: "a stronger source in a parent beats a weaker one deeper down (the root's .ignore over deep/.gitignore)",
    tree: {
      '.git/': '',
      '.ignore': '!keep.gen\n',
      '.rgignore': '!x.txt\n',
      'deep/.gitignore': 'keep.gen\ny.txt\n',
      'deep/.ignore': 'x.txt\n',
      ...files('deep/keep.gen', 'deep/x.txt', 'deep/y.txt'),
    },
    lists: ['.ignore', '.rgignore', 'deep/.gitignore', 'deep/.ignore', 'deep/keep.gen', 'deep/x.txt'],
  },
  {
    name: "a deeper file overrides its parent's rule (same source)",
    tree: {
      '.git/': '',
      '.gitignore': '*.gen\n',
      '.ignore': 't.txt\n',
      'sub/.gitignore': '!b.gen\n',
      'sub/.ignore': '!t.txt\n',
      ...files('a.gen', 'b.gen', 't.txt', 'sub/b.gen', 'sub/c.gen', 'sub/t.txt'),
    },
    lists: ['.gitignore', '.ignore', 'sub/.gitignore', 'sub/.ignore', 'sub/b.gen', 'sub/t.txt'],
  },
  {
    name: '.git/info/exclude applies, below .gitignore; rg 13 lists what is in .git',
    tree: {
      '.git/info/exclude': 'ex.txt\nex2.txt\n',
      '.git/HEAD': 'ref: refs/heads/main\n',
      '.gitignore': '!ex2.txt\n',
      ...files('ex.txt', 'ex2.txt', 'sub/ex.txt', 'keep'),
    },
    lists: ['.git/HEAD', '.git/info/exclude', '.gitignore', 'ex2.txt', 'keep'],
  },
  {
    name: 'outside a git repository .gitignore is not applied; .ignore and .rgignore are',
    tree: { '.gitignore': 'a.txt\n', '.ignore': 'b.txt\n', '.rgignore': 'c.txt\n', ...files('a.txt', 'b.txt', 'c.txt', 'd.txt') },
    lists: ['.gitignore', '.ignore', '.rgignore', 'a.txt', 'd.txt'],
  },
  {
    name: 'a .git file (not a directory) marks a repository too',
    tree: { '.git': 'gitdir: /nonexistent/.git/modules/x\n', '.gitignore': 'x.log\n', ...files('x.log', 'y') },
    lists: ['.git', '.gitignore', 'y'],
  },
  {
    name: "the root's parents: inside the repository every source applies (anchored patterns too); above its root only .ignore",
    tree: {
      '.gitignore': 'above.txt\n',
      '.ignore': 'ig-above.txt\n',
      'repo/.git/info/exclude': 'ex.txt\n',
      'repo/.gitignore': 'in-repo.txt\n/sub/anchored.txt\nsub/middle.txt\n',
      ...files(
        'repo/sub/above.txt',
        'repo/sub/ig-above.txt',
        'repo/sub/in-repo.txt',
        'repo/sub/anchored.txt',
        'repo/sub/middle.txt',
        'repo/sub/ex.txt',
        'repo/sub/keep.txt',
      ),
    },
    root: 'repo/sub',
    lists: ['above.txt', 'keep.txt'],
  },
  {
    name: 'parents outside any repository: .ignore applies, anchored at its own directory; .rgignore below overrides it',
    tree: {
      '.ignore': '/work/anchored.txt\nfree.txt\nwork/middle.txt\n',
      '.gitignore': 'gi.txt\n',
      'work/.rgignore': '!free.txt\n',
      ...files('work/anchored.txt', 'work/free.txt', 'work/middle.txt', 'work/gi.txt', 'work/d/free.txt', 'work/d/anchored.txt'),
    },
    root: 'work',
    lists: ['.rgignore', 'd/anchored.txt', 'd/free.txt', 'free.txt', 'gi.txt'],
  },
  {
    name: "the root itself is never judged by a parent's rules, only what is in it",
    tree: { '.git/': '', '.gitignore': 'sub/\nsub/*.log\n', ...files('sub/a', 'sub/b.log', 'sub/deeper/c', 'sub/deeper/d.log') },
    root: 'sub',
    lists: ['a', 'deeper/c', 'deeper/d.log'],
  },
  {
    name: "a nested repository is its own: the outer .gitignore stops at it (the outer .ignore does not)",
    tree: {
      '.git/': '',
      '.gitignore': '*.log\ninner/x.txt\n',
      '.ignore': '*.tmp\n',
      'inner/.git/': '',
      'inner/.gitignore': 'c.txt\n',
      ...files('a.log', 'inner/b.log', 'inner/x.txt', 'inner/c.txt', 'inner/t.tmp'),
    },
    lists: ['.gitignore', '.ignore', 'inner/.gitignore', 'inner/b.log', 'inner/x.txt'],
  },
  {
    name: 'rg 13: a worktree (its .git a file) reads info/exclude from the common git dir, not its own',
    tree: {
      'main/.git/info/exclude': 'ex.txt\n',
      'main/.git/worktrees/wt/commondir': '../..\n',
      'main/.git/worktrees/wt/info/exclude': 'wt-ex.txt\n',
      'wt/.git': `gitdir: ${TOP}/main/.git/worktrees/wt\n`,
      'wt/.gitignore': 'gi.txt\n',
      ...files('wt/ex.txt', 'wt/wt-ex.txt', 'wt/gi.txt', 'wt/keep', 'wt/sub/ex.txt'),
    },
    root: 'wt',
    lists: ['.git', '.gitignore', 'keep', 'wt-ex.txt'],
  },
  {
    name: "rg 13: a submodule's .git file (no commondir): its git dir's info/exclude is not read (git reads it)",
    tree: {
      'super/.git/modules/sub/info/exclude': 'ex.txt\n',
      'sub/.git': `gitdir: ${TOP}/super/.git/modules/sub\n`,
      'sub/.gitignore': 'gi.txt\n',
      ...files('sub/ex.txt', 'sub/gi.txt', 'sub/keep'),
    },
    root: 'sub',
    lists: ['.git', '.gitignore', 'ex.txt', 'keep'],
  },
  {
    name: "rg 13: a worktree's .git file is read on its first line only, `gitdir: ` exactly: with no line break at its end",
    tree: {
      'main/.git/info/exclude': 'ex.txt\n',
      'main/.git/worktrees/a/commondir': '../..\n',
      'a/.git': `gitdir: ${TOP}/main/.git/worktrees/a`,
      ...files('a/ex.txt', 'a/keep'),
    },
    root: 'a',
    lists: ['.git', 'keep'],
  },
  {
    name: "rg 13: a worktree's .git file with CRLF, a relative gitdir and a second line",
    tree: {
      'main/.git/info/exclude': 'ex.txt\n',
      'main/.git/worktrees/b/commondir': '../..\r\n',
      'b/.git': 'gitdir: ../main/.git/worktrees/b\r\nmore\n',
      ...files('b/ex.txt', 'b/keep'),
    },
    root: 'b',
    lists: ['.git', 'keep'],
  },
  {
    name: "rg 13: a relative gitdir is read from the search root (ripgrep's cwd), not from the worktree: a worktree below the root",
    tree: {
      'main/.git/info/exclude': 'ex.txt\n',
      'main/.git/worktrees/s/commondir': '../..\n',
      // From top/, ../main is main/: read. ../../main (right from top/sub, git's reading) is outside the tree: not read.
      'top/sub/.git': 'gitdir: ../main/.git/worktrees/s\n',
      'top/far/.git': 'gitdir: ../../main/.git/worktrees/s\n',
      ...files('top/sub/ex.txt', 'top/sub/keep', 'top/far/ex.txt', 'top/far/keep'),
    },
    root: 'top',
    lists: ['far/.git', 'far/ex.txt', 'far/keep', 'sub/.git', 'sub/keep'],
  },
  {
    name: 'rg 13: a commondir starting with . is read from the git dir, whatever it ends with (../../)',
    tree: {
      'main/.git/info/exclude': 'ex.txt\n',
      'main/.git/worktrees/w/commondir': '../../\n',
      'w/.git': `gitdir: ${TOP}/main/.git/worktrees/w\n`,
      ...files('w/ex.txt', 'w/keep'),
    },
    root: 'w',
    lists: ['.git', 'keep'],
  },
  {
    name: "rg 13: a commondir not starting with . is read from the search root (ripgrep's cwd), not from the git dir",
    tree: {
      'main/.git/info/exclude': 'ex.txt\n',
      'main/.git/worktrees/w/commondir': 'main/.git\n',
      'w/.git': `gitdir: ${TOP}/main/.git/worktrees/w\n`,
      ...files('w/ex.txt', 'w/keep'),
    },
    lists: ['main/.git/info/exclude', 'main/.git/worktrees/w/commondir', 'w/.git', 'w/keep'],
  },
  ...[
    ['a line break', '\n'],
    ['CRLF', '\r\n'],
  ].map(([how, end]) => ({
    name: `rg 13: a worktree's .git file whose gitdir path holds a carriage return inside it, ending in ${how}: the path as it stands`,
    tree: {
      'main/.git/info/exclude': 'ex.txt\n',
      'main/.git/worktrees/c\rr/commondir': '../..\n',
      'c/.git': `gitdir: ${TOP}/main/.git/worktrees/c\rr${end}`,
      ...files('c/ex.txt', 'c/keep'),
    },
    root: 'c',
    lists: ['.git', 'keep'],
    onlyOn: 'posix' as const,
  })),
  ...[
    ['no space after gitdir:', `gitdir:${TOP}/main/.git/worktrees/w\n`],
    ['three spaces after gitdir:', `gitdir:   ${TOP}/main/.git/worktrees/w\n`],
    ['trailing spaces', `gitdir: ${TOP}/main/.git/worktrees/w  \n`],
    ['gitdir: on a second line', `# note\ngitdir: ${TOP}/main/.git/worktrees/w\n`],
    ['GITDIR: in capitals', `GITDIR: ${TOP}/main/.git/worktrees/w\n`],
    // Rust's lines() strips `\n` and `\r\n` only: a lone `\r` at the end stays in the path.
    ['a carriage return at its end and no line break', `gitdir: ${TOP}/main/.git/worktrees/w\r`],
  ].map(([how, gitFile]) => ({
    name: `rg 13: a worktree's .git file with ${how}: no exclude is read`,
    tree: { 'main/.git/info/exclude': 'ex.txt\n', 'main/.git/worktrees/w/commondir': '../..\n', 'w/.git': gitFile!, ...files('w/ex.txt', 'w/keep') },
    root: 'w',
    lists: ['.git', 'ex.txt', 'keep'],
  })),
  ...[
    ['empty', ''],
    ['spaces around it', ' ../.. \n'],
    ['../.. then a carriage return and no line break', '../..\r'],
  ].map(([how, commondir]) => ({
    name: `rg 13: a worktree whose commondir is ${how}: no exclude is read, not its own git dir's, nor its cwd's info/exclude`,
    tree: {
      'main/.git/info/exclude': 'ex.txt\n',
      'main/.git/worktrees/w/commondir': commondir!,
      'main/.git/worktrees/w/info/exclude': 'keep\n',
      'w/.git': `gitdir: ${TOP}/main/.git/worktrees/w\n`,
      'w/info/exclude': 'keep\n',
      ...files('w/ex.txt', 'w/keep'),
    },
    root: 'w',
    lists: ['.git', 'ex.txt', 'info/exclude', 'keep'],
  })),
  // Rust's lines() gives a blank first line as the path '': ripgrep reads `info/exclude` in its cwd.
  ...[
    ['a blank line', '\n'],
    ['a blank line, then ../..', '\n../..\n'],
  ].map(([how, commondir]) => ({
    name: `rg 13: a worktree whose commondir is ${how}: the path '', so ripgrep reads info/exclude in its cwd, the search root`,
    tree: {
      'main/.git/info/exclude': 'ex.txt\n',
      'main/.git/worktrees/w/commondir': commondir!,
      'main/.git/worktrees/w/info/exclude': 'ex.txt\n',
      'w/.git': `gitdir: ${TOP}/main/.git/worktrees/w\n`,
      'w/info/exclude': 'keep\n',
      ...files('w/ex.txt', 'w/keep'),
    },
    root: 'w',
    lists: ['.git', 'ex.txt', 'info/exclude'],
  })),
  {
    name: "a repository inside another: the outer one's info/exclude stops at the inner one's top",
    tree: { '.git/info/exclude': 'o.txt\n', 'inner/.git/': '', ...files('o.txt', 'inner/o.txt', 'inner/k') },
    lists: ['.git/info/exclude', 'inner/k', 'inner/o.txt'],
  },
  {
    name: 'hidden files and directories: .env and .cache/ ignored by .gitignore, other dot names kept',
    tree: { '.git/': '', '.gitignore': '.env\n.cache/\n', ...files('.env', '.envrc', '.cache/x', 'sub/.env', '.hidden/keep', 'sub/.cache') },
    lists: ['.envrc', '.gitignore', '.hidden/keep', 'sub/.cache'],
  },
  {
    name: 'case matters on Linux: *.LOG leaves x.log and y.Log',
    tree: { '.git/': '', '.gitignore': '*.LOG\n', ...files('x.log', 'X.LOG', 'y.Log') },
    lists: ['.gitignore', 'x.log', 'y.Log'],
    onlyOn: 'linux',
  },
  {
    name: 'rg 13: a line that is not UTF-8 ends the file (the rules before it apply, none after it)',
    tree: {
      '.git/': '',
      '.gitignore': Buffer.from('one.txt\n\xff\xfe bad\ntwo.txt\n', 'latin1'),
      'sub/.ignore': Buffer.from('\xff\nthree.txt\n', 'latin1'),
      ...files('one.txt', 'two.txt', 'three.txt', 'sub/one.txt', 'sub/three.txt', 'sub/four.txt'),
    },
    lists: ['.gitignore', 'sub/.ignore', 'sub/four.txt', 'sub/three.txt', 'three.txt', 'two.txt'],
  },
  {
    name: "a root that is a symlink: its target's parents' ignore files apply, not the link's parents'",
    tree: {
      'real/.ignore': 'a.txt\n',
      'links/.ignore': 'b.txt\n',
      ...files('real/target/a.txt', 'real/target/b.txt', 'real/target/c.txt'),
      'links/lnk': { link: '../real/target' },
    },
    root: 'links/lnk',
    lists: ['b.txt', 'c.txt'],
    onlyOn: 'posix',
  },
  {
    name: 'nothing ignored: no ignore files in a repository',
    tree: { '.git/': '', ...files('a', 'b/c') },
    lists: ['a', 'b/c'],
  },
];
