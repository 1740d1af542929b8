/**
 * `sort: 'relevance'`: an order in which a model reads the right file first. The default order
 * stays the path order; this only reorders what the search found, never adds or drops a result.
 *
 * Signals, each a fixed number of points (higher sorts first):
 * - a word of the query (split at non-alphanumerics and camelCase humps, case-folded, 2+ chars)
 *   in the file's name: +10 per word; in its directories: +3 per word;
 * - under a source folder (`src`, `lib`, `app`, `packages`, ...): +4;
 * - under build output (`dist`, `build`, `out`, `target`, `coverage`, ...): -15;
 * - under vendored code (`node_modules`, `vendor`, `third_party`, ...): -20;
 * - a generated-looking name (`*.min.js`, `*.map`): -10;
 * - size, read with `lstat` for the returned page only (never for every match): over 256 KiB -3,
 *   over 1 MiB -8. A size that cannot be read costs nothing.
 * Ties go to the shallower path, then path order, so the same tree gives the same order.
 * Last, each test file (`x.test.ts`, `x_test.go`, `test_x.py`, `XTest.java`, or under `test/`,
 * `tests/`, `__tests__/`, `spec/`) moves right after the first file on the page it tests (same
 * name once the test markers are removed): tests next to the code they test.
 */

const SOURCE_DIRS = new Set(['src', 'lib', 'app', 'source', 'sources', 'packages', 'pkg', 'cmd', 'internal', 'server', 'client']);
const BUILD_DIRS = new Set(['dist', 'build', 'out', 'target', 'coverage', '.next', '.nuxt', '.cache', 'obj', '__pycache__']);
const VENDOR_DIRS = new Set(['node_modules', 'vendor', 'third_party', 'third-party', 'bower_components', '.yarn', 'site-packages', '.venv', 'venv', 'Pods']);
const TEST_DIRS = new Set(['test', 'tests', '__tests__', 'spec', 'specs']);
const HUGE = 1024 * 1024;
const LARGE = 256 * 1024;

/** The words of a query or pattern: `loginService.ts` → login, service, ts. */
export function wordsOf(text: string): string[] {
  const words = text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .map((w) => w.toLowerCase())
    .filter((w) => w.length >= 2);
  return [...new Set(words)];
}

/** The points of one path without its size. */
export function scorePath(path: string, words: readonly string[]): number {
  const slash = path.lastIndexOf('/');
  const name = path.slice(slash + 1).toLowerCase();
  const dirs = slash < 0 ? [] : path.slice(0, slash).split('/');
  const dirText = dirs.join('/').toLowerCase();
  let score = 0;
  for (const w of words) {
    if (name.includes(w)) score += 10;
    else if (dirText.includes(w)) score += 3;
  }
  if (dirs.some((d) => SOURCE_DIRS.has(d))) score += 4;
  if (dirs.some((d) => BUILD_DIRS.has(d))) score -= 15;
  if (dirs.some((d) => VENDOR_DIRS.has(d))) score -= 20;
  if (/\.min\.[a-z]+$|\.map$/.test(name)) score -= 10;
  return score;
}

export function sizePoints(size: number | undefined): number {
  if (size === undefined) return 0;
  return size > HUGE ? -8 : size > LARGE ? -3 : 0;
}

/** Paths by relevance without sizes: the order that decides which results make the page. */
export function relevanceOrder(paths: readonly string[], words: readonly string[], bonus: (path: string) => number = () => 0): string[] {
  return orderBy(paths, (p) => scorePath(p, words) + bonus(p));
}

/** The page's final order: sizes counted in, then each test placed after the code it tests. */
export function refinePage(page: readonly string[], words: readonly string[], sizes: ReadonlyMap<string, number | undefined>, bonus: (path: string) => number = () => 0): string[] {
  return groupTests(orderBy(page, (p) => scorePath(p, words) + bonus(p) + sizePoints(sizes.get(p))));
}

function orderBy(paths: readonly string[], score: (path: string) => number): string[] {
  return paths
    .map((path) => ({ path, score: score(path), depth: depthOf(path) }))
    .sort((a, b) => b.score - a.score || a.depth - b.depth || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
    .map((x) => x.path);
}

function depthOf(path: string): number {
  let n = 0;
  for (let i = 0; i < path.length; i++) if (path.charCodeAt(i) === 47) n++;
  return n;
}

/** A test file's subject (`loginService.test.ts` → `loginservice`), or undefined for a non-test. */
export function testSubject(path: string): string | undefined {
  const parts = path.split('/');
  const name = parts.pop()!;
  const stem = name.replace(/\.[^.]*$/, '');
  const marked = stem.match(/^(.+?)[._-](test|spec)$/i) ?? stem.match(/^test_(.+)$/i) ?? stem.match(/^(.+[a-z0-9])(Test|Tests|Spec)$/);
  if (marked) return marked[1]!.toLowerCase();
  if (parts.some((d) => TEST_DIRS.has(d))) return stem.toLowerCase();
  return undefined;
}

function subjectOf(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  return name.replace(/\.[^.]*$/, '').toLowerCase();
}

/** Moves each test right after the first non-test with its subject; the rest keep their order. */
export function groupTests(ordered: readonly string[]): string[] {
  const firstCode = new Map<string, string>();
  for (const p of ordered) {
    if (testSubject(p) !== undefined) continue;
    const s = subjectOf(p);
    if (!firstCode.has(s)) firstCode.set(s, p);
  }
  const testsOf = new Map<string, string[]>();
  for (const p of ordered) {
    const s = testSubject(p);
    if (s === undefined || !firstCode.has(s)) continue;
    const list = testsOf.get(s) ?? [];
    list.push(p);
    testsOf.set(s, list);
  }
  const out: string[] = [];
  for (const p of ordered) {
    const s = testSubject(p);
    if (s !== undefined && firstCode.has(s)) continue;
    out.push(p);
    const subject = subjectOf(p);
    if (s === undefined && firstCode.get(subject) === p) out.push(...(testsOf.get(subject) ?? []));
  }
  return out;
}
