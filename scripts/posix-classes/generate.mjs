/**
 * Writes src/glob/posix-class-table.ts: which code points each POSIX class holds, as glibc answers
 * in C.UTF-8 (what bash 5 asks when it matches `[[:punct:]]` against a non-ASCII name). Compiles
 * classes.c with gcc, runs it, and encodes its range lists compactly.
 *
 *   node scripts/posix-classes/generate.mjs           write the table
 *   node scripts/posix-classes/generate.mjs --check   exit 1 if the table differs from what glibc says now
 *
 * Encoding, per class: base-36 numbers separated by spaces, in pairs `gap span`, one pair per range:
 * lo = previous hi + 1 + gap (the first range counts from 0), hi = lo + span. src/glob/posix-classes.ts
 * decodes it.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fail, writeOrCheck } from '../lib/generated-file.mjs';
import { encodeRanges } from '../lib/range-table.mjs';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const TABLE = fileURLToPath(new URL('../../src/glob/posix-class-table.ts', import.meta.url));
const LINE_WIDTH = 110;


/** The C program's output: glibc's version, the locale, and each class's ranges. */
function askGlibc() {
  const dir = mkdtempSync(join(tmpdir(), 'posix-classes-'));
  try {
    const binary = join(dir, 'classes');
    const cc = spawnSync('gcc', ['-O2', '-Wall', '-Wextra', '-o', binary, join(HERE, 'classes.c')], { encoding: 'utf8' });
    if (cc.error !== undefined || cc.status !== 0) fail(`gcc failed: ${cc.error?.message ?? cc.stderr}`);
    const run = spawnSync(binary, [], { encoding: 'utf8', maxBuffer: 16 << 20 });
    if (run.error !== undefined || run.status !== 0) fail(`classes failed: ${run.error?.message ?? run.stderr}`);
    return parse(run.stdout);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function parse(text) {
  const answer = { glibc: '', locale: '', classes: new Map() };
  for (const line of text.trim().split('\n')) {
    const [kind, name, ...rest] = line.split(' ');
    if (kind === 'glibc') answer.glibc = name;
    else if (kind === 'locale') answer.locale = name;
    else if (kind === 'class') answer.classes.set(name, rest.map((r) => r.split('-').map((h) => parseInt(h, 16))));
    else fail(`unexpected line from classes: ${line}`);
  }
  if (answer.locale !== 'C.UTF-8') fail(`expected the C.UTF-8 locale, got ${answer.locale}`);
  return answer;
}


function render({ glibc, classes }) {
  const out = [
    '/*',
    ' * GENERATED: do not edit by hand. Regenerate with `node scripts/posix-classes/generate.mjs`;',
    ' * `--check` exits 1 when this file is stale.',
    ' *',
    ` * The POSIX classes as glibc ${glibc} answers them in the C.UTF-8 locale (iswalnum, iswalpha, ...,`,
    ' * asked by scripts/posix-classes/classes.c for every code point 0..0x10FFFF but the surrogates):',
    ' * what bash 5 matches `[[:punct:]]` and the rest against. `word` is alnum or `_` and `ascii`',
    ' * is below 0x80, as bash defines them.',
    ' *',
    ' * Per class, base-36 numbers in pairs `gap span`, one pair per range, ascending: lo = previous',
    ' * hi + 1 + gap (the first counts from 0), hi = lo + span. Decoded by src/glob/posix-classes.ts.',
    ' */',
    '',
    `export const GLIBC_VERSION = '${glibc}';`,
    '',
    'export const POSIX_CLASS_TABLE = {',
  ];
  for (const [name, ranges] of classes) {
    out.push(`  ${name}: [`);
    for (const line of encodeRanges(ranges, LINE_WIDTH)) out.push(`    '${line}',`);
    out.push('  ],');
  }
  out.push('} as const;', '');
  return out.join('\n');
}

const text = render(askGlibc());
writeOrCheck(TABLE, text, 'POSIX class table', 'node scripts/posix-classes/generate.mjs');
