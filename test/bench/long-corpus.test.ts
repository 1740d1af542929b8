/**
 * bench/lib/long-corpus.mjs: the long search's tree of hard links, or /usr/lib where it cannot be
 * made. The benchmark (bench/suites/waits.mjs) builds it at its start: a failure there must be the
 * fallback and a line on stderr, never a crash before anything is measured.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { longCorpus } from '../../bench/lib/long-corpus.mjs';

const base = mkdtempSync(join(tmpdir(), 'ff-long-corpus-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** A small source tree to link from (the real parts are /usr/lib and /usr/share). */
function source(name: string): string {
  const dir = join(base, name);
  mkdirSync(join(dir, 'sub'), { recursive: true });
  writeFileSync(join(dir, 'sub', 'f.txt'), 'static\n');
  return dir;
}

describe('longCorpus', () => {
  const src = source('src');

  it('links each part once and reuses the tree (every part marked .complete)', () => {
    const scratch = join(base, 'ok');
    const parts = [['a', src], ['b', src]] as const;
    expect(longCorpus(scratch, { parts })).toBe(join(scratch, 'long-search'));
    expect(existsSync(join(scratch, 'long-search', 'b', 'sub', 'f.txt'))).toBe(true);
    const cp = 'no-such-cp-for-this-test';
    expect(longCorpus(scratch, { parts, cp })).toBe(join(scratch, 'long-search')); // built: cp not run
  });

  it('falls back, saying why, when cp cannot be started (no GNU cp on the PATH)', () => {
    const scratch = join(base, 'no-cp');
    const said = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      expect(longCorpus(scratch, { parts: [['a', src]], fallback: '/fallback', cp: 'no-such-cp-for-this-test' })).toBe('/fallback');
      expect(String(said.mock.calls[0]?.[0])).toMatch(/no hard links from .*ENOENT.*searching \/fallback instead/);
    } finally {
      said.mockRestore();
    }
    expect(existsSync(join(scratch, 'long-search'))).toBe(false);
  });

  it('falls back when the scratch folder cannot be made (a file in its place)', () => {
    const scratch = join(base, 'not-a-dir');
    writeFileSync(scratch, '');
    const said = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      expect(longCorpus(scratch, { parts: [['a', src]], fallback: '/fallback' })).toBe('/fallback');
      expect(String(said.mock.calls[0]?.[0])).toMatch(/ENOTDIR/);
    } finally {
      said.mockRestore();
    }
  });

  it('a part left without its marker (an interrupted build) is built again, the others kept', () => {
    const scratch = join(base, 'half');
    const parts = [['a', src], ['b', src]] as const;
    longCorpus(scratch, { parts });
    rmSync(join(scratch, 'long-search', 'b', '.complete'));
    writeFileSync(join(scratch, 'long-search', 'b', 'stray'), '');
    expect(longCorpus(scratch, { parts })).toBe(join(scratch, 'long-search'));
    expect(readdirSync(join(scratch, 'long-search', 'b')).sort()).toEqual(['.complete', 'sub']);
  });
});
