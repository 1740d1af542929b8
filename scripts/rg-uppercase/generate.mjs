/**
 * Writes src/rg-uppercase-table.ts: the code points ripgrep's smart case (`rg -S`) calls upper-case
 * (Rust's `char::is_uppercase`, from the Unicode tables ripgrep was built with). ripgrep 13 knows
 * Unicode 15 at most; V8 knows newer (U+1C89 CYRILLIC CAPITAL LETTER TJE is Unicode 16): a query
 * `\u1C89x` keeps case on the pure-TS path by V8's tables and ignores it in `rg -S`, so the walker
 * missed `\u1C89X` and said complete. The smart-case decision reads this table instead.
 *
 * Asks the installed rg about every code point V8 calls `Uppercase` (ripgrep's set is taken to be
 * within V8's: Unicode adds upper-case letters, it does not take them back): `rg -S -F <c>x` over a
 * file of `<c>X` lines finds a line exactly when rg ignores case, that is when `c` is not upper-case
 * for it.
 *
 *   node scripts/rg-uppercase/generate.mjs           write the table
 *   node scripts/rg-uppercase/generate.mjs --check   exit 1 if the table differs from what rg says now
 *
 * Encoding: base-36 numbers in pairs `gap span`, one pair per range, ascending: lo = previous hi + 1
 * + gap (the first counts from 0), hi = lo + span (as scripts/posix-classes/generate.mjs).
 */
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fail, writeOrCheck } from '../lib/generated-file.mjs';
import { encodeRanges, toRanges, wrapWords } from '../lib/range-table.mjs';

const TABLE = fileURLToPath(new URL('../../src/rg-uppercase-table.ts', import.meta.url));
const LINE_WIDTH = 110;
const RG = process.env.FF_RG ?? 'rg';


function v8Uppercase() {
  const upper = /^\p{Uppercase}$/u;
  const codes = [];
  for (let code = 0; code <= 0x10ffff; code++) {
    if ((code < 0xd800 || code > 0xdfff) && upper.test(String.fromCodePoint(code))) codes.push(code);
  }
  return codes;
}

/** True when rg -S keeps case for `<c>x`: `c` is upper-case for it. */
function rgKeepsCase(code, file) {
  return new Promise((resolve, reject) => {
    execFile(RG, ['-S', '-F', '-c', '--no-config', '-e', `${String.fromCodePoint(code)}x`, '--', file], (error, stdout) => {
      if (error === null) return resolve(false);
      if (error.code === 1) return resolve(true);
      reject(new Error(`rg failed for U+${code.toString(16)}: ${error.message}`));
    });
  });
}

async function askRg(codes) {
  const version = spawnSync(RG, ['--version'], { encoding: 'utf8' });
  if (version.error !== undefined || version.status !== 0) fail(`cannot run ${RG}: ${version.error?.message ?? version.stderr}`);
  const dir = mkdtempSync(join(tmpdir(), 'rg-uppercase-'));
  try {
    const file = join(dir, 'lines.txt');
    writeFileSync(file, codes.map((code) => `${String.fromCodePoint(code)}X\n`).join(''));
    const keeps = new Array(codes.length);
    let next = 0;
    const worker = async () => {
      while (next < codes.length) {
        const i = next++;
        keeps[i] = await rgKeepsCase(codes[i], file);
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    return { rg: version.stdout.split('\n')[0], upper: codes.filter((_, i) => keeps[i]) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `U+1C89 U+A7CB-A7CC ...`, wrapped into comment lines. */
function describeRanges(ranges) {
  const hex = (code) => code.toString(16).toUpperCase().padStart(4, '0');
  const words = ranges.map(([lo, hi]) => (lo === hi ? `U+${hex(lo)}` : `U+${hex(lo)}-${hex(hi)}`));
  const lines = wrapWords(words, LINE_WIDTH, ' *');
  if (lines.length === 0) lines.push(' *');
  lines[lines.length - 1] += '.';
  return lines;
}

function render({ rg, upper }, v8) {
  const newer = toRanges(v8.filter((code) => !upper.includes(code)));
  return [
    '/*',
    ' * GENERATED: do not edit by hand. Regenerate with `node scripts/rg-uppercase/generate.mjs`;',
    ' * `--check` exits 1 when this file is stale.',
    ' *',
    ` * The code points ${rg} calls upper-case in smart case (\`rg -S\`): ${upper.length} of the ${v8.length} that`,
    ` * V8 (Unicode ${process.versions.unicode}) calls \`Uppercase\`, each asked of rg. V8's others, too new for ripgrep's tables:`,
    ...describeRanges(newer),
    ' *',
    ' * Base-36 numbers in pairs `gap span`, one pair per range, ascending: lo = previous hi + 1 + gap',
    ' * (the first counts from 0), hi = lo + span. Decoded by src/regex-syntax.ts.',
    ' */',
    '',
    `export const RG_VERSION = '${rg}';`,
    '',
    'export const RG_UPPERCASE_TABLE = [',
    ...encodeRanges(toRanges(upper), LINE_WIDTH).map((line) => `  '${line}',`),
    '] as const;',
    '',
  ].join('\n');
}

const v8 = v8Uppercase();
const text = render(await askRg(v8), v8);
writeOrCheck(TABLE, text, 'rg upper-case table', 'node scripts/rg-uppercase/generate.mjs');
