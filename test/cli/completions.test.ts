/**
 * `find-file completions SHELL` (src/cli/completions.ts) and the man page (src/cli/manpage.ts,
 * man/find-file.1), both generated from the flag table: each script is checked by its own shell
 * (`bash -n`, `zsh -n`, `fish --no-execute`), bash's really completes (its function called as bash
 * calls it), and the committed page is the generator's output and renders with groff without a
 * warning. On CI (CI set) a missing shell or groff fails the test instead of skipping it.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHELLS, buildCompletion, completableFlags } from '../../src/cli/completions.js';
import { buildFlags } from '../../src/cli/flags.js';
import { buildManPage } from '../../src/cli/manpage.js';
import { VERSION, runFindFile } from '../helpers/cli.js';
import { itIf, posix, type Need } from '../helpers/skip-why.js';

const has = (command: string) => spawnSync(command, ['--version'], { stdio: 'ignore' }).error === undefined;
/** A shell or groff this machine must have to run the check; in CI it runs (and fails) rather than skip. */
const needs = (command: string): Need => [has(command) || process.env.CI !== undefined, `${command} is not installed`];
const onPosix = posix('the scripts are checked by the POSIX shells themselves');

/** Every long flag of the table that a person may type. */
const LONG_FLAGS = Object.entries(buildFlags(0))
  .filter(([, spec]) => spec.hidden !== true)
  .map(([name]) => `--${name}`);

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'find-file-completions-'));
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function scriptFile(shell: (typeof SHELLS)[number]): string {
  const file = join(dir, `find-file.${shell}`);
  writeFileSync(file, buildCompletion(shell));
  return file;
}

/** What bash's completion function offers for the words typed, the last one being completed. */
function bashComplete(typed: string[], cwd = dir): string[] {
  const script = `source "$1"; shift; COMP_WORDS=(find-file "$@"); COMP_CWORD=$#; _find_file; printf '%s\\n' "\${COMPREPLY[@]}"`;
  const run = spawnSync('bash', ['-c', script, 'bash', scriptFile('bash'), ...typed], { cwd, encoding: 'utf8' });
  expect(run.stderr).toBe('');
  return run.stdout.split('\n').filter((line) => line !== '');
}

describe('completion scripts', () => {
  itIf(onPosix, needs('bash'))('bash: passes bash -n, and completes --ch to --changed-within (and --changed-before), --root to directories', () => {
    expect(spawnSync('bash', ['-n', scriptFile('bash')], { encoding: 'utf8' }).stderr).toBe('');
    expect(bashComplete(['--changed-w'])).toEqual(['--changed-within']);
    expect(bashComplete(['--ch']).sort()).toEqual(['--changed-before', '--changed-within']);
    expect(bashComplete(['--no-ig'])).toEqual(['--no-ignore']);
    expect(bashComplete(['--'])).toEqual(expect.arrayContaining([...LONG_FLAGS, '--help', '--version']));
    writeFileSync(join(dir, 'somefile'), '');
    rmSync(join(dir, 'subdir'), { recursive: true, force: true });
    spawnSync('mkdir', [join(dir, 'subdir')]);
    expect(bashComplete(['--root', 's'])).toEqual(['subdir']);
    expect(bashComplete(['s']).sort()).toEqual(['somefile', 'subdir']);
  });

  itIf(onPosix, needs('bash'))('bash: completes a value from the table\'s words (-t d, --color a, --backend), files after --ignore-file, nothing after a free value', () => {
    expect(bashComplete(['-t', 'd'])).toEqual(['d', 'dir', 'directory']);
    expect(bashComplete(['--type', 'ch'])).toEqual(['char-device']);
    expect(bashComplete(['--color', 'a']).sort()).toEqual(['always', 'auto']);
    expect(bashComplete(['--backend', '']).sort()).toEqual(['auto', 'ripgrep', 'walker']);
    expect(bashComplete(['--sort', 'm'])).toEqual(['mtime']);
    writeFileSync(join(dir, 'somefile'), '');
    expect(bashComplete(['--ignore-file', 'some'])).toEqual(['somefile']);
    expect(bashComplete(['--contains', 'some'])).toEqual([]);
  });

  itIf(onPosix, needs('zsh'))('zsh: passes zsh -n', () => {
    const run = spawnSync('zsh', ['-n', scriptFile('zsh')], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });

  itIf(onPosix, needs('fish'))('fish: passes fish --no-execute', () => {
    const run = spawnSync('fish', ['--no-execute', scriptFile('fish')], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });

  itIf(onPosix, needs('fish'))('fish: completes --ch to the two --changed flags, and a value from the table\'s words (--color, -t)', () => {
    /** What fish offers for the command line typed (its `complete -C`), the candidates without their descriptions. */
    const fishComplete = (line: string) => {
      const run = spawnSync('fish', ['--no-config', '-c', `source ${JSON.stringify(scriptFile('fish'))}; complete -C ${JSON.stringify(line)}`], { cwd: dir, encoding: 'utf8' });
      expect(run.stderr).toBe('');
      return run.stdout.split('\n').filter((l) => l !== '').map((l) => l.split('\t')[0]!).sort();
    };
    expect(fishComplete('find-file --ch')).toEqual(['--changed-before', '--changed-within']);
    expect(fishComplete('find-file --color ')).toEqual(['always', 'auto', 'never']);
    expect(fishComplete('find-file -t di')).toEqual(['dir', 'directory']);
  });

  it('every script offers every flag of the table, and a flag added to the table with its value words (nothing else written)', () => {
    const table = {
      ...buildFlags(0),
      'brand-new': { type: 'string' as const, alias: 'Z', requiresArg: true, describe: "A flag with 'quotes', [brackets]: and a \\ backslash" },
      'new-choice': { type: 'string' as const, requiresArg: true, completes: ['first-word', 'second-word'], describe: 'A flag with listed values' },
    };
    for (const shell of SHELLS) {
      const script = buildCompletion(shell, completableFlags(table));
      for (const flag of LONG_FLAGS) expect(script, `${shell} ${flag}`).toContain(flag.replace(/^--/, ''));
      expect(script, shell).toContain('brand-new');
      expect(script, shell).toMatch(/first-word.{1,8}second-word/);
    }
  });

  it('the real command prints them: find-file completions SHELL; `completions` otherwise is a pattern', () => {
    for (const shell of SHELLS) {
      const run = runFindFile(['completions', shell], { cwd: dir });
      expect(run.status).toBe(0);
      expect(run.stdout).toBe(buildCompletion(shell));
    }
    const search = runFindFile(['completions'], { cwd: dir });
    expect(search.stdout).toBe('');
    expect(search.stderr).toMatch(/^find-file: no matches under/);
  });
});

describe('the man page', () => {
  it('man/find-file.1 is the output of the generator (node scripts/build-man.mjs after the build)', () => {
    expect(readFileSync(new URL('../../man/find-file.1', import.meta.url), 'utf8')).toBe(buildManPage(VERSION));
  });

  itIf(onPosix, needs('groff'))('renders with groff -man -Tutf8 -ww without a warning, naming every flag', () => {
    const run = spawnSync('groff', ['-man', '-Tutf8', '-ww', '-P', '-cbou', 'man/find-file.1'], { cwd: new URL('../..', import.meta.url), encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    for (const flag of LONG_FLAGS) expect(run.stdout).toContain(flag);
  });

  it('is shipped: package.json names it in "man" and its folder in "files"', () => {
    const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { man: string[]; files: string[] };
    expect(manifest.man).toEqual(['./man/find-file.1']);
    expect(manifest.files).toContain('man');
  });
});
