/**
 * A long ignore file is parsed in slices by the async walk, the event loop running between them,
 * so a timer's abort (or a server's cancel) is heard while it compiles. An adversarial run: under a
 * parent `.ignore` of 20,000 heavy rules an abort at 200 ms answered after 5.3 s, the compile having
 * held the thread throughout (the budget was asked as it went; an abort needs the event loop).
 */
import { describe, expect, it } from 'vitest';
import { findFiles, findFilesStream } from '../../src/index.js';
import { testIgnoreRules } from '../../src/walk/gitignore-rules.js';
import { parseIgnoreFile, parseInSlices, type ParsedAhead } from '../../src/walk/rule-reader.js';
import { asFs, buildVolume } from '../helpers/memfs.js';

/** Rules slow to compile (~0.35 ms each here): `rules` of them. */
function heavyRules(rules: number): string {
  return Array.from({ length: rules }, (_, i) => `**/${Array.from({ length: 40 }, (_, j) => 'ab*?'[(i * 7 + j * 13 + i * j) % 4]).join('')}/**/x${i}*y*z*`).join('\n') + '\nskip-*.txt\n';
}

describe('parseInSlices', () => {
  it('gives the rules parseIgnoreFile gives, letting the event loop run between slices', async () => {
    const text = heavyRules(400);
    const ahead: ParsedAhead = new Map();
    let turns = 0;
    let counting = true;
    const count = () => {
      turns++;
      if (counting) setImmediate(count);
    };
    setImmediate(count);
    await parseInSlices(text, ahead, () => false);
    counting = false;
    const whole = parseIgnoreFile(text);
    const sliced = ahead.get(text)!;
    expect(sliced).toHaveLength(whole.length);
    for (const path of ['skip-1.txt', 'a/skip-2.txt', 'keep.txt', 'x5yz', 'ab/c/x7yyzz']) expect(testIgnoreRules(sliced, path, false)).toBe(testIgnoreRules(whole, path, false));
    // Compiling 400 heavy rules takes well over one 10 ms slice on any machine: the loop ran between
    // slices (parsed at once, it never would). How many turns depends on the machine's speed.
    expect(turns).toBeGreaterThan(0);
  });

  it('stopped: keeps nothing, so the walk (stopped too) never judges with a part of a file', async () => {
    const ahead: ParsedAhead = new Map();
    let asks = 0;
    await parseInSlices(heavyRules(600), ahead, () => ++asks > 1);
    expect(ahead.size).toBe(0);
    expect(asks).toBe(2);
  });
});

describe('the async walk hears an abort while it compiles a long ignore file', () => {
  // A parent's .ignore (read before the first listing) and the root's own: both paths through the driver.
  for (const where of ['parent', 'root'] as const) {
    it(`a timer's abort during the compile of the ${where}'s .ignore ends the search long before the compile would`, async () => {
      const text = heavyRules(3000);
      const started = performance.now();
      parseIgnoreFile(text);
      const wholeCompileMs = performance.now() - started;
      const vol = buildVolume({ root: { 'a.txt': '', ...(where === 'root' ? { '.ignore': text } : {}) }, ...(where === 'parent' ? { '.ignore': text } : {}) }, '/base');
      for (const form of ['findFiles', 'stream'] as const) {
        const controller = new AbortController();
        const options = { root: '/base/root', pattern: '**', gitignore: true, fs: asFs(vol), signal: controller.signal };
        const begun = performance.now();
        setTimeout(() => controller.abort(), 20);
        let reasons: string[];
        if (form === 'findFiles') {
          reasons = (await findFiles(options)).incompleteReasons;
        } else {
          const stream = findFilesStream(options);
          for await (const _ of stream);
          reasons = (await stream.summary).incompleteReasons;
        }
        const tookMs = performance.now() - begun;
        expect(reasons, form).toEqual(['aborted']);
        // Measured against the same compile in the same run: a loaded machine slows both.
        expect(tookMs, `${form}: ${tookMs.toFixed(0)} ms, the whole compile ${wholeCompileMs.toFixed(0)} ms`).toBeLessThan(wholeCompileMs / 2);
      }
    }, 60_000);
  }
});
