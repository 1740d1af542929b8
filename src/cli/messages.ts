/**
 * The library's refusals in the command's words. The library names its options (`exclude[0]`,
 * `nameRegex`, `query`, `type: 'directory'`); a person at the command line typed flags (`-E`,
 * `--name-regex`, `--contains`, `-t d`) and needs to be told what to type instead. The library's
 * messages stay as they are (its callers read them); this module rewrites them for the command,
 * keeping each error's code, so its exit status (src/cli/exit.ts) is unchanged.
 */
import { FindFileError } from '../errors.js';
import type { CliArgs } from './args.js';
import { quoteArg } from './hint.js';

/** The flag that fills each library option the command sets from a value the user typed. */
const FLAG_OF: Record<string, string> = {
  exclude: '-E/--exclude',
  nameRegex: '--name-regex',
  query: '--contains',
  ignoreFiles: '--ignore-file',
};

/** The error as the command reports it: in its flags' terms when it is the library's, else as it is. */
export function inCommandTerms(error: unknown, args: CliArgs): unknown {
  if (!(error instanceof FindFileError) || error.option === undefined) return error;
  const option = error.option.replace(/\[\d+\]$/, '');
  const message = rewrite(error, option, args);
  if (message !== undefined) return new FindFileError(message.code ?? error.code, message.text, error.option);
  // A name mode other than --name-regex (-F, -e) also fills nameRegex: only its own flag is named.
  const flag = option === 'nameRegex' && args.nameRegex === undefined ? undefined : FLAG_OF[option];
  if (flag === undefined || !error.message.startsWith(error.option)) return error;
  return new FindFileError(error.code, flag + error.message.slice(error.option.length), error.option);
}

interface Rewritten {
  text: string;
  code?: FindFileError['code'];
}

/** The refusals whose advice is in library terms, said again in the command's. */
function rewrite(error: FindFileError, option: string, args: CliArgs): Rewritten | undefined {
  const quoted = /^\S+ ("(?:[^"\\]|\\.)*") /.exec(error.message)?.[1];
  const value = quoted === undefined ? undefined : (JSON.parse(quoted) as string);
  if (option === 'root' && error.code === 'ENOENT') return emptyDirArgument(args);
  // The library refuses a list holding "" (the command always gives a list): the one way to get here.
  if (option === 'ignoreFiles' && error.code === 'FF_INVALID_OPTION') {
    return { text: '--ignore-file is empty: give the path of a file of ignore rules, relative to the root or absolute' };
  }
  if (quoted === undefined || value === undefined) return undefined;
  if (option === 'exclude' && / is a negation: /.test(error.message)) {
    // -E lists what to leave out: a `!` has nothing to turn around there.
    const glob = quoteArg(value.slice(1));
    return { text: `-E/--exclude ${quoted} is a negation, which -E does not take: it lists what to leave out (-E ${glob}); to keep only what ${glob} matches, give it as the pattern or DIR` };
  }
  if (option === 'pattern' && / is a negation: /.test(error.message)) {
    // rg's habit: `rg -g '!*.md'` leaves Markdown out; here that is an exclude.
    return { text: `pattern ${quoted} is a negation: to leave out what it matches, write -E ${quoteArg(value.slice(1))} (rg's -g '!GLOB' is -E GLOB here)` };
  }
  if (option === 'exclude' && / is absolute: /.test(error.message)) return absoluteExclude(quoted, value);
  if (option === 'pattern' && / ends with "\/": /.test(error.message)) return directoryPattern(value, args);
  return undefined;
}

/**
 * `find-file '*' ""` (an unset `"$DIR"`): the empty last argument was read as the root and named
 * nothing. The command line is wrong, not the machine: a usage error (status 2) that says so,
 * never `root  does not exist` with nothing between the words.
 */
function emptyDirArgument(args: CliArgs): Rewritten | undefined {
  if (args.root !== undefined || args._.length === 0 || String(args._.at(-1)) !== '') return undefined;
  return { code: 'FF_INVALID_ROOT', text: 'the DIR argument is empty (""): name a directory, or leave it out to search the current one (an unset variable reads as "")' };
}

/** `-E /src`: fd reads it as anchored at the root; here `./src` says that (docs/contract.md). */
function absoluteExclude(quoted: string, value: string): Rewritten {
  const relative = value.replace(/^\/+/, '');
  const head = `-E/--exclude ${quoted} is absolute, and an exclude is relative to the root`;
  // A drive (`C:\x`) or `/` alone: there is no relative spelling to offer.
  if (relative === '' || /^[a-zA-Z]:/.test(value)) return { text: head };
  // One name: `src` alone would match at any depth, so the anchored spelling comes first.
  if (!relative.includes('/')) return { text: `${head}: write -E ${quoteArg(`./${relative}`)} for the root's own ${relative} (what fd's -E ${value} means), or -E ${quoteArg(relative)} for one at any depth` };
  return { text: `${head}: write -E ${quoteArg(relative)}` };
}

/**
 * `sub/`: a directory, which the library says as `type: "directory"`. The command says `-t d`,
 * and not when it was given: then only the `/` is wrong. The library's quoted pattern is the
 * normalised one, where a leading `/` marks `./`.
 */
function directoryPattern(value: string, args: CliArgs): Rewritten {
  const name = (value.startsWith('/') ? `.${value}` : value).replace(/\/+$/, '');
  const below = `${quoteArg(`${name}/**`)} for the files below it`;
  const text = args.type?.includes('directory')
    ? `pattern ${quoteArg(`${name}/`)} ends with "/": -t d already asks for directories, so write ${quoteArg(name)} (or ${below})`
    : `pattern ${quoteArg(`${name}/`)} ends with "/", which names a directory: write ${quoteArg(name)} -t d for the directory itself, or ${below}`;
  return { text };
}
