#!/usr/bin/env node
/**
 * find-file: the command-line face of the library. docs/cli.md is the contract: the options, the
 * output forms, the root rule and the exit statuses (src/cli/exit.ts). This file only turns argv
 * into library options, runs one search and prints it; the helpers live in src/cli/ (built to
 * dist/cli/) and the search itself is the library's, so the command and the API always agree.
 */
import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';

// The modules are loaded with require (Node >= 20.19 loads ES modules that way, synchronously), not
// with static imports: the ESM loader opens every file of the module graph at once, and under a low
// open-file limit (`ulimit -n 32`) it fails with EMFILE, with a stack trace, before this file runs.
// require reads them one at a time. Should loading still fail, the cause is one line and status 1.
const { yargs, EXIT, errorCodeOf, exitCodeForError, runSearch } = loadModules();

function loadModules() {
  const require = createRequire(import.meta.url);
  try {
    return { yargs: require('yargs'), ...require('../dist/cli/exit.js'), ...require('../dist/cli/run.js') };
  } catch (error) {
    const hint = error?.code === 'EMFILE' || error?.code === 'ENFILE' ? ' (too many open files: raise the limit, e.g. ulimit -n 1024)' : '';
    process.stderr.write(`find-file: error: cannot load find-file: ${error?.message ?? String(error)}${hint}\n`);
    process.exit(1);
  }
}

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

// A reader that stops early (`| head -1`) is not a failure: leave quietly, status 0, as rg and fd do.
// (A closed pipe is EPIPE; on Windows it can also surface as EOF.)
process.stdout.on('error', (error) => (error.code === 'EPIPE' || error.code === 'EOF' ? process.exit(EXIT.OK) : fail(error)));
process.stderr.on('error', () => {}); // nowhere left to report to
// The safety net for the "unexpected failure" of the contract: one line, no stack trace.
process.on('uncaughtException', (error) => fail(error));
process.on('unhandledRejection', (error) => fail(error));

const parser = buildParser();
const argv = parser.parse(process.argv.slice(2)); // exits on --help, --version and usage errors
try {
  process.exit(await run(argv));
} catch (error) {
  fail(error);
}

function buildParser() {
  return yargs()
    .scriptName('find-file')
    .usage(
      'Usage: $0 <pattern..> [DIR | --root DIR] [options]\n\n' +
        'Find files whose root-relative path matches a glob. Paths go to stdout as they are found; ' +
        'a summary on stderr says whether the search was complete, and if not, why.',
    )
    .option('root', { type: 'string', requiresArg: true, coerce: last, describe: 'Directory to search [default: the current directory]' })
    .option('exclude', { type: 'string', requiresArg: true, coerce: (v) => [v].flat(), describe: 'Glob of entries not to enter or return; repeatable' })
    .option('hidden', { type: 'boolean', describe: 'Include entries whose name starts with "." [default: included; --no-hidden leaves them out]' })
    .option('backend', { type: 'string', requiresArg: true, coerce: last, describe: 'Search engine: walker, ripgrep or auto [default: walker]' })
    .option('ignore-case', { alias: 'i', type: 'boolean', describe: 'Match the pattern (with --contains: the text) ignoring case [default: on Windows only]' })
    .option('case-sensitive', { alias: 's', type: 'boolean', describe: 'Match the pattern (with --contains: the text) with case [default: except on Windows]' })
    .option('contains', { type: 'string', requiresArg: true, coerce: last, describe: 'Search file content for TEXT and print path:line:text (needs the library\'s content search)' })
    .option('max-results', { type: 'string', requiresArg: true, coerce: limit('--max-results'), describe: 'Stop after N matches (marked incomplete if more exist)' })
    .option('max-depth', { type: 'string', requiresArg: true, coerce: limit('--max-depth'), describe: 'Look N levels deep; 1 = the root\'s own entries' })
    .option('time-budget-ms', { type: 'string', requiresArg: true, coerce: limit('--time-budget-ms'), describe: 'Stop after N milliseconds (marked incomplete)' })
    .option('strict', { type: 'boolean', describe: 'Exit 3 when the result is incomplete' })
    .option('json', { type: 'boolean', describe: 'Print the whole result as one JSON object' })
    .option('ndjson', { type: 'boolean', describe: 'Print one JSON line per match, then a summary line' })
    .option('absolute', { type: 'boolean', describe: 'Print absolute paths' })
    .option('print0', { alias: '0', type: 'boolean', describe: 'Separate paths with NUL instead of newline (for xargs -0)' })
    .group(['root', 'exclude', 'hidden', 'ignore-case', 'case-sensitive', 'backend', 'contains'], 'Search:')
    .group(['max-results', 'max-depth', 'time-budget-ms', 'strict'], 'Limits:')
    .group(['json', 'ndjson', 'absolute', 'print0'], 'Output:')
    .conflicts({ json: ['ndjson', 'print0'], ndjson: 'print0', 'ignore-case': 'case-sensitive' })
    .check((args) => {
      if (args._.length === 0) throw new Error('no pattern given: name at least one glob, e.g. find-file "*.md"');
      return true;
    })
    .example('$0 "*.md"', 'every Markdown file under the current directory')
    .example('$0 "pdftotext*" --root ~ --max-depth 6', 'an executable somewhere in your home directory')
    .example('$0 "**/*.ts" src --exclude "*.d.ts" --json', 'TypeScript under src/, as JSON')
    .epilogue(
      'A glob without "/" matches file names at any depth. Without --root, the last of two or more ' +
        'positionals is the root if it names an existing directory.\n\n' +
        'Exit status: 0 the search ran (complete or not: read the summary), 1 fatal error, ' +
        '2 usage error, 3 incomplete with --strict, 130 interrupted. See docs/cli.md.',
    )
    .parserConfiguration({
      'strip-aliased': true,
      'strip-dashed': true,
      // Patterns are text: "007" stays "007", and `--exclude a b` does not swallow the pattern b.
      'parse-positional-numbers': false,
      'greedy-arrays': false,
    })
    .strictOptions()
    .version(version)
    .alias('version', 'V')
    .help()
    .alias('help', 'h')
    .wrap(Math.min(100, process.stdout.columns || 100))
    .fail((message, error) => usageError(message ?? error?.message ?? String(error)));
}

/** The last value of an option given more than once: later flags override earlier ones. */
function last(value) {
  return Array.isArray(value) ? value[value.length - 1] : value;
}

/** A coercer for a count: digits only, so "1.5", "-1", "1e3", "0x10" and "" are usage errors. */
function limit(flag) {
  return (value) => {
    const text = last(value);
    const n = /^\d+$/.test(text) ? Number(text) : NaN;
    if (!Number.isSafeInteger(n)) throw new Error(`${flag} must be a non-negative integer, got ${JSON.stringify(text)}`);
    return n;
  };
}

/** yargs' usage, then the specific problem, then status 2. */
function usageError(message) {
  parser.showHelp((help) => process.stderr.write(help + '\n\n'));
  process.stderr.write(`find-file: error: ${message}\n`);
  process.exit(EXIT.USAGE);
}

/** One line naming the cause (no stack trace), then status 1, or 2 when the library says the input was wrong. */
function fail(error) {
  const status = exitCodeForError(error);
  const message = error instanceof Error ? error.message : String(error);
  if (status === EXIT.USAGE) usageError(message);
  const cause = errorCodeOf(error) === undefined ? 'unexpected failure: ' : '';
  process.stderr.write(`find-file: error: ${cause}${message}\n`);
  process.exit(status);
}

function isDirectory(candidate) {
  try {
    return statSync(candidate).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The root rule: --root when given; otherwise, with two or more positionals, the last one when it
 * names an existing directory; otherwise the current directory. Every other positional is a pattern.
 */
function splitRoot(positionals, root) {
  if (root !== undefined) return { patterns: positionals, root };
  const candidate = positionals.at(-1);
  if (positionals.length >= 2 && isDirectory(candidate)) return { patterns: positionals.slice(0, -1), root: candidate };
  return { patterns: positionals, root: '.' };
}

/** The library options the command line asked for. Flags not given are left out, so library defaults apply. */
function toFindOptions(args, root, patterns) {
  const options = {
    root,
    pattern: patterns.length === 1 ? patterns[0] : patterns, // so errors name "pattern", not "pattern[0]"
    exclude: args.exclude,
    hidden: args.hidden,
    caseSensitive: args.caseSensitive === true ? true : args.ignoreCase === true ? false : undefined,
    maxResults: args.maxResults,
    maxDepth: args.maxDepth,
    timeBudgetMs: args.timeBudgetMs,
    absolute: args.absolute,
    backend: args.backend,
  };
  for (const key of Object.keys(options)) if (options[key] === undefined) delete options[key];
  return options;
}

function outputMode(args) {
  if (args.json) return 'json';
  if (args.ndjson) return 'ndjson';
  return args.print0 ? 'print0' : 'human';
}

async function run(args) {
  const { patterns, root } = splitRoot(args._.map(String), args.root);
  return runSearch({ options: toFindOptions(args, root, patterns), output: outputMode(args), strict: args.strict === true, contains: args.contains });
}
