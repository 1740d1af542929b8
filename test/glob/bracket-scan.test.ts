/**
 * An unclosed `[` is literal, found by scanning to the end of the segment: `[` x 9,998 took 4.8 s
 * to compile (every `[` scanned the rest), past any time budget, since compiling is not a step of
 * the walk (an adversarial run, 2026-12-06; `[:` x 4,995 then `:]` took minutes). parse.ts now
 * remembers what a failed scan read (`ClassScans`). Two families: the same parse as the plain
 * scan on generated segments made of the characters that decide a class (a reference written
 * here, the scan as it was: no shortcut may change a reading), and every such shape at the
 * pattern length limit answered by each form in a child process with a deadline (a regression
 * fails there instead of holding the suite).
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { parseSegment, type GlobNode } from '../../src/glob/parse.js';
import { isPosixClassName } from '../../src/glob/posix-classes.js';
import { mulberry32 } from '../helpers/prng.js';

/** The reference: parse.ts's sequence and class reading for segments without groups, one full scan per `[`. */
function reference(glob: string): GlobNode[] | string {
  const nodes: GlobNode[] = [];
  let i = 0;
  try {
    while (i < glob.length) {
      const ch = glob[i]!;
      if (ch === '\\') {
        const next = i + 1 < glob.length ? glob.codePointAt(i + 1)! : undefined;
        nodes.push({ kind: 'char', cp: next ?? 0x5c });
        i += next === undefined ? 1 : 2;
      } else if (ch === '*') {
        while (glob[i] === '*') i++;
        if (nodes.at(-1)?.kind !== 'star') nodes.push({ kind: 'star' });
      } else if (ch === '?') {
        nodes.push({ kind: 'one' });
        i++;
      } else {
        const cls = ch === '[' ? referenceClass(glob, i) : undefined;
        if (cls === undefined) {
          nodes.push({ kind: 'char', cp: glob.codePointAt(i)! });
          i++;
        } else {
          nodes.push(cls.node);
          i = cls.next;
        }
      }
    }
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  }
  return nodes;
}

function referenceClass(glob: string, start: number): { node: GlobNode; next: number } | undefined {
  const end = glob.length;
  let i = start + 1;
  const negated = glob[i] === '!' || glob[i] === '^';
  if (negated) i++;
  const items: unknown[] = [];
  let first = true;
  while (i < end) {
    if (glob[i] === ']' && !first) return { node: { kind: 'class', negated, items } as GlobNode, next: i + 1 };
    first = false;
    if (glob[i] === '[' && (glob[i + 1] === '.' || glob[i + 1] === '=')) {
      const close = glob.indexOf(`${glob[i + 1]}]`, i + 2);
      if (close >= 0 && close + 2 <= end) throw Object.assign(new Error('collating'), { code: 'FF_INVALID_PATTERN' });
      // A `[.` never closed: the set is never closed either (bash 5.2).
      if (glob[i + 1] === '.') return undefined;
    }
    if (glob[i] === '[' && glob[i + 1] === ':') {
      const nameEnd = glob.indexOf(':]', i + 2);
      if (nameEnd >= 0 && nameEnd + 2 <= end) {
        const name = glob.slice(i + 2, nameEnd).replace(/\\(.?)/gs, '$1');
        items.push(isPosixClassName(name) ? { posix: name } : { lo: 1, hi: 0 });
        i = nameEnd + 2;
        continue;
      }
      // A `[:` never closed loses its `[` (bash 5.2).
      i++;
    }
    if (glob[i] === '\\' && i + 1 < end) i++;
    const lo = glob.codePointAt(i)!;
    i++;
    if (glob[i] === '-' && i + 1 < end && glob[i + 1] !== ']') {
      let j = i + 1;
      if (glob[j] === '\\' && j + 1 < end) j++;
      items.push({ lo, hi: glob.codePointAt(j)! });
      i = j + 1;
      continue;
    }
    items.push({ lo, hi: lo });
  }
  return undefined;
}

function ours(glob: string): GlobNode[] | string {
  try {
    return parseSegment(glob, true, glob).nodes;
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  }
}

/** Weighted toward what opens, closes and names a class; `alpha` and `x` make POSIX names known and unknown. */
const PIECES = ['[', '[', '[', ']', ']', '!', '^', ':', '[:', ':]', '[:alpha:]', '[:x:]', '\\', '-', 'a', 'b', '.', '=', '*', '?', '[!', '[]'];

describe('the scan of `[` reads every segment as the plain scan does', () => {
  it('3,000 generated segments of up to 40 pieces, and 200 of up to 600', () => {
    const random = mulberry32(20261206);
    const failures: string[] = [];
    let classes = 0;
    let literal = 0;
    for (let n = 0; n < 3200; n++) {
      const size = 1 + Math.floor(random() * (n < 3000 ? 40 : 600));
      const glob = Array.from({ length: size }, () => PIECES[Math.floor(random() * PIECES.length)]!).join('');
      const expected = reference(glob);
      const got = ours(glob);
      if (JSON.stringify(got) !== JSON.stringify(expected)) failures.push(`${JSON.stringify(glob)}: ${JSON.stringify(got).slice(0, 200)} against ${JSON.stringify(expected).slice(0, 200)}`);
      if (typeof expected !== 'string') {
        classes += expected.filter((node) => node.kind === 'class').length;
        literal += expected.filter((node) => node.kind === 'char' && node.cp === 0x5b).length;
      }
    }
    expect(failures.slice(0, 5)).toEqual([]);
    // Both readings of `[` in numbers: closed classes, and brackets read as themselves.
    expect(classes).toBeGreaterThan(3000);
    expect(literal).toBeGreaterThan(3000);
  });
});

describe('a segment of brackets at the length limit compiles at once', () => {
  it('each shape, alone and closed by `]` or `:]`, through findFiles, findFilesSync, findFilesStream and as an exclude', () => {
    // A child process with a deadline: the quadratic scan took 3 s for `[` alone and minutes for `[:`.
    const script = `
      const { findFiles, findFilesSync, findFilesStream } = await import(${JSON.stringify(new URL('../../dist/lib/index.js', import.meta.url).href)});
      const { mkdtempSync, writeFileSync, rmSync } = await import('node:fs');
      const root = mkdtempSync((await import('node:os')).tmpdir() + '/ff-brackets-');
      writeFileSync(root + '/a.txt', '');
      const shapes = ['[', '[!', '[^', '[]', '[!]', '[\\\\]', '[!\\\\]', '[:', '[[:', '[:a', '[a-', '[[', '[\\\\', '[-', '[!a'];
      const answers = [];
      try {
        for (const piece of shapes) {
          for (const tail of ['', ']', ':]']) {
            const pattern = piece.repeat(Math.floor(9990 / piece.length)) + tail;
            try {
              const a = await findFiles({ root, pattern });
              const s = findFilesSync({ root, pattern });
              let streamed = 0;
              for await (const batch of findFilesStream({ root, pattern })) streamed += batch.length;
              const excluded = await findFiles({ root, pattern: '*.txt', exclude: [pattern] });
              answers.push([a.complete, a.matchedCount, s.complete, s.matchedCount, streamed, excluded.matchedCount]);
            } catch (error) {
              answers.push(error.code ?? String(error));
            }
          }
        }
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
      console.log(JSON.stringify(answers));`;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60_000 });
    expect(run.error, 'the child did not answer within 60 s').toBeUndefined();
    expect(run.status, run.stderr).toBe(0);
    const answers = JSON.parse(run.stdout) as (unknown[] | string)[];
    expect(answers).toHaveLength(45);
    // No shape names a.txt, and each is complete in every form; as an exclude each leaves a.txt in.
    // A shape whose classes cost too much to compile is refused, as the limit says (never a wrong answer).
    const refused = answers.filter((answer) => answer === 'FF_PATTERN_TOO_LARGE');
    for (const answer of answers) if (answer !== 'FF_PATTERN_TOO_LARGE') expect(answer).toEqual([true, 0, true, 0, 0, 1]);
    expect(answers.length - refused.length).toBeGreaterThanOrEqual(20);
  });

  it('shapes whose ranges put each scan out of step with the last (`[!-`: `!-[` swallows the next `[`), parsed 20 times each', () => {
    // An adversarial run found these after the first fix: a failed scan's marks were asked at a later
    // scan's first item only, and here every later scan's items fell between them (0.2-0.6 s a parse).
    const script = `
      const { parseSegment } = await import(${JSON.stringify(new URL('../../dist/glob/parse.js', import.meta.url).href)});
      const shapes = ['[!-', '[-[[', '[-!!', '[[-', '[-=[', '[-.', '[!-[:x:]', '[a-[!'];
      const read = [];
      for (const piece of shapes) {
        for (const tail of ['', ']', '[:x:]']) {
          const glob = piece.repeat(Math.floor(9990 / piece.length)) + tail;
          let nodes;
          for (let n = 0; n < 20; n++) nodes = parseSegment(glob, true, glob).nodes;
          read.push(nodes.length);
        }
      }
      console.log(JSON.stringify(read));`;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60_000 });
    expect(run.error, 'the child did not answer within 60 s').toBeUndefined();
    expect(run.status, run.stderr).toBe(0);
    const read = JSON.parse(run.stdout) as number[];
    expect(read).toHaveLength(24);
    for (const count of read) expect(count).toBeGreaterThan(0);
  });
});
