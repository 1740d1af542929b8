// Folds Stryker incremental reports into the one stryker.config.mjs reads (issue 28): runs made in
// parallel lanes, each with its own `--incrementalFile`, become one stored report, so the next run of
// any module re-tests only what changed. The first IN is the base (the stored report the lanes copied);
// of the others, each file that differs from the base is taken, later files winning where two differ.
//   node scripts/mutation/fold-reports.mjs OUT BASE LANE...   (OUT may be BASE)
import { readFileSync, writeFileSync } from 'node:fs';

const [out, ...inputs] = process.argv.slice(2);
if (out === undefined || inputs.length === 0) {
  process.stderr.write('usage: node scripts/mutation/fold-reports.mjs OUT IN...\n');
  process.exit(2);
}
const reports = inputs.map((file) => JSON.parse(readFileSync(file, 'utf8')));
const [base] = reports;
const folded = { ...base, files: { ...base.files }, testFiles: { ...base.testFiles } };
// A lane starts from a copy of the stored report, so it holds every file it did not run exactly as the
// base has it: that copy must not undo another lane's newer run of the file. Only what differs from the base is taken.
// Stryker renumbers mutant and test ids on every run: an entry is compared by its source and each
// mutant's place, mutator, replacement and status; a test file by its source and its tests' names.
const canonFile = (e) => JSON.stringify([e.source, e.mutants.map((m) => `${JSON.stringify(m.location)} ${m.mutatorName} ${m.replacement} ${m.status}`).sort()]);
const canonTests = (e) => JSON.stringify([e.source ?? '', (e.tests ?? []).map((t) => t.name).sort()]);
const same = (a, b, canon) => a !== undefined && canon(a) === canon(b);
for (const report of reports.slice(1)) {
  for (const [name, entry] of Object.entries(report.files)) if (!same(base.files[name], entry, canonFile)) folded.files[name] = entry;
  for (const [name, entry] of Object.entries(report.testFiles ?? {})) if (!same(base.testFiles?.[name], entry, canonTests)) folded.testFiles[name] = entry;
}
writeFileSync(out, JSON.stringify(folded));
process.stdout.write(`${out}: ${Object.keys(folded.files).length} source files (${Object.keys(folded.files).sort().join(', ')}), ${Object.keys(folded.testFiles).length} test files\n`);
