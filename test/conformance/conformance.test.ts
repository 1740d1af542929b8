/**
 * Glob conformance: find-file's matches, on small generated real trees, against oracles nobody on
 * this team wrote (test/conformance/oracles.ts): bash's own pathname expansion and minimatch's
 * `match`; and, for the other backends and API forms, the walker's own answer (`backend:
 * 'ripgrep'` and `'auto'`, `findFilesSync`, `findFilesStream` against `findFiles`). A result that
 * says `complete: true` while a file the pattern matches exists fails here, as does a pattern
 * refused that docs/contract.md does not refuse, and a pattern find-file does not answer in time.
 * The only tolerated differences are in deviations.ts, each with its reason.
 *
 * The system under test is the built package (dist/lib/index.js, the bundle package.json exports: `npm test` builds it first), run in a
 * child process (sut-child.mjs) so that a hang is a reported disagreement, not a hung run.
 *
 * Environment: FF_CONFORMANCE_SEED (default below) picks the trees and patterns;
 * FF_CONFORMANCE_CASES the number of pattern x tree cases (`npm run test:conformance:long` runs
 * many more); FF_CONFORMANCE_KEEP=1 keeps the trees (their directory is printed);
 * FF_CONFORMANCE_REPORT=file writes every disagreement as JSON; FF_CONFORMANCE_SUT=path/index.js
 * tests another build (for example one of an older commit).
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { braceExpand } from 'minimatch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasRg, needsRg, requireRipgrepInCi } from '../helpers/real-rg.js';
import { knownDeviation, intendedRefusal, type Disagreement, type OracleName } from './deviations.js';
import { Rng, generatePatterns, generateTree, materializeTree, type GeneratedPattern } from './generate.js';
import { bashOracle, bashVersion, listDirectories, listRegularFiles, minimatchOracle } from './oracles.js';
import { pool } from '../helpers/pool.js';
import { itIf, posixOnly } from '../helpers/skip-why.js';
import { SutRunner, type Answer, type Mode } from './sut.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const SUT = resolve(process.env.FF_CONFORMANCE_SUT ?? join(REPO, 'dist/lib/index.js'));
const SEED = Number(process.env.FF_CONFORMANCE_SEED ?? 20261203);
const CASES = Number(process.env.FF_CONFORMANCE_CASES ?? 6000);
const TREES = Number(process.env.FF_CONFORMANCE_TREES ?? Math.min(400, Math.max(10, Math.ceil(CASES / 600))));
const PER_TREE = Math.ceil(CASES / TREES);
/** Cases per tree also run with `backend: 'ripgrep'` and `'auto'` (each starts one or two rg processes). */
const RG_PER_TREE = Math.min(PER_TREE, Number(process.env.FF_CONFORMANCE_RG_PER_TREE ?? 40));
/**
 * A case find-file has not answered by then (all its API forms on a tree of under 100 files), nor
 * within ten times that when asked again alone, is a hang (the first miss alone was once a worker
 * starved by two mutation runs beside the suite: "c/x2", 3 s).
 */
const CASE_TIMEOUT_MS = Number(process.env.FF_CONFORMANCE_CASE_TIMEOUT_MS ?? 3_000);
const KEEP = process.env.FF_CONFORMANCE_KEEP === '1';
const REPORT = process.env.FF_CONFORMANCE_REPORT;
/** How many disagreements a failure message lists in full (all of them go to FF_CONFORMANCE_REPORT). */
const LIST_LIMIT = 400;

const isPosix = process.platform !== 'win32';
const bash = isPosix ? bashVersion() : undefined;
const SETUP_TIMEOUT = Math.max(300_000, CASES * 60);

interface Case extends GeneratedPattern {
  tree: number;
  root: string;
  refusal: ReturnType<typeof intendedRefusal>;
  answers: Partial<Record<Mode, Answer>>;
}

interface Tree {
  index: number;
  root: string;
  files: string[];
  cases: Case[];
}


let base = '';
const trees: Tree[] = [];
let nocaseSupported = true;
const counts: Record<OracleName, number> = { bash: 0, minimatch: 0, ripgrep: 0, auto: 0, sync: 0, stream: 0, refusal: 0 };
const found: Record<OracleName, Disagreement[]> = { bash: [], minimatch: [], ripgrep: [], auto: [], sync: [], stream: [], refusal: [] };
const tolerated = new Map<string, number>();
/** A few of the disagreements each deviation covered, for FF_CONFORMANCE_REPORT (to check none hides a bug). */
const toleratedSamples = new Map<string, Disagreement[]>();
/** Patterns minimatch throws on (it builds a regex it cannot compile): no answer, not a disagreement. */
const minimatchNoAnswer: string[] = [];
let setupMs = 0;
/** Cases that missed the deadline once and answered when asked again (SutRunner askAgain). */
let slowOnce = 0;
/** Distinct questions asked of find-file (cases asking the same of a tree share one). */
let asks = 0;
const asked = (c: Case) => nocaseSupported || !c.nocase;


/** Records a disagreement unless a deviation covers it. */
function record(d: Disagreement): void {
  if (d.expectedOnly.length === 0 && d.actualOnly.length === 0 && d.note === undefined) return;
  const deviation = d.note === undefined ? knownDeviation(d) : undefined;
  if (deviation !== undefined) {
    tolerated.set(deviation.reason, (tolerated.get(deviation.reason) ?? 0) + 1);
    const samples = toleratedSamples.get(deviation.reason) ?? [];
    if (samples.length < 20) toleratedSamples.set(deviation.reason, [...samples, d]);
    return;
  }
  found[d.oracle].push(d);
}

function disagreement(oracle: OracleName, c: Case): Disagreement {
  return { oracle, pattern: c.pattern, nocase: c.nocase, tree: c.tree, root: c.root, expectedOnly: [], actualOnly: [] };
}

/** Compares find-file's answer (`findFiles`, the walker) with an oracle's set. */
function compareWithSet(oracle: OracleName, c: Case, expected: ReadonlySet<string>, context?: string): void {
  const a = c.answers.async!;
  if (a.kind !== 'result') return; // refusals, errors and hangs are the refusal check's to report
  counts[oracle]++;
  const actual = new Set(a.matches);
  const d = disagreement(oracle, c);
  d.expectedOnly = [...expected].filter((p) => !actual.has(p)).sort();
  d.actualOnly = a.matches.filter((p) => !expected.has(p));
  if (!a.complete) d.note = `incomplete (${a.reasons.join(', ')}) on a tree with nothing unreadable`;
  if (context !== undefined) d.context = context;
  record(d);
}

/** Compares another backend's or API form's answer with the walker's (matches, refusals, completeness). */
function compareWithWalker(oracle: OracleName, c: Case, mode: Mode): void {
  const reference = c.answers.async!;
  const other = c.answers[mode];
  if (other === undefined) return;
  counts[oracle]++;
  const d = disagreement(oracle, c);
  if (reference.kind === 'result' && other.kind === 'result') {
    const mine = new Set(other.matches);
    const theirs = new Set(reference.matches);
    d.expectedOnly = reference.matches.filter((p) => !mine.has(p));
    d.actualOnly = other.matches.filter((p) => !theirs.has(p));
    if (other.complete !== reference.complete || other.reasons.join() !== reference.reasons.join()) {
      d.note = `complete ${other.complete} [${other.reasons.join(', ')}], the walker: ${reference.complete} [${reference.reasons.join(', ')}]`;
    }
  } else if (reference.kind !== other.kind || (reference.kind === 'refused' && other.kind === 'refused' && reference.code !== other.code)) {
    d.note = `${describeAnswer(other)}; the walker: ${describeAnswer(reference)}`;
  }
  record(d);
}

function describeAnswer(a: Answer): string {
  if (a.kind === 'result') return `${a.matches.length} matches, complete ${a.complete}`;
  if (a.kind === 'refused') return `refused ${a.code} (${a.message})`;
  return `${a.kind}: ${a.message}`;
}

function formatDisagreement(d: Disagreement): string {
  const lines = [`[${d.oracle}] pattern ${JSON.stringify(d.pattern)}${d.nocase ? ' (case-insensitive)' : ''} in tree #${d.tree} (${d.root})`];
  if (d.note !== undefined) lines.push(`    ${d.note}`);
  if (d.context !== undefined) lines.push(`    (${d.context})`);
  if (d.expectedOnly.length > 0) lines.push(`    expected only: ${JSON.stringify(d.expectedOnly)}`);
  if (d.actualOnly.length > 0) lines.push(`    actual only:   ${JSON.stringify(d.actualOnly)}`);
  return lines.join('\n');
}

function expectNone(oracle: OracleName): void {
  // An oracle that compared nothing proves nothing: a run must have asked it something.
  expect(counts[oracle], `${oracle} cases compared`).toBeGreaterThan(0);
  const list = found[oracle];
  if (list.length === 0) return;
  const shown = list.slice(0, LIST_LIMIT).map(formatDisagreement);
  const more =
    list.length > LIST_LIMIT ? `\n... and ${list.length - LIST_LIMIT} more${REPORT ? ` (all in ${REPORT})` : ' (set FF_CONFORMANCE_REPORT=file for all)'}` : '';
  const header = `${list.length} of ${counts[oracle]} ${oracle} cases disagree (seed ${SEED}; reproduce with FF_CONFORMANCE_SEED=${SEED} FF_CONFORMANCE_CASES=${CASES} FF_CONFORMANCE_KEEP=1):`;
  expect.fail(`${header}\n${shown.join('\n')}${more}`);
}

/** The newest mtime under a directory (to warn when dist/ is older than src/). */
function newest(dir: string): number {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) t = Math.max(t, statSync(join(e.parentPath ?? (e as { path: string }).path, e.name)).mtimeMs);
  }
  return t;
}

describe.skipIf(!isPosix)(posixOnly(`glob conformance (seed ${SEED}, ${CASES} cases over ${TREES} trees)`, 'the oracles are bash globs and find on trees with names Windows cannot hold'), () => {
  requireRipgrepInCi();
  if (bash === undefined && process.env.CI && process.platform === 'linux') {
    it('bash 4+ is installed (CI runs the bash oracle, it never skips it)', () => {
      throw new Error('CI is set and bash 4+ (globstar, extglob) was not found');
    });
  }

  beforeAll(async () => {
    const started = performance.now();
    if (!existsSync(SUT)) throw new Error(`${SUT} does not exist: run \`npm run build\` first (\`npm test\` does)`);
    if (process.env.FF_CONFORMANCE_SUT === undefined && newest(join(REPO, 'src')) > statSync(SUT).mtimeMs) {
      console.warn('[conformance] dist/ is older than src/: this run tests the last build (npm run build)');
    }
    base = mkdtempSync(join(tmpdir(), 'ff-conformance-'));
    const runners = [new SutRunner(SUT, CASE_TIMEOUT_MS, true), new SutRunner(SUT, CASE_TIMEOUT_MS, true)];
    try {
      // A find-file from before `caseSensitive`: case-insensitive cases cannot be asked.
      const probeRoot = join(base, 'probe');
      materializeTree(probeRoot, { files: ['x'], dirs: [], links: [] });
      const probe = (await runners[0]!.run(probeRoot, { pattern: 'x', nocase: true }, ['async'])).async;
      if (probe?.kind === 'error' && /FF_UNKNOWN_OPTION/.test(probe.message)) nocaseSupported = false;
      const master = new Rng(SEED);
      for (let index = 0; index < TREES; index++) {
        const rng = master.fork();
        const root = join(base, `t${index}`);
        materializeTree(root, generateTree(rng, index === 0));
        const files = listRegularFiles(root);
        const patterns = generatePatterns(rng, files, listDirectories(root), PER_TREE, index === 0);
        // Which cases also run on ripgrep: spread over the tree's cases (on the first tree also the fixed ones).
        const step = Math.max(1, Math.floor(patterns.length / Math.max(RG_PER_TREE, 1)));
        const onRg = (p: GeneratedPattern, i: number) => hasRg && RG_PER_TREE > 0 && ((index === 0 && p.tags.includes('fixed')) || (i % step === 0 && i / step < RG_PER_TREE));
        const cases: Case[] = patterns.map((p) => ({ ...p, tree: index, root, refusal: intendedRefusal(p.pattern, braceExpand(p.pattern)), answers: {} }));
        const modesOf = (i: number): Mode[] => ['async', 'sync', 'stream', ...(onRg(patterns[i]!, i) ? (['ripgrep', 'auto'] as const) : [])];
        // A question asked twice of a tree (the same pattern and case mode: one case in eight, mostly the
        // fixed shapes drawn again) is asked of find-file once, every form either case wants; each case
        // keeps the answers of its own forms. The same call on the same tree: its answer is that call's.
        const questions = new Map<string, { ask: GeneratedPattern; modes: Set<Mode>; cases: number[] }>();
        patterns.forEach((p, i) => {
          const key = `${p.nocase ? 'I' : 'C'}${p.pattern}`;
          const q = questions.get(key) ?? { ask: p, modes: new Set<Mode>(), cases: [] };
          for (const mode of modesOf(i)) q.modes.add(mode);
          q.cases.push(i);
          questions.set(key, q);
        });
        asks += questions.size;
        await pool([...questions.values()], runners.length, async (q, lane) => {
          const answers = await runners[lane]!.run(root, q.ask, [...q.modes]);
          for (const i of q.cases) cases[i]!.answers = Object.fromEntries(modesOf(i).map((m) => [m, answers[m]]));
        });
        // The other API forms and backends are compared with findFiles now, and only its answer kept
        // (a long run holds hundreds of thousands of answers otherwise). Their tests report below.
        for (const c of cases) {
          if (asked(c)) {
            compareWithWalker('sync', c, 'sync');
            compareWithWalker('stream', c, 'stream');
            compareWithWalker('ripgrep', c, 'ripgrep');
            compareWithWalker('auto', c, 'auto');
          }
          c.answers = { async: c.answers.async };
        }
        trees.push({ index, root, files, cases });
      }
    } finally {
      for (const r of runners) r.stop();
      slowOnce = runners.reduce((n, r) => n + r.slowOnce, 0);
    }
    setupMs = performance.now() - started;
  }, SETUP_TIMEOUT);

  afterAll(() => {
    const summary =
      `[conformance] seed ${SEED}: ${trees.length} trees, ${trees.reduce((n, t) => n + t.cases.length, 0)} cases (${asks} distinct questions), find-file answered in ${(setupMs / 1000).toFixed(1)} s (${slowOnce} answered only when asked again); ` +
      `checked against bash ${counts.bash}, minimatch ${counts.minimatch}, ripgrep ${counts.ripgrep}, auto ${counts.auto}, ` +
      `findFilesSync ${counts.sync}, findFilesStream ${counts.stream}, refusal rules ${counts.refusal}; ` +
      `disagreements: ${Object.entries(found).map(([k, v]) => `${k} ${v.length}`).join(', ')}` +
      (minimatchNoAnswer.length > 0 ? `; minimatch could not compile ${minimatchNoAnswer.length} (e.g. ${JSON.stringify(minimatchNoAnswer[0])})` : '') +
      (nocaseSupported ? '' : '; case-insensitive cases skipped (no caseSensitive option)') +
      (bash === undefined ? '; bash oracle skipped (no bash 4+)' : `; bash ${bash}`) +
      (tolerated.size > 0 ? `; tolerated by deviations.ts: ${[...tolerated].map(([r, n]) => `${n}x "${r.slice(0, 70)}..."`).join(', ')}` : '');
    console.log(summary);
    if (REPORT) writeFileSync(REPORT, JSON.stringify({ seed: SEED, cases: CASES, trees: TREES, base, counts, found, tolerated: Object.fromEntries(toleratedSamples) }, null, 1));
    if (base !== '' && !KEEP) rmSync(base, { recursive: true, force: true });
    if (KEEP) console.log(`[conformance] trees kept in ${base}`);
  });

  const searched = (t: Tree) => t.cases.filter((c) => c.refusal === undefined && asked(c));

  it('refuses exactly the intended patterns (docs/contract.md), and answers every other one (no error, no hang)', () => {
    for (const t of trees) {
      for (const c of t.cases.filter(asked)) {
        counts.refusal++;
        const a = c.answers.async!;
        const d = disagreement('refusal', c);
        if (c.refusal !== undefined) {
          if (a.kind !== 'refused' || a.code !== c.refusal.code) d.note = `should be refused with ${c.refusal.code} (${c.refusal.reason}); got ${describeAnswer(a)}`;
        } else if (a.kind !== 'result') {
          d.note = `${describeAnswer(a)}${a.kind === 'refused' ? ': not one of the refusals docs/contract.md lists' : ''}`;
        }
        record(d);
      }
    }
    expectNone('refusal');
  }, SETUP_TIMEOUT);

  itIf([bash !== undefined, 'bash is not installed'])('matches what bash globs (globstar extglob dotglob nullglob, C.UTF-8)', () => {
    for (const t of trees) {
      const cases = searched(t);
      const answers = bashOracle(t.root, cases, new Set(t.files));
      cases.forEach((c, i) => {
        const { expected, braces } = answers[i]!;
        const context = braces && `bash expands the braces to ${JSON.stringify(braces.bash)}, minimatch's braceExpand (find-file's) to ${JSON.stringify(braces.braceExpand)}`;
        compareWithSet('bash', c, expected, context);
      });
    }
    expectNone('bash');
  }, SETUP_TIMEOUT);

  it('matches what minimatch matches (Minimatch#match over find -type f)', () => {
    for (const t of trees) {
      for (const c of searched(t)) {
        const expected = minimatchOracle(t.files, c);
        if (expected instanceof Error) minimatchNoAnswer.push(c.pattern);
        else compareWithSet('minimatch', c, expected);
      }
    }
    expectNone('minimatch');
  }, SETUP_TIMEOUT);

  it('findFilesSync and findFilesStream return what findFiles returns', () => {
    // Compared as each tree's answers came in (beforeAll).
    expect(counts.sync).toBeGreaterThan(0);
    expectNone('sync');
    expectNone('stream');
  });

  itIf(needsRg)("backend 'ripgrep' and 'auto' return what the walker returns, completeness included", () => {
    expect(counts.ripgrep).toBeGreaterThan(0);
    expectNone('ripgrep');
    expectNone('auto');
  });
});
