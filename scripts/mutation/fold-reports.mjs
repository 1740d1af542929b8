// Folds Stryker incremental reports into the one stryker.config.mjs reads (issue 28): runs made in
// parallel lanes, each with its own `--incrementalFile`, become one stored report, so the next run of
// any module re-tests only what changed. Later files win for a source file or a test file both hold.
//   node scripts/mutation/fold-reports.mjs OUT IN...   (OUT may be one of the INs)
import { readFileSync, writeFileSync } from 'node:fs';

const [out, ...inputs] = process.argv.slice(2);
if (out === undefined || inputs.length === 0) {
  process.stderr.write('usage: node scripts/mutation/fold-reports.mjs OUT IN...\n');
  process.exit(2);
}
const reports = inputs.map((file) => JSON.parse(readFileSync(file, 'utf8')));
const folded = { ...reports[0], files: {}, testFiles: {} };
for (const report of reports) {
  Object.assign(folded.files, report.files);
  Object.assign(folded.testFiles, report.testFiles ?? {});
}
writeFileSync(out, JSON.stringify(folded));
process.stdout.write(`${out}: ${Object.keys(folded.files).length} source files (${Object.keys(folded.files).sort().join(', ')}), ${Object.keys(folded.testFiles).length} test files\n`);
