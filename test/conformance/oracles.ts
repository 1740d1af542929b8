/**
 * Oracles for the glob conformance suite: implementations of glob matching that nobody on this team
 * wrote. Each one answers, for a tree on disk, a pattern and a case mode, the SET of root-relative
 * paths of regular files (no directories, no links, nothing below a link) that the pattern matches
 * under find-file's documented dialect (docs/contract.md):
 *
 * - root-relative paths with `/`; braces expand first; each brace alternative is read on its own;
 * - an alternative with no `/` in it matches the base name at any depth (`x` means `**\/x`);
 * - `.` segments (a leading `./`, an inner `a/./b`) name the directory itself;
 * - hidden names match `*` (bash `dotglob`, minimatch `dot`); `**` is a whole-segment globstar.
 *
 * bash: real pathname expansion (`globstar extglob dotglob nullglob`, `nocaseglob` for
 * case-insensitive cases) in `LC_ALL=C.UTF-8`, one process per tree, globs read NUL-separated from
 * stdin and never part of the script text. Brace alternatives come from minimatch's `braceExpand`,
 * checked against bash's own brace expansion (the pattern single-quoted except its brace syntax),
 * which wins where they differ: find-file expands braces with `braceExpand`, so a `braceExpand`
 * bug would otherwise be invisible to both oracles. minimatch: `Minimatch#match` (never `makeRe`)
 * over `find -type f`'s listing.
 */
import { spawn, spawnSync, type ChildProcess, type SpawnSyncOptions, type SpawnSyncReturns } from 'node:child_process';
import { closeSync, lstatSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Minimatch, braceExpand } from 'minimatch';

/** Every regular file under `root` that is not below a link: `find . -type f` (find never follows links by default). */
export function listRegularFiles(root: string): string[] {
  return findList(root, 'f');
}

export function listDirectories(root: string): string[] {
  return findList(root, 'd').filter((d) => d !== '');
}

function findList(root: string, type: 'f' | 'd'): string[] {
  const run = spawnSync('find', ['.', '-type', type, '-print0'], { cwd: root, maxBuffer: 64 << 20 });
  if (run.status !== 0) throw new Error(`find failed in ${root}: ${run.stderr?.toString()}`);
  return run.stdout
    .toString('utf8')
    .split('\0')
    .filter((p) => p !== '' && p !== '.')
    .map((p) => (p.startsWith('./') ? p.slice(2) : p))
    .sort();
}

export interface OracleCase {
  pattern: string;
  nocase: boolean;
}

// ---------------------------------------------------------------------------------------------
// bash
// ---------------------------------------------------------------------------------------------

/** The bash oracles' environment: the PATH and the C.UTF-8 locale, nothing of the caller's shell. */
const BASH_ENV = { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C.UTF-8' };

/**
 * The script is constant: patterns arrive on stdin, one NUL-terminated record each, the first
 * character `C` (case-sensitive) or `I` (nocaseglob), the rest the glob. `IFS=` turns word
 * splitting off, so the unquoted `$P` undergoes pathname expansion only (no brace expansion, no
 * splitting, no command substitution: the text is never parsed as shell code). Each record's
 * results are printed NUL-terminated, then an empty record ends the group (no path is empty).
 */
const BASH_SCRIPT = `
shopt -s globstar extglob dotglob nullglob
IFS=
while IFS= read -r -d '' P; do
  case \${P:0:1} in I) shopt -s nocaseglob;; *) shopt -u nocaseglob;; esac
  P=\${P:1}
  set -- $P
  (( $# )) && printf '%s\\0' "$@"
  printf '\\0'
done
`;

/**
 * One glob as bash is given it. Brace alternatives come from minimatch's `braceExpand` (bash does
 * not brace-expand the result of `$P`, which is what makes passing hostile text safe). A segment
 * with no unescaped magic gets one character put in brackets (`x\\{1,2\\}` -> `[x]\\{1,2\\}`), or
 * failing that a trailing `@()` (an extglob matching the empty string): it changes no meaning, but
 * it makes bash glob the segment against the directory's listing. Without it bash leaves a word
 * with no unescaped magic untouched (`x\\{1,2\\}` comes back with its backslashes, never matching
 * `x{1,2}`), and under `nocaseglob` takes a literal segment (`A/*`) as it is, case and all. (Not
 * `@()` everywhere: bash 5.2's `*@()` matches nothing.) An escaped space becomes `[ ]` (see below).
 */
export function bashGlobsFor(alternatives: readonly string[]): string[] {
  const globs: string[] = [];
  for (const alternative of alternatives) {
    const forms = alternative.includes('/') ? [alternative] : [alternative, `**/${alternative}`];
    for (const form of forms) globs.push(form.split('/').map(forceGlob).map(bracketEscapedSpaces).join('/'));
  }
  return [...new Set(globs)];
}

/**
 * bash 5.2 never matches an escaped space that came from an unquoted expansion (`P='[a]\\ b'; set --
 * $P` finds no `a b`, whatever IFS is; every other escaped character works): spell it `[ ]`.
 */
function bracketEscapedSpaces(segment: string): string {
  let out = '';
  for (let i = 0; i < segment.length; i++) {
    if (segment[i] === '\\' && i + 1 < segment.length) {
      out += segment[i + 1] === ' ' ? '[ ]' : segment.slice(i, i + 2);
      i++;
    } else out += segment[i];
  }
  return out;
}

/** Characters that may stand alone in `[c]` with the same meaning in every dialect. */
const BRACKETABLE = /^[\p{L}\p{N}_~%&=#;' ]$/u;

function forceGlob(segment: string): string {
  if (segment === '' || segment === '.' || segment === '..' || segment === '**') return segment;
  const cs = Array.from(segment);
  for (let i = 0; i < cs.length; i++) {
    const c = cs[i]!;
    if (c === '\\') {
      i++;
      continue;
    }
    if (c === '*' || c === '?' || c === '[' || ('@!+'.includes(c) && cs[i + 1] === '(')) return segment; // magic already
  }
  for (let i = 0; i < cs.length; i++) {
    if (cs[i] === '\\') {
      i++;
      continue;
    }
    if (BRACKETABLE.test(cs[i]!)) return [...cs.slice(0, i), `[${cs[i]}]`, ...cs.slice(i + 1)].join('');
  }
  // A trailing lone backslash would escape the `@`.
  const trailing = /\\*$/.exec(segment)![0].length;
  return trailing % 2 === 1 ? segment : `${segment}@()`;
}

export interface BashAnswer {
  expected: Set<string>;
  /** Set when bash's own brace expansion differs from minimatch's `braceExpand` (which find-file uses). */
  braces?: { bash: string[]; braceExpand: string[] };
}

/**
 * bash's answers for many cases on one tree, in one process (two when some pattern has braces).
 * `files`: the tree's regular files. The alternatives are minimatch's `braceExpand`, except where
 * bash's own brace expansion (`bashBraceExpand`) disagrees with it: then bash's are the oracle,
 * and the answer says so.
 */
export function bashOracle(root: string, cases: readonly OracleCase[], files: ReadonlySet<string>): BashAnswer[] {
  const withBraces = cases.map((c, i) => [c.pattern, i] as const).filter(([p]) => p.includes('{'));
  const bashAlternatives = bashBraceExpand(withBraces.map(([p]) => p));
  const braces = new Map<number, BashAnswer['braces']>();
  withBraces.forEach(([pattern, i], k) => {
    const mine = braceExpand(pattern);
    const theirs = bashAlternatives[k]!;
    // braceExpand drops the backslash of `\\{`, `\\}` and `\\,`; bash keeps it: both are that character to the glob.
    const plain = (a: string) => a.replace(/\\([{},])/g, '$1');
    const mineSet = new Set(mine.map(plain));
    const theirSet = new Set(theirs.map(plain));
    const same = mineSet.size === theirSet.size && [...theirSet].every((a) => mineSet.has(a));
    if (!same) braces.set(i, { bash: theirs, braceExpand: mine });
  });
  // Each glob once, whichever cases want it (a pattern asked twice; `x` and `**/x` both glob `**/x`):
  // the same expansion in the same tree, so its answer is each one's.
  const owners = new Map<string, number[]>();
  cases.forEach((c, i) => {
    for (const glob of bashGlobsFor(braces.get(i)?.bash ?? braceExpand(c.pattern))) {
      const record = `${c.nocase ? 'I' : 'C'}${glob}\0`;
      if (owners.has(record)) owners.get(record)!.push(i);
      else owners.set(record, [i]);
    }
  });
  const owner = [...owners.values()];
  const run = bashSync(['--norc', '--noprofile', '-c', BASH_SCRIPT], Buffer.from([...owners.keys()].join(''), 'utf8'), {
    cwd: root,
    maxBuffer: 256 << 20,
  });
  if (run.error !== undefined || run.status !== 0) {
    throw new Error(`bash oracle failed (status ${run.status}): ${run.error?.message ?? ''} ${run.stderr?.toString() ?? ''}`);
  }
  const out = run.stdout.toString('utf8').split('\0');
  const results: BashAnswer[] = cases.map((_, i) => ({ expected: new Set<string>(), ...(braces.has(i) ? { braces: braces.get(i) } : {}) }));
  let record = 0;
  for (let i = 0; i < out.length - 1; i++) {
    const item = out[i]!;
    if (item === '') {
      record++;
      continue;
    }
    if (record >= owner.length) throw new Error('bash oracle: more groups than patterns');
    const rel = normalizeBashPath(item);
    // Regular files only, and never through a link: bash's `*/x` goes through a linked directory,
    // and `a/**` lists directories.
    if (files.has(rel) && isRegularFile(join(root, rel))) for (const i of owner[record]!) results[i]!.expected.add(rel);
  }
  if (record !== owner.length) throw new Error(`bash oracle: ${record} groups for ${owner.length} patterns`);
  return results;
}

/**
 * bash's own brace expansion of each pattern, without ever letting bash parse the pattern's text
 * as code. bash expands braces only in script text, so each pattern becomes one word of a script
 * in which every character is inside single quotes (a `'` as `'\\''`), except the brace syntax
 * itself: an unescaped `{`, `,` or `}`, and a whole sequence expression (`{1..3}`, `{a..c}`, only
 * digits, letters, `.` and `-`). Quoted text is inert to bash: no expansion, substitution or
 * globbing (and `set -f` besides), so the words printed are exactly the brace alternatives, with
 * the pattern's escapes as they were (`x\\{1,2\\}` stays one word, backslashes and all, as
 * braceExpand's alternatives are then globbed).
 */
export function bashBraceExpand(patterns: readonly string[]): string[][] {
  if (patterns.length === 0) return [];
  const script = ['set -f'];
  for (const pattern of patterns) script.push(`printf 'W%s\\0' ${braceWord(pattern)}; printf '\\0'`);
  const run = bashSync(['--norc', '--noprofile', '-s'], script.join('\n') + '\n', {
    cwd: tmpdir(),
    maxBuffer: 256 << 20,
  });
  if (run.error !== undefined || run.status !== 0) {
    throw new Error(`bash brace expansion failed (status ${run.status}): ${run.error?.message ?? ''} ${run.stderr?.toString() ?? ''}`);
  }
  const groups: string[][] = [[]];
  const out = run.stdout.toString('utf8').split('\0');
  for (let i = 0; i < out.length - 1; i++) {
    if (out[i] === '') groups.push([]);
    else groups[groups.length - 1]!.push(out[i]!.slice(1));
  }
  groups.pop();
  if (groups.length !== patterns.length) throw new Error(`bash brace expansion: ${groups.length} groups for ${patterns.length} patterns`);
  return groups;
}

const SEQUENCE = /^\{(?:-?\d+\.\.-?\d+|[a-zA-Z]\.\.[a-zA-Z])(?:\.\.-?\d+)?\}/;

function braceWord(pattern: string): string {
  let out = '';
  let literal = '';
  const flush = () => {
    if (literal !== '') out += `'${literal.replace(/'/g, `'\\''`)}'`;
    literal = '';
  };
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\') {
      literal += pattern.slice(i, i + 2);
      i++;
    } else if (c === '{' && SEQUENCE.test(pattern.slice(i))) {
      const sequence = SEQUENCE.exec(pattern.slice(i))![0];
      flush();
      out += sequence;
      i += sequence.length - 1;
    } else if (c === '{' || c === ',' || c === '}') {
      flush();
      out += c;
    } else literal += c;
  }
  flush();
  return out === '' ? "''" : out;
}

/** bash keeps the pattern's spelling of literal parts: `./a/b`, `a/./b`, `a/` for `a/**`. */
function normalizeBashPath(path: string): string {
  return path
    .split('/')
    .filter((s) => s !== '' && s !== '.')
    .join('/');
}

function isRegularFile(path: string): boolean {
  try {
    return lstatSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * Runs a bash script in C.UTF-8 with `input` on its stdin (the text asked about is never part of
 * the script) and resolves with its stdout; rejects, naming `what`, when bash exits non-zero.
 */
export function runBashScript(script: string, input: Buffer, what: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const stdin = inputFile(input);
    let child: ChildProcess;
    try {
      child = spawn('bash', ['--norc', '--noprofile', '-c', script], { stdio: [stdin, 'pipe', 'pipe'], env: BASH_ENV });
    } finally {
      // bash has its own copy of the descriptor once spawned.
      closeSync(stdin);
    }
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    // Both piped (stdio above).
    child.stdout!.on('data', (b: Buffer) => out.push(b));
    child.stderr!.on('data', (b: Buffer) => err.push(b));
    child.on('error', reject);
    child.on('close', (status) => {
      if (status !== 0) return reject(new Error(`bash (${what}) exited ${status}: ${Buffer.concat(err).toString()}`));
      resolve(Buffer.concat(out).toString('utf8'));
    });
  });
}

/**
 * A descriptor open for reading on a file that holds `input`, the file itself already unlinked: for
 * bash's stdin. bash reads a pipe one byte per read(2) (`read -d`, `mapfile` and a script read with
 * `-s` must not take bytes past what they parse, and a pipe cannot be seeked back), a regular file by
 * blocks: the class sweep's 68,000 characters took bash 1.9 s from a pipe and 0.6 s from a file,
 * and on this project's VMs each system call is dear. The caller closes it once bash has started.
 */
function inputFile(input: Buffer | string): number {
  const dir = mkdtempSync(join(tmpdir(), 'ff-bash-input-'));
  try {
    const path = join(dir, 'input');
    writeFileSync(path, input);
    return openSync(path, 'r');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `spawnSync('bash', args)` in `BASH_ENV`, with `input` on its stdin as a file, not a pipe (`inputFile`). */
export function bashSync(args: readonly string[], input: Buffer | string, options: Pick<SpawnSyncOptions, 'cwd' | 'maxBuffer'>): SpawnSyncReturns<Buffer> {
  const stdin = inputFile(input);
  try {
    return spawnSync('bash', args, { ...options, env: BASH_ENV, stdio: [stdin, 'pipe', 'pipe'] }) as SpawnSyncReturns<Buffer>;
  } finally {
    closeSync(stdin);
  }
}

/** bash 4+ (globstar); `undefined` when bash is missing or too old (macOS ships 3.2). */
export function bashVersion(): string | undefined {
  const run = spawnSync('bash', ['--norc', '--noprofile', '-c', 'shopt -s globstar extglob && printf %s "$BASH_VERSION"'], { encoding: 'utf8' });
  return run.status === 0 && run.stdout !== '' ? run.stdout : undefined;
}

// ---------------------------------------------------------------------------------------------
// minimatch
// ---------------------------------------------------------------------------------------------

/**
 * minimatch's answer: `Minimatch#match` over the listing. Braces are expanded with minimatch's own
 * `braceExpand`, and each alternative gets its own `Minimatch` (`nobrace`): at
 * `optimizationLevel: 2` minimatch otherwise merges alternatives it wrongly thinks redundant
 * (`{x1/bang.ts,**\/x1}` loses `x1/bang.ts`). `matchBase` is minimatch's own reading of the
 * slash-less rule. `optimizationLevel: 2` is the level minimatch gives file walkers (glob uses
 * it): inner `.` and empty segments name the directory itself. minimatch matches a leading `./`
 * only against a path spelled with one, so each path is also offered as `./path`: the same file,
 * in the spelling such a pattern expects.
 */
export function minimatchOracle(files: readonly string[], c: OracleCase): Set<string> | Error {
  const matchers: Minimatch[] = [];
  try {
    for (const alternative of braceExpand(c.pattern)) {
      matchers.push(
        new Minimatch(alternative, { dot: true, nocomment: true, nonegate: true, nocase: c.nocase, matchBase: true, optimizationLevel: 2, nobrace: true }),
      );
    }
  } catch (error) {
    // minimatch builds a regex it cannot compile (`\\!([[:alpha:]])`): it has no answer here.
    return error as Error;
  }
  const out = new Set<string>();
  for (const rel of files) if (matchers.some((mm) => mm.match(rel) || mm.match(`./${rel}`))) out.add(rel);
  return out;
}

/**
 * What bash globs for each pattern in `root` (its cwd), sorted: the patterns on its stdin, NUL
 * separated, each expanded unquoted under `shopt -s` of `options` (nullglob: none gives nothing).
 * `regularFiles`: only regular files that are no links, each with any leading `./` dropped.
 */
export function bashGlobEach(root: string, patterns: readonly string[], options: readonly string[], regularFiles = false): string[][] {
  const each = regularFiles ? `[[ -f $f && ! -L $f ]] && printf '%s\\0' "\${f#./}"` : `printf '%s\\0' "$f"`;
  const script = `shopt -s ${options.join(' ')}
IFS=
while IFS= read -r -d '' P; do
  for f in $P; do ${each}; done
  printf '\\n'
done`;
  const run = bashSync(['--norc', '--noprofile', '-c', script], patterns.map((p) => `${p}\0`).join(''), { cwd: root });
  if (run.status !== 0) throw new Error(`bash exited ${run.status}: ${run.error?.message ?? run.stderr.toString()}`);
  return run.stdout.toString('utf8').split('\n').slice(0, -1).map((line) => line.split('\0').filter((f) => f !== '').sort());
}

/**
 * Which (pattern, name) pairs bash 5 matches with `[[ $name == $pattern ]]` (extglob, and
 * `nocasematch` when `caseSensitive` is false): the indexes of the pairs that match, and how many
 * pairs bash read (all of them, or the input was cut). One bash for all the pairs.
 */
export async function bashMatchPairs(pairs: readonly { pattern: string; name: string }[], caseSensitive: boolean, what: string): Promise<{ matched: Set<number>; read: number }> {
  const script = `shopt -s extglob${caseSensitive ? '' : ' nocasematch'}
i=0
while IFS= read -r -d '' p && IFS= read -r -d '' n; do
  [[ $n == $p ]] && printf '%d\\n' "$i"
  ((i++))
done
printf 'read %d\\n' "$i"
`;
  const input = Buffer.from(pairs.map((p) => `${p.pattern}\0${p.name}\0`).join(''), 'utf8');
  const matched = new Set<number>();
  let read = -1;
  for (const line of (await runBashScript(script, input, what)).split('\n')) {
    if (line.startsWith('read ')) read = Number(line.slice(5));
    else if (line !== '') matched.add(Number(line));
  }
  return { matched, read };
}
