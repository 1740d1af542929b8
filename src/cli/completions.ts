/**
 * `find-file completions bash|zsh|fish|powershell`: a completion script for the shell, generated
 * from flags.ts's table (the one list of flags; nothing here names a flag), so a flag added there
 * completes everywhere. Each script completes the flags (long, short, and the `--no-` forms the
 * table's own descriptions mention), directories after `--root`, and files elsewhere.
 */
import { buildFlags, type FlagSpec } from './flags.js';

export const SHELLS = ['bash', 'zsh', 'fish', 'powershell'] as const;
export type Shell = (typeof SHELLS)[number];

/** One flag as the scripts offer it. */
interface Completable {
  long: string;
  short: string | undefined;
  takesValue: boolean;
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
    if (spec.hidden !== true) out.push({ long: name, short: spec.alias, takesValue: spec.type === 'string', summary });
    // A negation the help text itself tells people to type (`--no-ignore`, `--no-hidden`).
    if (spec.type === 'boolean' && said.includes(`--no-${name}`)) out.push({ long: `no-${name}`, short: undefined, takesValue: false, summary: `Not --${name}` });
  }
  out.push({ long: 'help', short: 'h', takesValue: false, summary: 'Show help' }, { long: 'version', short: 'V', takesValue: false, summary: 'Show version number' });
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

function bashScript(flags: Completable[]): string {
  const valued = words(flags.filter((f) => f.takesValue && f.long !== 'root'));
  return `# bash completion for find-file (generated from its flag table: find-file completions bash)
_find_file() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}"
  COMPREPLY=()
  case "$prev" in
    --root) COMPREPLY=($(compgen -d -- "$cur")); return 0 ;;
    ${valued.join('|')}) return 0 ;;
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
    const action = f.takesValue ? `:${f.long}:${f.long === 'root' ? '_files -/' : ' '}` : '';
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

function fishScript(flags: Completable[]): string {
  const text = (s: string) => `'${s.replace(/[\\']/g, (c) => `\\${c}`)}'`;
  const lines = flags.map((f) => {
    const short = f.short === undefined ? '' : ` -s ${f.short}`;
    const value = f.takesValue ? (f.long === 'root' ? ' -r -f -a "(__fish_complete_directories)"' : ' -r') : '';
    return `complete -c find-file${short} -l ${f.long}${value} -d ${text(f.summary)}`;
  });
  return `# fish completion for find-file (generated from its flag table: find-file completions fish)\n${lines.join('\n')}\n`;
}

function powershellScript(flags: Completable[]): string {
  const text = (s: string) => `'${s.replace(/'/g, "''")}'`;
  const results = flags.flatMap((f) =>
    words([f]).map((w) => `        [System.Management.Automation.CompletionResult]::new(${text(w)}, ${text(w)}, 'ParameterName', ${text(f.summary || w)})`),
  );
  return `# PowerShell completion for find-file (generated from its flag table: find-file completions powershell)
Register-ArgumentCompleter -Native -CommandName 'find-file' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)
    @(
${results.join(',\n')}
    ) | Where-Object { $_.CompletionText -like "$wordToComplete*" }
}
`;
}
