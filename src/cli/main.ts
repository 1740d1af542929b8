/**
 * The `find-file` process: bin/find-file.mjs loads this module and calls `main`. It wires the
 * command to the process, parses the command line (src/cli/args.ts), runs the search
 * (src/cli/run.ts) and exits with the status src/cli/exit.ts chooses. The rules it enforces:
 *
 * - a reader that stops early (`| head -1`) is not a failure: leave quietly, status 0, as rg and fd do;
 * - a usage error prints yargs' usage, then `find-file: error: <problem>`, status 2 (an unknown
 *   flag: that one line alone, with a "did you mean" and a pointer to --help);
 * - any other failure, expected or not, is one line naming the cause (no stack trace), status 1.
 */
import { readFileSync } from 'node:fs';
import type { Argv } from 'yargs';
import { describeUnknownFlags, flagNames, toCliRequest, type CliArgs } from './args.js';
import { parseFast } from './fast-args.js';
import { takeExecCommand } from './exec.js';
import { readAsGlued, refuseValuedSwitches, splitGluedValues } from './flags.js';
import { EXIT, exitCodeForError, findFileErrorCode } from './exit.js';
import { inCommandTerms } from './messages.js';
import { runSearch } from './run.js';
import { escapeText, shortMessage } from '../text-escape.js';

/** Runs the command on `typed` (the arguments after the script's name) and exits the process. */
export async function main(typed: readonly string[]): Promise<void> {
  // `find-file completions bash` prints a script; any other line holding `completions` is a search for it.
  if (typed.length === 2 && typed[0] === 'completions') {
    const { SHELLS, buildCompletion } = await import('./completions.js');
    const shell = SHELLS.find((name) => name === typed[1]);
    if (shell !== undefined) return void process.stdout.write(buildCompletion(shell));
  }
  // The words of `-x CMD ...` first (they are the command's, not ours), then `-tf`, `-A0` as
  // `-t f`, `-A 0` (rg's and fd's habit), for both parsers alike.
  let argv = [...typed];
  let execWords: string[] | undefined;
  // Usage errors name unknown flags from the parser's table; a failure before it exists still gets its line.
  let parser: Argv<CliArgs> | undefined;
  // -q, once the command line is read: a failure then exits 2, never 1 (which answers "none").
  let quiet = false;
  const fail = (error: unknown): never => reportFailure(error, parser, typed, quiet);
  watchProcess(fail);
  const loadParser = async (): Promise<Argv<CliArgs>> => {
    const { buildParser } = await import('./parser.js'); // yargs loads only now
    return buildParser({ version: readVersion(), columns: process.stdout.columns, now, onUsageError: (message) => usageError(message, parser, typed) });
  };
  const now = Date.now();
  // Once read, the command line lets a library refusal be said in its flags' terms (messages.ts).
  let args: CliArgs | undefined;
  try {
    const taken = takeExecCommand(typed);
    argv = splitGluedValues(taken.argv);
    refuseValuedSwitches(argv);
    execWords = taken.exec?.words;
    // Perf: a valid command line needs no yargs (fast-args.ts); everything else is yargs' to answer.
    const fast = parseFast(argv, now);
    if (fast === 'version') return void process.stdout.write(`${readVersion()}\n`);
    args = fast ?? (parser = await loadParser()).parseSync(argv); // yargs exits on --help, --version and usage errors
    quiet = args.quiet === true;
    process.exit(await runSearch(toCliRequest({ ...args, execWords }), typed));
  } catch (error) {
    fail(args === undefined ? error : inCommandTerms(error, args));
  }
}

/** The safety nets of the contract, installed before anything can fail. */
function watchProcess(fail: (error: unknown) => never): void {
  // A closed pipe is EPIPE; on Windows it can also surface as EOF.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => (error.code === 'EPIPE' || error.code === 'EOF' ? process.exit(EXIT.OK) : fail(error)));
  process.stderr.on('error', () => {}); // nowhere left to report to
  // The "unexpected failure" of the contract: one line, no stack trace.
  process.on('uncaughtException', (error) => fail(error));
  process.on('unhandledRejection', (error) => fail(error));
}

/** The package's version, for `--version`: package.json sits two levels above dist/cli/. */
function readVersion(): string {
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return manifest.version;
}

/** The line after a usage error, as fd and rg end theirs: the shape of a command line, and where the rest is. */
const USAGE_LINE = 'Usage: find-file <pattern..> [DIR | --root DIR] [options]  (find-file --help lists every flag)';

/**
 * The usage line, then the specific problem (the last line, where the eye lands), then status 2;
 * an unknown flag is one line (with a "did you mean"). Never the whole help: sixty lines of flags
 * would bury the one thing that went wrong and scroll it off the screen (fd and rg print a line or two).
 */
function usageError(message: string, parser: Argv<CliArgs> | undefined, typed: readonly string[]): never {
  const unknown = parser === undefined ? undefined : describeUnknownFlags(message, flagNames(parser), typed);
  if (unknown === undefined) process.stderr.write(`${USAGE_LINE}\n`);
  // As fd's tip: the parser's own words name a flag it read out of the pattern (`-notes.txt`: "-s is a switch").
  const pattern = dashPattern(typed);
  const tip = pattern === undefined ? '' : ` (${readAsWhat(pattern)}; a pattern that starts with '-' goes after '--': find-file -- ${JSON.stringify(pattern)})`;
  process.stderr.write(`find-file: error: ${escapeText(shortMessage((unknown ?? message) + tip))}\n`);
  process.exit(EXIT.USAGE);
}

/**
 * The first word before `--` that starts with one `-` and holds a glob's or a path's character
 * (`-notes.txt`, `-[id].txt`, `-*.log`): a pattern, most likely. A cluster of short flags, or one
 * with its value glued (`-tf`, `-d3`), holds none of them and gets no tip.
 */
function dashPattern(typed: readonly string[]): string | undefined {
  for (const word of typed) {
    if (word === '--') return undefined;
    if (word[0] === '-' && word[1] !== '-' && /[.*?[\]{}/\\]/.test(word)) return word;
  }
  return undefined;
}

/**
 * What the parsers made of a dash pattern: `-dash.txt` is `-d ash.txt` (else "--max-depth must be ..."
 * names a flag no one typed), any other a cluster of short flags (`-notes.txt` had been told only
 * "-s is a switch and takes no value").
 */
function readAsWhat(pattern: string): string {
  const glued = readAsGlued(pattern);
  return glued === undefined ? `${pattern} was read as short flags` : `${pattern} was read as ${glued}, as fd reads it`;
}

/** One line naming the cause (no stack trace), then status 1, or 2 when the library says the input was wrong (with `-q`, 2 for both). */
function reportFailure(error: unknown, parser: Argv<CliArgs> | undefined, typed: readonly string[], quiet: boolean): never {
  const status = exitCodeForError(error);
  const message = error instanceof Error ? error.message : String(error);
  if (status === EXIT.USAGE) usageError(message, parser, typed);
  const cause = findFileErrorCode(error) === undefined ? 'unexpected failure: ' : '';
  // The message may hold a path as the user typed it (a root): escaped, so it stays one line and cannot drive the terminal.
  process.stderr.write(`find-file: error: ${cause}${escapeText(shortMessage(message))}\n`);
  process.exit(quiet ? EXIT.COULD_NOT_RUN : status);
}
