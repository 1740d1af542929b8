/**
 * The man page, `man/find-file.1`, generated from flags.ts's table (the flags, their groups and
 * descriptions) by scripts/build-man.mjs; test/cli/completions.test.ts checks that the committed
 * page is this function's output and that groff renders it without a warning. Only the prose
 * around the flags is written here.
 */
import { FLAG_GROUPS, buildFlags, type FlagSpec } from './flags.js';

/** Text as roff reads it literally: a backslash is `\e`, a line never starts a request. */
function roff(text: string): string {
  return text
    .replace(/\\/g, '\\e')
    .replace(/-/g, '\\-')
    .split('\n')
    .map((line) => (/^[.']/.test(line) ? `\\&${line}` : line))
    .join('\n');
}

function flagLine(name: string, spec: FlagSpec): string {
  const value = spec.type === 'string' ? ` \\fI${name.toUpperCase().replace(/-/g, '_')}\\fR` : '';
  const short = spec.alias === undefined ? '' : `\\fB\\-${roff(spec.alias)}\\fR, `;
  return `.TP\n${short}\\fB\\-\\-${roff(name)}\\fR${value}\n${roff(spec.describe ?? '')}`;
}

const SECTIONS: [string, string][] = [
  ['EXIT STATUS', '0 the search ran, complete or not: the summary on stderr says which. 1 fatal error (the root is missing or not a directory, ripgrep asked for and not found), or with \\-x/\\-X a run of the command that failed. 2 usage error, nothing was searched. 3 with \\-\\-strict, the result is incomplete. 130 interrupted.'],
  ['ENVIRONMENT', 'LS_COLORS: the colours of paths, as fd reads it. NO_COLOR (not empty): no colour. FORCE_COLOR (not 0): colour even into a pipe (\\-\\-color wins over both). FIND_FILE_RG: the ripgrep executable for \\-\\-backend ripgrep and auto.'],
  ['SEE ALSO', '\\fBfd\\fR(1), \\fBrg\\fR(1), \\fBfind\\fR(1). The full contract: docs/cli.md in the package.'],
];

/** The page, in roff (man macros). */
export function buildManPage(version: string): string {
  const flags = buildFlags(0);
  const groups = FLAG_GROUPS.map(([names, title]) => `.SS ${roff(title.replace(/:$/, ''))}\n${names.map((name) => flagLine(name, flags[name]!)).join('\n')}`);
  return [
    `.TH FIND\\-FILE 1 "" "find\\-file ${roff(version)}" "User Commands"`,
    '.SH NAME',
    'find\\-file \\- find files, and say whether the search was complete',
    '.SH SYNOPSIS',
    '\\fBfind\\-file\\fR \\fIPATTERN\\fR... [\\fIDIR\\fR | \\fB\\-\\-root\\fR \\fIDIR\\fR] [\\fIOPTIONS\\fR]',
    '.br',
    '\\fBfind\\-file\\fR \\fB\\-\\-contains\\fR \\fITEXT\\fR [\\fIPATTERN\\fR...] [\\fIDIR\\fR] [\\fIOPTIONS\\fR]',
    '.br',
    '\\fBfind\\-file completions\\fR \\fBbash\\fR|\\fBzsh\\fR|\\fBfish\\fR|\\fBpowershell\\fR',
    '.SH DESCRIPTION',
    'Find files whose root\\-relative path matches a glob. Paths go to stdout as they are found; a summary on stderr says whether the search was complete, and if not, why. An incomplete search (a folder that could not be read, a limit) is never reported as an absence.',
    '.SH OPTIONS',
    ...groups,
    '.TP',
    '\\fB\\-h\\fR, \\fB\\-\\-help\\fR',
    'Show help.',
    '.TP',
    '\\fB\\-V\\fR, \\fB\\-\\-version\\fR',
    'Show the version.',
    ...SECTIONS.map(([title, text]) => `.SH ${title}\n${text}`),
    '',
  ].join('\n');
}
