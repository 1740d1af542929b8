/**
 * The POSIX class tables against bash itself: for each class, every BMP code point but NUL and the
 * surrogates (63,487 of them), plus astral code points (each edge of the class's own astral ranges,
 * one side and the other, and every 251st from U+10000), asked of bash 5 in C.UTF-8 as
 * `[[ $c == [[:cls:]] ]]`, must agree with isInPosixClass; every 13th is also asked as
 * `[![:cls:]]`. One bash process per class reads its characters NUL-separated from stdin (the text
 * is never part of the script) and answers for all of them at once, so a class costs one process.
 *
 * The tables are glibc 2.36's (posix-class-table.ts): on a machine with another glibc, bash reads
 * the classes by that glibc's Unicode version, so the sweep runs only where the versions agree.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { POSIX_CLASS_NAMES, isInPosixClass, posixClassRanges, type PosixClassName } from '../../src/glob/posix-classes.js';
import { GLIBC_VERSION } from '../../src/glob/posix-class-table.js';
import { localGlibcVersion } from '../helpers/glibc.js';
import { pool } from '../helpers/pool.js';
import { bashVersion, runBashScript } from './oracles.js';

const ASTRAL_STRIDE = 251;
const NEGATED_STRIDE = 13;
const glibc = localGlibcVersion();
const bash = glibc === GLIBC_VERSION ? bashVersion() : undefined;
const runs = bash !== undefined;

/**
 * Reads NUL-separated characters, then prints, each record NUL-terminated: `n <count read>`, each
 * character as `[[:cls:]]` leaves it, each 13th as `[![:cls:]]` leaves it, then `end`. Bash's
 * matcher runs over the whole array in one pattern substitution (`${chars[@]/#pattern/@@}`: a
 * member becomes `@@`, which no one-character record is): the same matcher as `[[ $c == pattern ]]`
 * (its bracket expressions, its locale), without a shell loop over 63,000 characters, which took
 * ~0.55 s of CPU per class (7.8 s of the suite's CPU; the two readings agree on every class). The
 * class name is one of the 14 known.
 */
const script = (cls: PosixClassName) => `shopt -s extglob
mapfile -d '' chars
n=\${#chars[@]}
printf 'n %d\\0' "$n"
printf '%s\\0' "\${chars[@]/#[[:${cls}:]]/@@}"
negated=()
for ((i = 0; i < n; i += ${NEGATED_STRIDE})); do negated+=("\${chars[i]}"); done
printf '%s\\0' "\${negated[@]/#[![:${cls}:]]/@@}"
printf 'end\\0'
`;

function codePointsFor(cls: PosixClassName): number[] {
  const cps = new Set<number>();
  for (let cp = 1; cp <= 0xffff; cp++) if (cp < 0xd800 || cp > 0xdfff) cps.add(cp);
  for (let cp = 0x10000; cp <= 0x10ffff; cp += ASTRAL_STRIDE) cps.add(cp);
  for (const [lo, hi] of posixClassRanges(cls)) {
    for (const cp of [lo - 1, lo, hi, hi + 1]) if (cp > 0xffff && cp <= 0x10ffff) cps.add(cp);
  }
  return [...cps].sort((a, b) => a - b);
}

interface BashClass {
  asked: number[];
  read: number;
  ended: boolean;
  members: Set<number>;
  negatedMembers: Set<number>;
}

async function askBash(cls: PosixClassName): Promise<BashClass> {
  const asked = codePointsFor(cls);
  const input = Buffer.from(asked.map((cp) => `${String.fromCodePoint(cp)}\0`).join(''), 'utf8');
  const answer: BashClass = { asked, read: -1, ended: false, members: new Set(), negatedMembers: new Set() };
  const records = (await runBashScript(script(cls), input, cls)).split('\0');
  // `n <count>`, the plain answers, the negated ones, `end`: a record count other than that leaves
  // `ended` false (bash stopped short, or answered some character twice).
  const negatedCount = Math.ceil(asked.length / NEGATED_STRIDE);
  if (records[0]!.startsWith('n ')) answer.read = Number(records[0]!.slice(2));
  const plain = records.slice(1, 1 + asked.length);
  const negated = records.slice(1 + asked.length, 1 + asked.length + negatedCount);
  // Each record is `@@` (matched) or its character unchanged; anything else is a garbled answer.
  let garbled = false;
  const read = (r: string, cp: number, into: Set<number>) => (r === '@@' ? into.add(cp) : (garbled ||= r !== String.fromCodePoint(cp)));
  plain.forEach((r, i) => read(r, asked[i]!, answer.members));
  negated.forEach((r, k) => read(r, asked[k * NEGATED_STRIDE]!, answer.negatedMembers));
  answer.ended = !garbled && records.length === 1 + asked.length + negatedCount + 2 && records.at(-2) === 'end' && records.at(-1) === '';
  return answer;
}

/** All classes, two bash processes at a time (the machine's cores are shared). */
async function askBashAll(): Promise<Map<PosixClassName, BashClass>> {
  const answers = new Map<PosixClassName, BashClass>();
  await pool(POSIX_CLASS_NAMES, 2, async (cls) => {
    answers.set(cls, await askBash(cls));
  });
  return answers;
}

const hex = (cp: number) => `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;

const title = `POSIX classes against bash ${bash ?? ''} in C.UTF-8, glibc ${GLIBC_VERSION}: every BMP code point and astral samples`;
describe.skipIf(!runs)(runs ? title : `${title} (skipped: this machine's glibc is ${glibc ?? 'absent'} or bash 4+ is missing)`, () => {
  let answers: Map<PosixClassName, BashClass>;
  beforeAll(async () => {
    answers = await askBashAll();
  }, 120_000);

  it.each([...POSIX_CLASS_NAMES])('[[:%s:]] and its negation: no code point where bash and isInPosixClass differ', (cls) => {
    const answer = answers.get(cls)!;
    expect(answer.read, 'bash read every character').toBe(answer.asked.length);
    expect(answer.ended, 'bash asked every character').toBe(true);
    const differ = answer.asked.filter((cp) => answer.members.has(cp) !== isInPosixClass(cls, cp));
    expect(differ.slice(0, 20).map(hex), `${differ.length} differ`).toEqual([]);
    const negated = answer.asked.filter((_, i) => i % NEGATED_STRIDE === 0);
    const negatedDiffer = negated.filter((cp) => answer.negatedMembers.has(cp) === isInPosixClass(cls, cp));
    expect(negatedDiffer.slice(0, 20).map(hex), `${negatedDiffer.length} differ under [!...]`).toEqual([]);
  });

  it('counts the members of each class (for the closing note)', () => {
    const rows = POSIX_CLASS_NAMES.map((cls) => {
      const answer = answers.get(cls)!;
      const bmp = answer.asked.filter((cp) => cp <= 0xffff).length;
      const bmpMembers = [...answer.members].filter((cp) => cp <= 0xffff).length;
      const all = posixClassRanges(cls).reduce((sum, [lo, hi]) => sum + hi - lo + 1, 0);
      return `${cls.padEnd(6)} BMP ${String(bmpMembers).padStart(6)} of ${bmp}, asked ${answer.asked.length}, members in all planes ${all}`;
    });
    console.log(`class sweep against bash ${bash}, glibc ${GLIBC_VERSION}:\n${rows.join('\n')}`);
    expect(rows).toHaveLength(14);
    expect(answers.get('punct')!.members.has(0xb2)).toBe(true); // the sweep saw the ² as bash does
  });
});
