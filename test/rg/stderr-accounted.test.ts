/**
 * Every message ripgrep prints about a path it could not read must leave the answer incomplete,
 * whatever the path's name makes of its lines (src/rg/stderr.ts, src/rg/ignore-warnings.ts). An
 * adversarial run: a denied directory named `g: gone (os error 2)⏎.gitignore: line 1: error parsing
 * glob 'z` made ripgrep 13 print `./g: gone (os error 2)` (a vanished `g`, believed: `g` is gone) and
 * `.gitignore: line 1: error parsing glob 'z: Permission denied (os error 13)` (dropped as an
 * ignore-file warning), and the search said complete over a directory it never read.
 *
 * Generated here: names made of fragments of ripgrep's own message shapes joined by newlines, each
 * a real directory on disk (with decoys the fragments name, and real warnings about real ignore
 * files inside and above the root that the fragments copy word for word); ripgrep's message about
 * that directory is cut into lines as ripgrep prints it and read by the checked reader beside the
 * true warnings. The verdict (exit 2) must never be complete. The same stderr without the denial
 * must be: the true warnings alone explain ripgrep 13's exit 2. As any user, on the real disk.
 * The unprivileged run against the real ripgrep is test/rg/stderr-forged-family.test.ts.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectReasons, judgeRun } from '../../src/rg/exit.js';
import { parseIgnoreWarning } from '../../src/rg/ignore-warnings.js';
import { StderrReader } from '../../src/rg/stderr.js';
import { mulberry32 } from '../helpers/prng.js';
import { posixOnly } from '../helpers/skip-why.js';
import { checkedStderr } from '../helpers/search-answer.js';

const isPosix = process.platform !== 'win32';
const UNCLOSED = ": unclosed character class; missing ']'";

/** The fragments names are made of: ripgrep's message shapes, and real lines it prints for this tree. */
function fragments(base: string): string[] {
  return [
    'g: gone (os error 2)',
    'g: No such file or directory (os error 2)',
    'f: Not a directory (os error 20)',
    ".gitignore: line 1: error parsing glob 'z",
    `./sub/.ignore: line 1: error parsing glob 'q['${UNCLOSED}`,
    `${base}/.gitignore: line 1: error parsing glob '['${UNCLOSED}`,
    `rg: ${base}/.ignore: line 1: error parsing glob '[z-a]': invalid range; 'z' > 'a'`,
    "./deny/.rgignore: line 2: error parsing glob 'a{b': unclosed alternate group; missing '}' (maybe escape '{' with '[{]'?)",
    './deny',
    './locked',
    '.',
    '',
    '   ',
    'rg: ./deny: Permission denied (os error 13)',
    '.: Permission denied (os error 13)',
    './deny: Input/output error (os error 5)',
    "error parsing glob 'z': nested alternate groups are not allowed",
    'x: line 1: error parsing glob',
  ];
}

/** The true warnings ripgrep 13 prints for the tree below (`./sub/.ignore` and the parents' files). */
function trueWarnings(base: string): string[] {
  return [
    `./sub/.ignore: line 1: error parsing glob 'q['${UNCLOSED}`,
    "./deny/.rgignore: line 2: error parsing glob 'a{b': unclosed alternate group; missing '}' (maybe escape '{' with '[{]'?)",
    `${base}/.gitignore: line 1: error parsing glob '['${UNCLOSED}`,
    `rg: ${base}/.ignore: line 1: error parsing glob '[z-a]': invalid range; 'z' > 'a'`,
    `${base}/.git/info/exclude: line 2: error parsing glob 'x['${UNCLOSED}`,
  ];
}

/** A generated name (a relative path: a fragment may hold `/`), or undefined when it is not one a disk can hold. */
function craftedPath(random: () => number, parts: readonly string[]): string | undefined {
  const count = 1 + Math.floor(random() * 4);
  const picked = Array.from({ length: count }, () => parts[Math.floor(random() * parts.length)]!);
  let path = picked.join('\n').replace(/^(\.\/|\/)+/, '');
  if (random() < 0.5) path += '\n.'; // so the real message's tail reads `./<suffix>`, `.: ...` or `.<suffix>`
  const components = path.split('/');
  if (components.some((c) => c === '' || c === '.' || c === '..' || Buffer.byteLength(c) > 255)) return undefined;
  return path;
}

describe.skipIf(!isPosix)(posixOnly('ripgrep stderr: a denial under any crafted name is never complete', 'the crafted names hold newlines, which Windows names cannot'), () => {
  let base: string;
  let root: string;

  beforeAll(() => {
    base = realpathSync(mkdtempSync(join(tmpdir(), 'ff-stderr-accounted-')));
    mkdirSync(join(base, '.git', 'info'), { recursive: true });
    writeFileSync(join(base, '.gitignore'), '[\n*.log\n');
    writeFileSync(join(base, '.ignore'), '[z-a]   \n');
    writeFileSync(join(base, '.git', 'info', 'exclude'), '# x\nx[\n');
    root = join(base, 'root');
    for (const dir of ['sub', 'deny', 'locked']) mkdirSync(join(root, dir), { recursive: true });
    writeFileSync(join(root, 'sub', '.ignore'), 'q[\n');
    writeFileSync(join(root, 'deny', '.rgignore'), 'ok\r\na{b\r\n');
  });

  afterAll(() => rmSync(base, { recursive: true, force: true }));

  async function verdictOf(lines: readonly string[]) {
    const reader = new StderrReader('posix');
    for (const line of lines) reader.line(line);
    const report = await reader.checkedReport(root, () => false);
    const verdict = judgeRun({ kind: 'exit', code: 2, signal: null }, report);
    return { report, verdict, reasons: collectReasons(verdict, report.skipped, report.unclassified) };
  }

  it('the true warnings alone (inside the root and above it) explain exit 2: complete, nothing skipped', async () => {
    const { report, verdict, reasons } = await verdictOf(trueWarnings(base));
    expect(report).toMatchObject({ skipped: [], unclassified: 0, warnedAbove: true });
    expect(verdict.failureKind).toBeUndefined();
    expect(reasons).toEqual([]);
  });

  it('generated: ripgrep\'s message about a denied directory under a crafted name, among the true warnings, is never complete', async () => {
    const random = mulberry32(0x5eed_0b7);
    const parts = fragments(base);
    let tried = 0;
    for (let i = 0; tried < 160 && i < 2000; i++) {
      const crafted = craftedPath(random, parts);
      if (crafted === undefined) continue;
      mkdirSync(join(root, crafted), { recursive: true });
      // The denied directory is the crafted one, or one inside it; `rg: ` is ripgrep 14's prefix.
      const denied = random() < 0.5 ? crafted : `${crafted}/in`;
      const prefix = random() < 0.3 ? 'rg: ' : '';
      const message = `${prefix}./${denied}: Permission denied (os error 13)`.split('\n');
      const warnings = trueWarnings(base);
      const at = Math.floor(random() * (warnings.length + 1));
      const lines = [...warnings.slice(0, at), ...message, ...warnings.slice(at)];
      const { reasons } = await verdictOf(lines);
      expect(reasons.length, JSON.stringify(lines)).toBeGreaterThan(0);
      tried++;
    }
    expect(tried).toBe(160);
  });

  it('the adversarial run\'s name, exactly: two lines, neither believed, io-error', async () => {
    const name = "g: gone (os error 2)\n.gitignore: line 1: error parsing glob 'z";
    mkdirSync(join(root, name), { recursive: true });
    const { report, verdict } = await verdictOf(`./${name}: Permission denied (os error 13)`.split('\n'));
    expect(report).toMatchObject({ skipped: [], unclassified: 2, nonEmpty: true });
    expect(verdict.failureKind).toBe('exit');
  });
});

describe.skipIf(!isPosix)(posixOnly('ignore-rule warnings are believed only when the file bears them out', 'a FIFO by an ignore file\'s name needs mkfifo'), () => {
  let base: string;
  let root: string;

  beforeAll(() => {
    base = realpathSync(mkdtempSync(join(tmpdir(), 'ff-stderr-warnings-')));
    root = join(base, 'repo', 'src');
    mkdirSync(join(root, 'sub'), { recursive: true });
    mkdirSync(join(base, 'elsewhere'));
    writeFileSync(join(base, 'repo', '.gitignore'), 'a[\n');
    writeFileSync(join(base, 'elsewhere', '.gitignore'), 'a[\n');
    writeFileSync(join(root, 'sub', '.gitignore'), 'ok\nb[ \t\n');
    execFileSync('mkfifo', [join(base, '.ignore')]);
  });

  afterAll(() => rmSync(base, { recursive: true, force: true }));

  const check = (...lines: string[]) => checkedStderr(root, ...lines);

  it('believes a warning whose file holds that glob at that line, trailing whitespace dropped', async () => {
    expect(await check(`./sub/.gitignore: line 2: error parsing glob 'b['${UNCLOSED}`)).toMatchObject({ unclassified: 0, nonEmpty: false, warnedAbove: false });
    expect(await check(`${base}/repo/.gitignore: line 1: error parsing glob 'a['${UNCLOSED}`)).toMatchObject({ unclassified: 0, nonEmpty: false, warnedAbove: true });
  });

  it('does not believe a wrong line number, a wrong glob, a file that is not there, nor a file outside the root\'s parents', async () => {
    for (const line of [
      `./sub/.gitignore: line 1: error parsing glob 'b['${UNCLOSED}`,
      `./sub/.gitignore: line 3: error parsing glob 'b['${UNCLOSED}`,
      `./sub/.gitignore: line 0: error parsing glob 'b['${UNCLOSED}`,
      `./sub/.gitignore: line 2: error parsing glob 'c['${UNCLOSED}`,
      `./.gitignore: line 1: error parsing glob 'a['${UNCLOSED}`,
      `${base}/elsewhere/.gitignore: line 1: error parsing glob 'a['${UNCLOSED}`,
      `${root}/sub/.gitignore: line 2: error parsing glob 'b['${UNCLOSED}`,
      `repo/.gitignore: line 1: error parsing glob 'a['${UNCLOSED}`,
    ]) {
      expect(await check(line), line).toMatchObject({ unclassified: 1, nonEmpty: true, warnedAbove: false });
    }
  });

  it('a warning about an ignoreFiles file (any name) is believed for a file given to ripgrep, by the path given, and does not explain exit 2', async () => {
    const given = join(base, 'elsewhere', 'my-rules');
    writeFileSync(given, 'ok\nz[\n');
    const line = `${given}: line 2: error parsing glob 'z['${UNCLOSED}`;
    const reader = new StderrReader('posix', [given]);
    reader.line(line);
    expect(await reader.checkedReport(root, () => false)).toMatchObject({ unclassified: 0, nonEmpty: false, warnedAbove: false });
    // Not given: a name no ignore file has, so not a warning at all.
    expect(await check(line)).toMatchObject({ unclassified: 1, nonEmpty: true });
  });

  it('a FIFO named as an ignore file is not opened for good: the warning is not believed, and the check returns', async () => {
    expect(await check(`${base}/.ignore: line 1: error parsing glob 'a['${UNCLOSED}`)).toMatchObject({ unclassified: 1, warnedAbove: false });
  });

  it('a denial of a path holding U+FFFD (a byte that is not UTF-8, as ripgrep prints it) is not pinned on a readable twin', async () => {
    // `d\xff` denied beside a readable `d\uFFFD`: ripgrep names both `d\uFFFD`. The line is not believed (unattributed: io-error).
    mkdirSync(join(root, 'd\uFFFD'), { recursive: true });
    expect(await check('./d\uFFFD: Permission denied (os error 13)')).toMatchObject({ skipped: [], unclassified: 1, nonEmpty: true });
    expect(await check('./d\uFFFD: Input/output error (os error 5)')).toMatchObject({ skipped: [], unclassified: 1 });
    // Gone, it can still have vanished; without U+FFFD a readable directory can still be named (the OS may deny ripgrep otherwise).
    expect(await check('./e\uFFFD: No such file or directory (os error 2)')).toMatchObject({ skipped: [{ path: 'e\uFFFD', code: 'ENOENT' }], unclassified: 0 });
    expect(await check('./sub: Permission denied (os error 13)')).toMatchObject({ skipped: [{ path: 'sub', code: 'EACCES' }], unclassified: 0 });
  });

  it('a line that ends like a path error is never a warning, with or without ./', () => {
    expect(parseIgnoreWarning(".gitignore: line 1: error parsing glob 'z: Permission denied (os error 13)")).toBeUndefined();
    expect(parseIgnoreWarning("rg: /r/.gitignore: line 1: error parsing glob 'z': x (os error 2)")).toBeUndefined();
    expect(parseIgnoreWarning(`rg: /r/.gitignore: line 1: error parsing glob 'z['${UNCLOSED}`)).toEqual({ text: `/r/.gitignore: line 1: error parsing glob 'z['${UNCLOSED}`, file: '/r/.gitignore', lineNumber: 1 });
  });
});
