/**
 * "Did you mean": the file names closest to what the model looked for.
 *
 * Similarity is the Dice coefficient over character bigrams (multiset, case-folded):
 * 2·|shared bigrams| / (|bigrams of a| + |bigrams of b|). It forgives a dropped, doubled or swapped
 * letter (`loginServce.ts` ~ `loginService.ts`: 0.89) and is cheap enough to run over every name a
 * search saw, on the failure path only.
 *
 * The pattern's literal part is its last path segment without glob syntax. When wildcards stand
 * around it (`*Servce*`), it is a fragment of the name, so it is compared with every window of the
 * name of about its length, and the best window counts.
 */

/** Names below this score are not suggested: a weak "similar" name misleads more than none. */
export const SIMILARITY_THRESHOLD = 0.5;
export const SIMILAR_NAMES = 3;

export interface Literal {
  text: string;
  /** True when wildcards surround the text: it is part of a name, not a whole one. */
  fragment: boolean;
}

/** The literal part of a glob's last segment; undefined for a bare `*.ext` or fewer than 2 characters. */
export function literalOf(pattern: string): Literal | undefined {
  const last = pattern.replace(/\\/g, '/').split('/').filter((s) => s !== '' && s !== '**').pop() ?? '';
  const firstBrace = (s: string) => s.replace(/\{([^{}]*)\}/g, (_, body: string) => body.split(',')[0] ?? '');
  // `*.ts`: only an extension, and no file name "resembles" an extension; the overview says more.
  if (/^\*\.[^*?[\]{}]+$/.test(last)) return undefined;
  const text = firstBrace(last)
    .replace(/\[[^\]]*\]/g, '')
    .replace(/[*?!+@()|]/g, '');
  if (text.length < 2) return undefined;
  return { text, fragment: /[*?[]/.test(last) };
}

/**
 * A bigram as a number (its two UTF-16 units); a string shorter than two characters is one gram of
 * its own. Perf: numbers, not two-character strings, as map keys (see `closestNames`).
 */
function gramAt(t: string, i: number): number {
  return t.charCodeAt(i) * 0x10000 + t.charCodeAt(i + 1);
}

function bigrams(s: string): Map<number, number> {
  return bigramsOfFolded(s.toLowerCase());
}

/** The bigrams of a string already case-folded. */
function bigramsOfFolded(t: string): Map<number, number> {
  const grams = new Map<number, number>();
  if (t.length < 2) {
    grams.set(-1 - (t.charCodeAt(0) || 0), 1);
    return grams;
  }
  for (let i = 0; i < t.length - 1; i++) {
    const g = gramAt(t, i);
    grams.set(g, (grams.get(g) ?? 0) + 1);
  }
  return grams;
}

/** Dice of `a` (its bigrams and their number) and `b`, already case-folded. */
function diceOf(a: Map<number, number>, sizeA: number, b: string): number {
  const gb = bigramsOfFolded(b);
  let sizeB = 0;
  let shared = 0;
  for (const [g, n] of gb) {
    sizeB += n;
    shared += Math.min(n, a.get(g) ?? 0);
  }
  return sizeA + sizeB === 0 ? 0 : (2 * shared) / (sizeA + sizeB);
}

/** The Dice coefficient of two strings over character bigrams, case-folded. */
export function dice(a: string, b: string): number {
  const ga = bigrams(a);
  return diceOf(ga, sizeOf(ga), b.toLowerCase());
}

function sizeOf(grams: Map<number, number>): number {
  let n = 0;
  for (const v of grams.values()) n += v;
  return n;
}

/**
 * The best Dice score of a window of `name` (case-folded: `lower`) of width `len - 1` to `len + 1`.
 * Each width slides once, its bigram counts kept as it goes (one gram in, one out), so a name costs
 * (its length × 3) steps: building each window's bigrams anew made a 214-character name cost 34,000,
 * and the agent's glob froze an MCP server 90 s over 50,000 such names (an adversarial run). Only
 * the literal's own bigrams are counted: no other can be shared.
 */
function bestWindowScore(grams: Map<number, number>, size: number, lower: string, len: number): number {
  let best = 0;
  for (let w = Math.max(2, len - 1); w <= len + 1 && w <= lower.length; w++) {
    const counts = new Map<number, number>();
    let shared = 0;
    const add = (g: number) => {
      const want = grams.get(g);
      if (want === undefined) return;
      const had = counts.get(g) ?? 0;
      if (had < want) shared++;
      counts.set(g, had + 1);
    };
    const remove = (g: number) => {
      const want = grams.get(g);
      if (want === undefined) return;
      const left = counts.get(g)! - 1;
      if (left < want) shared--;
      counts.set(g, left);
    };
    for (let j = 0; j < w - 1; j++) add(gramAt(lower, j));
    const denominator = size + w - 1;
    best = Math.max(best, (2 * shared) / denominator);
    for (let i = 1; i + w <= lower.length; i++) {
      remove(gramAt(lower, i - 1));
      add(gramAt(lower, i + w - 2));
      best = Math.max(best, (2 * shared) / denominator);
    }
  }
  return best;
}

/**
 * The `k` paths whose base names are closest to `literal`, best first; ties go to the shorter,
 * then the smaller path, so the answer does not depend on the walk's order.
 */
export function closestNames(literal: Literal, paths: readonly string[], k = SIMILAR_NAMES): string[] {
  const grams = bigrams(literal.text);
  const size = sizeOf(grams);
  const len = literal.text.length;
  const scored: { path: string; score: number }[] = [];
  for (const path of paths) {
    const name = path.slice(path.lastIndexOf('/') + 1);
    const folded = name.toLowerCase();
    let score = diceOf(grams, size, folded);
    if (literal.fragment && name.length > len) score = Math.max(score, bestWindowScore(grams, size, folded, len));
    if (score >= SIMILARITY_THRESHOLD) scored.push({ path, score });
  }
  scored.sort((a, b) => b.score - a.score || a.path.length - b.path.length || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return scored.slice(0, k).map((s) => s.path);
}

/**
 * The edit distance of two strings, case-folded, where swapping two neighbours is one edit
 * (optimal string alignment). Short names are where bigrams fail: `sorc` shares one bigram with
 * `src` and `lbi` none with `lib`, yet each is one edit away.
 */
export function editDistance(a: string, b: string): number {
  const s = a.toLowerCase();
  const t = b.toLowerCase();
  // Rows i-2, i-1 and i of the table; Perf: names are short, three rows are enough.
  let before: number[] = [];
  let prev = Array.from({ length: t.length + 1 }, (_, j) => j);
  for (let i = 1; i <= s.length; i++) {
    const row = [i];
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      let d = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1]) d = Math.min(d, before[j - 2]! + 1);
      row.push(d);
    }
    before = prev;
    prev = row;
  }
  return prev[t.length]!;
}

/**
 * The `k` names closest to `name` for a mistyped folder: within one edit (two for names of five
 * characters or more), or similar by bigrams; fewest edits first, then by name.
 */
export function closestFolderNames(name: string, names: readonly string[], k = SIMILAR_NAMES): string[] {
  const limit = name.length >= 5 ? 2 : 1;
  const scored = names
    .map((candidate) => ({ candidate, edits: editDistance(name, candidate) }))
    .filter(({ candidate, edits }) => edits <= limit || dice(name, candidate) >= SIMILARITY_THRESHOLD);
  scored.sort((a, b) => a.edits - b.edits || (a.candidate < b.candidate ? -1 : a.candidate > b.candidate ? 1 : 0));
  return scored.slice(0, k).map((s) => s.candidate);
}
