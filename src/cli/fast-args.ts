/**
 * The fast path of the command line: a valid command line parsed with yargs-parser alone (the
 * parser inside yargs, 24 KiB) from flags.ts's table, so a search does not pay for loading yargs
 * (~55 ms, more than the rest of start-up). Anything it is not sure of goes to yargs, the authority
 * for every message: `--help`, an unknown flag, a missing or bad value, a conflict, a failed check.
 * So this module never reports an error; it answers "these are the arguments" or "ask yargs".
 * test/cli/fast-args.test.ts checks that whenever it answers, yargs gives the same arguments.
 */
import parse from 'yargs-parser';
import type { CliArgs } from './args.js';
import { FLAG_CONFLICTS, PARSER_CONFIGURATION, buildFlags, checkArgs } from './flags.js';

/** yargs-parser's own spelling of a flag as a key (`time-budget-ms` is `timeBudgetMs`): the keys it gives are checked by it. */
const camel = parse.camelCase;

/** The arguments, `'version'` for `--version`, or undefined: ask yargs. */
export type FastParse = CliArgs | 'version' | undefined;

export function parseFast(argv: readonly string[], now: number): FastParse {
  const flags = buildFlags(now);
  const options = { alias: {} as Record<string, string[]>, boolean: ['help', 'version'], string: [] as string[], narg: {} as Record<string, number>, coerce: {} as Record<string, (v: string | string[]) => unknown> };
  const known = new Set(['_', 'help', 'version']);
  for (const [name, spec] of Object.entries(flags)) {
    (spec.type === 'boolean' ? options.boolean : options.string).push(name);
    if (spec.alias !== undefined) options.alias[name] = [spec.alias];
    if (spec.requiresArg) options.narg[name] = 1;
    if (spec.coerce !== undefined) options.coerce[name] = spec.coerce;
    known.add(camel(name));
  }
  options.alias.help = ['h'];
  options.alias.version = ['V'];
  const parsed = parse.detailed([...argv], { ...options, configuration: { ...PARSER_CONFIGURATION } });
  if (parsed.error) return undefined; // a coercion that threw, a missing value: yargs words it
  const args = parsed.argv as unknown as CliArgs & Record<string, unknown>;
  if (Object.keys(args).some((key) => !known.has(key)) || args.help !== undefined) return undefined;
  if (args.version === true) return 'version';
  if (args.version !== undefined || hasEmptyValue(args, flags) || hasConflict(args)) return undefined;
  try {
    checkArgs(args);
  } catch {
    return undefined;
  }
  return args;
}

/** A flag that takes a value, given an empty one (`--root ""`) or none that yargs-parser filled in: yargs decides. */
function hasEmptyValue(args: Record<string, unknown>, flags: ReturnType<typeof buildFlags>): boolean {
  return Object.entries(flags).some(([name, spec]) => spec.requiresArg === true && (args[camel(name)] === '' || args[camel(name)] === true));
}

function hasConflict(args: Record<string, unknown>): boolean {
  return Object.entries(FLAG_CONFLICTS).some(([a, others]) => args[camel(a)] !== undefined && [others].flat().some((b) => args[camel(b)] !== undefined));
}
