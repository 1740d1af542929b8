/**
 * Colour on stdout (src/cli/color.ts): paths by LS_COLORS as fd, content lines as rg, `--color`,
 * NO_COLOR and FORCE_COLOR; never for programs (`--json`, `--ndjson`, `-0`); hostile names escaped
 * before they are painted. The rules as units, then through the real bin/find-file.mjs.
 */
import { chmodSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPathPainter, highlightMatches, parseLsColors, shouldColor, shouldColorStdout } from '../../src/cli/color.js';
import { buildLineMatcher, readQuery } from '../../src/content/query.js';
import { inTerminal, isPosix, lines, runFindFile, writeTree, type Run, type RunOptions } from '../helpers/cli.js';
import { itIf, posix } from '../helpers/skip-why.js';

const ESC = '\x1b';
const BLUE_DIR = `${ESC}[01;34m`;
const RESET = `${ESC}[0m`;

let base: string;
let tree: string;

function ff(args: string[], options: Partial<RunOptions> = {}): Run {
  return runFindFile(args, { cwd: tree, ...options });
}

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'find-file-color-'));
  tree = join(base, 'tree');
  writeTree(tree, { 'src/app.ts': 'const TODO = 1; // todo\n', 'run.sh': '', 'notes.txt': 'nothing\n' });
  if (isPosix) {
    chmodSync(join(tree, 'run.sh'), 0o755);
    symlinkSync('notes.txt', join(tree, 'link.txt'));
  }
});

afterAll(() => {
  if (base) rmSync(base, { recursive: true, force: true });
});

describe('the rules (units)', () => {
  it('whether stdout is coloured: --color first, then NO_COLOR, FORCE_COLOR, a terminal; never for --json, --ndjson, -0', () => {
    const tty = { isTTY: true };
    const pipe = { isTTY: false };
    expect(shouldColorStdout('auto', 'human', tty, {})).toBe(true);
    expect(shouldColorStdout('auto', 'human', pipe, {})).toBe(false);
    expect(shouldColorStdout('auto', 'human', tty, { NO_COLOR: '1' })).toBe(false);
    expect(shouldColorStdout('auto', 'human', tty, { NO_COLOR: '' })).toBe(true); // no-color.org: empty does not count
    expect(shouldColorStdout('auto', 'human', pipe, { FORCE_COLOR: '1' })).toBe(true);
    expect(shouldColorStdout('auto', 'human', pipe, { FORCE_COLOR: '0' })).toBe(false);
    expect(shouldColorStdout('auto', 'human', pipe, { FORCE_COLOR: '1', NO_COLOR: '1' })).toBe(false);
    expect(shouldColorStdout('always', 'human', pipe, { NO_COLOR: '1' })).toBe(true);
    expect(shouldColorStdout('never', 'human', tty, { FORCE_COLOR: '1' })).toBe(false);
    for (const output of ['json', 'ndjson', 'print0'] as const) expect(shouldColorStdout('always', output, tty, { FORCE_COLOR: '1' }), output).toBe(false);
  });

  it('whether stderr (the summary, the progress line) is coloured: the same rules, on its own terminal test', () => {
    expect(shouldColor('auto', { isTTY: true }, {})).toBe(true);
    expect(shouldColor('auto', {}, {})).toBe(false);
    expect(shouldColor('auto', { isTTY: false }, { FORCE_COLOR: 'true' })).toBe(true);
    expect(shouldColor('auto', { isTTY: false }, { FORCE_COLOR: 'false' })).toBe(false);
    expect(shouldColor('auto', { isTTY: true }, { NO_COLOR: '1' })).toBe(false);
    expect(shouldColor('always', { isTTY: false }, { NO_COLOR: '1' })).toBe(true);
    expect(shouldColor('never', { isTTY: true }, { FORCE_COLOR: '1' })).toBe(false);
  });

  it('LS_COLORS: kinds and *.ext suffixes (longest first, case ignored); a value that is not an SGR list is dropped', () => {
    const colors = parseLsColors('di=1;33:*.ts=38;5;208:*.d.ts=2:ex=01;32:ln=\x1b[2J:*.md=31m:bogus=1:rs=0');
    expect(colors.kinds).toEqual({ di: '1;33', ex: '01;32' });
    expect(colors.suffixes).toEqual([['.d.ts', '2'], ['.ts', '38;5;208']]);
    expect(parseLsColors(undefined).kinds.di).toBe('01;34'); // GNU's defaults, as fd
  });

  itIf(posix('the kinds painted need chmod +x and symlinks'))('(POSIX) a path: its directory part as di, its name by kind, else by suffix; escaped before it is painted', () => {
    const paint = buildPathPainter(parseLsColors('di=1;33:*.TS=35:ex=32:ln=36'), '/');
    expect(paint('src/app.ts', join(tree, 'src/app.ts'))).toBe(`${ESC}[1;33msrc/${RESET}${ESC}[35mapp.ts${RESET}`);
    expect(paint('run.sh', join(tree, 'run.sh'))).toBe(`${ESC}[32mrun.sh${RESET}`);
    expect(paint('link.txt', join(tree, 'link.txt'))).toBe(`${ESC}[36mlink.txt${RESET}`);
    expect(paint('src', join(tree, 'src'))).toBe(`${ESC}[1;33msrc${RESET}`);
    // A name that is gone (or holds an ESC) still comes out: by suffix, escaped.
    expect(paint(`d\x1b[31m/x\x1b]0;t\x07.ts`, join(tree, 'nothing-here'))).toBe(`${ESC}[1;33md\\u{1b}[31m/${RESET}${ESC}[35mx\\u{1b}]0;t\\u{7}.ts${RESET}`);
  });

  it('a hit\'s line: every match bold red, found by the search\'s own matcher; escaped piece by piece as the whole line would be', () => {
    const smart = buildLineMatcher(readQuery({ query: 'todo' }, true));
    expect(highlightMatches('const TODO = 1; // todo', smart)).toBe(`const ${ESC}[1;31mTODO${RESET} = 1; // ${ESC}[1;31mtodo${RESET}`);
    const literal = buildLineMatcher(readQuery({ query: 'u{' }, true));
    // The backslash before a match of `u{` is escaped, as escapeText escapes it in the whole line.
    expect(highlightMatches('a\\u{1b}', literal)).toBe(`a\\u{5c}${ESC}[1;31mu{${RESET}1b}`);
    const esc = buildLineMatcher(readQuery({ query: 'x' }, true));
    expect(highlightMatches('\x1b[2Jx', esc)).toBe(`\\u{1b}[2J${ESC}[1;31mx${RESET}`);
    const empty = buildLineMatcher(readQuery({ query: 'a*', mode: 'regex' }, true));
    expect(highlightMatches('bab', empty)).toBe(`b${ESC}[1;31ma${RESET}b`);
  });
});

describe('through the command', () => {
  itIf(posix('the kinds painted need chmod +x and symlinks'))('(POSIX) --color always: paths by LS_COLORS, into a pipe', () => {
    const run = ff(['*', '-t', 'f', '-t', 'l', '-t', 'd', '--sort', 'path', '--color', 'always'], { env: { LS_COLORS: 'di=01;34:ln=01;36:ex=01;32:*.ts=33' } });
    expect(run.status).toBe(0);
    expect(lines(run.stdout)).toEqual([
      `${ESC}[01;36mlink.txt${RESET}`,
      'notes.txt',
      `${ESC}[01;32mrun.sh${RESET}`,
      `${BLUE_DIR}src${RESET}`,
      `${BLUE_DIR}src/${RESET}${ESC}[33mapp.ts${RESET}`,
    ]);
  });

  it('--contains with --color always: path magenta, line number green, each match bold red, as rg; -l and -c paths magenta', () => {
    const run = ff(['--contains', 'todo', '--color', 'always']);
    expect(run.status).toBe(0);
    expect(lines(run.stdout)).toEqual([`${ESC}[35msrc/app.ts${RESET}:${ESC}[32m1${RESET}:7: const ${ESC}[1;31mTODO${RESET} = 1; // ${ESC}[1;31mtodo${RESET}`.replace('src/app.ts', join('src', 'app.ts'))]);
    expect(lines(ff(['--contains', 'todo', '--color', 'always', '-c']).stdout)).toEqual([`${ESC}[35m${join('src', 'app.ts')}${RESET}:1`]);
  });

  it('FORCE_COLOR colours a pipe; NO_COLOR wins over it; --color never wins over both; no colour by default into a pipe', () => {
    const colored = (run: Run) => run.stdout.includes(ESC);
    expect(colored(ff(['*.ts'], { env: { FORCE_COLOR: '1' } }))).toBe(true);
    expect(colored(ff(['*.ts'], { env: { FORCE_COLOR: '1', NO_COLOR: '1' } }))).toBe(false);
    expect(colored(ff(['*.ts', '--color', 'never'], { env: { FORCE_COLOR: '1' } }))).toBe(false);
    expect(colored(ff(['*.ts']))).toBe(false);
    expect(colored(ff(['--contains', 'todo'], { env: { FORCE_COLOR: '1' } }))).toBe(true);
  });

  it('the summary on stderr follows the same rules: --color, then NO_COLOR, FORCE_COLOR, a terminal (a pipe here)', () => {
    const painted = (run: Run) => run.stderr.includes(ESC);
    expect(painted(ff(['*.ts', '--color', 'always']))).toBe(true);
    expect(painted(ff(['*.ts'], { env: { FORCE_COLOR: '1' } }))).toBe(true);
    expect(painted(ff(['*.ts', '--color', 'never'], { env: { FORCE_COLOR: '1' } }))).toBe(false);
    expect(painted(ff(['*.ts'], { env: { FORCE_COLOR: '1', NO_COLOR: '1' } }))).toBe(false);
    expect(painted(ff(['*.ts']))).toBe(false);
    expect(painted(ff(['--contains', 'todo', '--color', 'always']))).toBe(true);
    // -0's stdout is for xargs, never painted; its summary is for the person at the terminal.
    const print0 = ff(['*.ts', '-0', '--color', 'always']);
    expect([print0.stdout.includes(ESC), painted(print0)]).toEqual([false, true]);
  });

  it('never colours --json, --ndjson or -0, even with --color always and FORCE_COLOR', () => {
    for (const mode of [['--json'], ['--ndjson'], ['-0'], ['--contains', 'todo', '--json'], ['--contains', 'todo', '-0']]) {
      const run = ff(['*.ts', ...mode, '--color', 'always'], { env: { FORCE_COLOR: '1' } });
      expect(run.status, mode.join(' ')).toBe(0);
      expect(run.stdout, mode.join(' ')).not.toContain(ESC);
    }
  });

  it('a bad --color value is a usage error', () => {
    const run = ff(['*.ts', '--color', 'sometimes']);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('find-file: error: --color must be auto, always or never, got "sometimes"');
  });

  itIf(posix('the hostile name holds characters Windows names cannot'))('(POSIX) a hostile name is escaped before it is painted: no ESC of its own reaches the terminal', () => {
    const hostile = join(base, 'hostile');
    writeTree(hostile, { 'evil\x1b]0;pwned\x07\x1b[2J.ts': 'needle \x1b[31mred\n' });
    const paths = ff(['*.ts', '--color', 'always'], { cwd: hostile });
    expect(lines(paths.stdout)).toEqual(['evil\\u{1b}]0;pwned\\u{7}\\u{1b}[2J.ts']);
    const hits = ff(['--contains', 'needle', '--color', 'always'], { cwd: hostile });
    expect(lines(hits.stdout)).toEqual([`${ESC}[35mevil\\u{1b}]0;pwned\\u{7}\\u{1b}[2J.ts${RESET}:${ESC}[32m1${RESET}:1: ${ESC}[1;31mneedle${RESET} \\u{1b}[31mred`]);
  });

  itIf(posix('the terminal is script(1)'))('(POSIX) auto: a terminal gets colour, NO_COLOR takes it away', () => {
    expect(inTerminal(['*.ts'], tree, {}).stdout).toContain(`${BLUE_DIR}src/${RESET}`);
    expect(inTerminal(['*.ts'], tree, { NO_COLOR: '1' }).stdout).not.toContain(ESC);
  });
});
