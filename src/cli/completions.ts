/**
 * `find-file completions bash|zsh|fish|powershell`: a completion script for the shell, generated
 * from flags.ts's table (the one list of flags; nothing here names a flag), so a flag added there
 * completes everywhere. Each script completes the flags (long, short, and the `--no-` forms the
 * table's own descriptions mention), a flag's value where the table lists its words (`-t f`,
 * `--color always`) or asks for a directory (`--root`) or a file, and files elsewhere.
 */
import { buildFlags, type FlagSpec } from './flags.js';

export const SHELLS = ['bash', 'zsh', 'fish', 'powershell'] as const;
export type Shell = (typeof SHELLS)[number];

/** One flag as the scripts offer it. */
interface Completable {
  long: string;
  short: string | undefined;
  /** `none`: a switch; `free`: a value with nothing to offer; else what FlagSpec.completes says. */
  value: 'none' | 'free' | 'directories' | 'files' | readonly string[];
  /** The description's first clause: a menu line, not the help text. */
  summary: string;
}

/** The flags of the table as completions offer them, with `--help` and `--version`. */
export function completableFlags(flags: Record<string, FlagSpec> = buildFlags(0)): Completable[] {
  const all = Object.entries(flags);
  const said = all.map(([, spec]) => spec.describe ?? '').join('\n');
  const out: Completable[] = [];
  for (const [name, spec] of all) {
    const summary = firstClause(spec.describe ?? '');
    const value = spec.type === 'boolean' ? 'none' : (spec.completes ?? 'free');
    if (spec.hidden !== true) out.push({ long: name, short: spec.alias, value, summary });
    // A negation the help text itself tells people to type (`--no-ignore`, `--no-hidden`).
    if (spec.type === 'boolean' && said.includes(`--no-${name}`)) out.push({ long: `no-${name}`, short: undefined, value: 'none', summary: `Not --${name}` });
  }
  out.push({ long: 'help', short: 'h', value: 'none', summary: 'Show help' }, { long: 'version', short: 'V', value: 'none', summary: 'Show version number' });
  return out;
}

function firstClause(text: string): string {
  return text.split(/ \[|; |: (?=[a-z])/)[0]!.trim();
}

/** The script for `shell`. */
export function buildCompletion(shell: Shell, flags = completableFlags()): string {
  return { bash: bashScript, zsh: zshScript, fish: fishScript, powershell: powershellScript }[shell](flags);
}

function words(flags: Completable[]): string[] {
  return flags.flatMap((f) => [`--${f.long}`, ...(f.short === undefined ? [] : [`-${f.short}`])]);
}

/** The flags whose value is a word of a list, a directory, a file, or free text. */
function byValue(flags: Completable[]) {
  return {
    listed: flags.filter((f): f is Completable & { value: readonly string[] } => Array.isArray(f.value)),
    directories: flags.filter((f) => f.value === 'directories'),
    files: flags.filter((f) => f.value === 'files'),
    free: flags.filter((f) => f.value === 'free'),
  };
}

function bashScript(flags: Completable[]): string {
  const { listed, directories, files, free } = byValue(flags);
  const cases = [
    ...listed.map((f) => `${words([f]).join('|')}) COMPREPLY=($(compgen -W "${f.value.join(' ')}" -- "$cur")); return 0 ;;`),
    ...(directories.length === 0 ? [] : [`${words(directories).join('|')}) COMPREPLY=($(compgen -d -- "$cur")); return 0 ;;`]),
    ...(files.length === 0 ? [] : [`${words(files).join('|')}) COMPREPLY=($(compgen -f -- "$cur")); return 0 ;;`]),
    ...(free.length === 0 ? [] : [`${words(free).join('|')}) return 0 ;;`]),
  ];
  return `# bash completion for find-file (generated from its flag table: find-file completions bash)
_find_file() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}"
  COMPREPLY=()
  case "$prev" in
    ${cases.join('\n    ')}
  esac
  if [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "${words(flags).join(' ')}" -- "$cur"))
  else
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
  return 0
}
complete -o filenames -F _find_file find-file
`;
}

function zshScript(flags: Completable[]): string {
  // In an _arguments spec: ' closes the quoting, and [ ] : \\ mean something inside the brackets.
  const text = (s: string) => s.replace(/[\\[\]:]/g, (c) => `\\${c}`).replace(/'/g, `'\\''`);
  const specs = flags.map((f) => {
    const action = f.value === 'none' ? '' : `:${f.long}:${zshAction(f.value)}`;
    const names = f.short === undefined ? `--${f.long}` : `{-${f.short},--${f.long}}`;
    const exclusive = f.short === undefined ? '' : `'(-${f.short} --${f.long})'`;
    return `  ${exclusive}${names}'[${text(f.summary)}]${action}'`;
  });
  return `#compdef find-file
# zsh completion for find-file (generated from its flag table: find-file completions zsh)
_arguments -s -S \\
${specs.join(' \\\n')} \\
  '*:pattern or directory:_files'
`;
}

function zshAction(value: Exclude<Completable['value'], 'none'>): string {
  if (value === 'directories') return '_files -/';
  if (value === 'files') return '_files';
  return value === 'free' ? ' ' : `(${value.join(' ')})`;
}

function fishScript(flags: Completable[]): string {
  const text = (s: string) => `'${s.replace(/[\\']/g, (c) => `\\${c}`)}'`;
  const lines = flags.map((f) => {
    const short = f.short === undefined ? '' : ` -s ${f.short}`;
    const value = f.value === 'none' ? '' : ` -r${fishValues(f.value)}`;
    return `complete -c find-file${short} -l ${f.long}${value} -d ${text(f.summary)}`;
  });
  return `# fish completion for find-file (generated from its flag table: find-file completions fish)\n${lines.join('\n')}\n`;
}

function fishValues(value: Exclude<Completable['value'], 'none'>): string {
  if (value === 'directories') return ' -f -a "(__fish_complete_directories)"';
  if (value === 'files') return ' -F';
  return value === 'free' ? '' : ` -f -a "${value.join(' ')}"`;
}

function powershellScript(flags: Completable[]): string {
  const text = (s: string) => `'${s.replace(/'/g, "''")}'`;
  const results = flags.flatMap((f) =>
    words([f]).map((w) => `        [System.Management.Automation.CompletionResult]::new(${text(w)}, ${text(w)}, 'ParameterName', ${text(f.summary || w)})`),
  );
  const { listed } = byValue(flags);
  // Ordinal keys and -clike: PowerShell compares without case by default, and -s is not -S.
  const values = listed.flatMap((f) => words([f]).map((w) => `    $values[${text(w)}] = @(${f.value.map(text).join(', ')})`));
  return `# PowerShell completion for find-file (generated from its flag table: find-file completions powershell)
Register-ArgumentCompleter -Native -CommandName 'find-file' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)
    $values = [System.Collections.Hashtable]::new([System.StringComparer]::Ordinal)
${values.join('\n')}
    $typed = @($commandAst.CommandElements | ForEach-Object { $_.Extent.Text })
    $prev = if ($wordToComplete -eq '') { $typed[-1] } else { $typed[-2] }
    if ($null -ne $prev -and $values.ContainsKey($prev)) {
        $values[$prev] | Where-Object { $_ -clike "$wordToComplete*" } | ForEach-Object { [System.Management.Automation.CompletionResult]::new($_, $_, 'ParameterValue', $_) }
        return
    }
    @(
${results.join(',\n')}
    ) | Where-Object { $_.CompletionText -clike "$wordToComplete*" }
}
`;
}
