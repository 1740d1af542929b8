/**
 * The yargs parser of the command (loaded only for `--help`, `--version` and command lines the
 * fast path leaves to it: usage errors get yargs' own words). The flags, groups, rules and checks
 * are flags.ts's table; this module only hands them to yargs, with the usage text around them.
 */
import yargs, { type Argv } from 'yargs';
import type { CliArgs } from './args.js';
import { FLAG_CONFLICTS, FLAG_GROUPS, PARSER_CONFIGURATION, buildFlags, checkArgs } from './flags.js';

export interface ParserSettings {
  /** What `--version` prints. */
  version: string;
  /** The terminal's width, if stdout is one: the help text wraps at it (at most 100 columns). */
  columns: number | undefined;
  /** Called for every usage error yargs finds (unknown flag, bad count, conflict, no pattern); must not return. */
  onUsageError(message: string): never;
  /** The wall clock when the command started, for `--changed-within 2h`. @default Date.now() */
  now?: number;
}

/** The yargs parser of the command. `--help` and `--version` print and exit when it parses. */
export function buildParser(settings: ParserSettings): Argv<CliArgs> {
  return defineFlags(yargs(), settings.now ?? Date.now())
    .scriptName('find-file')
    .usage(
      'Usage: $0 <pattern..> [DIR | --root DIR] [options]\n\n' +
        'Find files whose root-relative path matches a glob. Paths go to stdout as they are found; ' +
        'a summary on stderr says whether the search was complete, and if not, why.',
    )
    .example('$0 "*.md"', 'every Markdown file under the current directory')
    .example('$0 "pdftotext*" --root ~ --max-depth 6', 'an executable somewhere in your home directory')
    .example('$0 "**/*.ts" src --exclude "*.d.ts" --json', 'TypeScript under src/, as JSON')
    .epilogue(
      'A glob without "/" matches file names at any depth. Without --root, the last of two or more ' +
        'positionals (with --contains: of one or more) is the root if it names an existing directory; ' +
        'one without * ? [ { ( that names nothing is an error (status 1), as in fd.\n\n' +
        'Exit status: 0 the search ran (complete or not: read the summary), 1 fatal error or a failed -x/-X run, ' +
        '2 usage error, 3 incomplete with --strict, 130 interrupted. See docs/cli.md.',
    )
    .parserConfiguration(PARSER_CONFIGURATION)
    .strictOptions()
    .version(settings.version)
    .alias('version', 'V')
    .help()
    .alias('help', 'h')
    .wrap(Math.min(100, settings.columns || 100))
    .fail((message: string | undefined, error: Error | undefined) => settings.onUsageError(message ?? error?.message ?? String(error)));
}

/** The table's flags given to yargs, in the order and groups `--help` shows them. The return type checks them against `CliArgs`. */
function defineFlags(parser: Argv, now: number): Argv<CliArgs> {
  let defined = parser;
  for (const [name, spec] of Object.entries(buildFlags(now))) defined = defined.option(name, spec);
  for (const [names, title] of FLAG_GROUPS) defined = defined.group(names, title);
  return defined.conflicts(FLAG_CONFLICTS).check((args) => checkArgs(args as unknown as CliArgs)) as unknown as Argv<CliArgs>;
}
