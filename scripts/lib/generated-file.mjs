import { readFileSync, writeFileSync } from 'node:fs';

// What the table generators (scripts/posix-classes, scripts/rg-uppercase) share besides the
// encoding (range-table.mjs): how they stop, and how they write a generated file or, with
// `--check`, say whether the one on disk is current (exit 1 when stale).

/** Stops the generator: its oracle could not be asked (status 2, not the stale table's 1). */
export function fail(message) {
  process.stderr.write(`generate: ${message}\n`);
  process.exit(2);
}

/** Writes `text` to `path`, or with `--check` compares them; `what` names the table, `command` regenerates it. */
export function writeOrCheck(path, text, what, command) {
  if (!process.argv.includes('--check')) {
    writeFileSync(path, text);
    process.stdout.write(`generate: wrote ${path}\n`);
    return;
  }
  let current = '';
  try {
    current = readFileSync(path, 'utf8');
  } catch {
    // A missing table is a stale one.
  }
  if (current !== text) {
    process.stderr.write(`generate: ${path} is stale: run ${command}\n`);
    process.exit(1);
  }
  process.stdout.write(`generate: the ${what} is current\n`);
}
