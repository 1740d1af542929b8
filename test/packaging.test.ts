/**
 * What `npm pack` ships (issue 29, packaging): the licence package.json names, and source maps
 * whose every source is in the package too, so a host's stack trace through find-file points at
 * a file it has. Read from `npm pack --json --ignore-scripts` (no build) after `npm run build`, as
 * `npm test` runs it.
 *
 * And the light install: the same tarball (one pack: a second, `--dry-run` for the list, cost
 * another 2.7 s of CPU for the same list of files), installed (cache first) into an empty
 * project, brings at most 5 packages in all (find-file, minimatch and its two, re2js: the CLI and
 * the MCP server carry yargs and the MCP SDK in their bundles), and both bins work from there.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const PROJECT = dirname(fileURLToPath(new URL('../package.json', import.meta.url)));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
/** vitest.config.ts takes NODE_EXTRA_CA_CERTS from the suite's processes; npm may ask the registry, so it gets it back. */
const npmEnv: NodeJS.ProcessEnv = { ...process.env, ...(process.env.FF_TEST_NPM_CA_CERTS === undefined ? {} : { NODE_EXTRA_CA_CERTS: process.env.FF_TEST_NPM_CA_CERTS }) };
let packed: Set<string>;
/** The folder the tarball is packed into, and its path. */
let packDir = '';
let tarball = '';

beforeAll(() => {
  packDir = mkdtempSync(join(tmpdir(), 'ff-pack-'));
  const run = spawnSync(npm, ['pack', '--json', '--ignore-scripts', '--pack-destination', packDir], { cwd: PROJECT, encoding: 'utf8', shell: false, env: npmEnv });
  expect(run.status, run.stderr).toBe(0);
  const [pack] = JSON.parse(run.stdout) as { filename: string; files: { path: string }[] }[];
  packed = new Set(pack!.files.map((f) => f.path));
  tarball = join(packDir, pack!.filename);
}, 60_000);
afterAll(() => rmSync(packDir, { recursive: true, force: true }));

describe('the packed package', () => {
  it('ships the LICENSE package.json names', () => {
    expect(JSON.parse(readFileSync(join(PROJECT, 'package.json'), 'utf8')).license).toBe('MIT');
    expect(packed.has('LICENSE')).toBe(true);
    expect(readFileSync(join(PROJECT, 'LICENSE'), 'utf8')).toMatch(/^MIT License/);
  });

  it('every source map points at sources that are in the package', () => {
    const maps = [...packed].filter((p) => p.endsWith('.js.map'));
    // The library's bundles carry maps (back through tsc's maps to src/); the bins' bundles do not.
    for (const entry of ['index', 'agent', 'tinyglobby', 'glob']) expect(maps).toContain(`dist/lib/${entry}.js.map`);
    const missing: string[] = [];
    for (const map of maps) {
      const { sources } = JSON.parse(readFileSync(join(PROJECT, map), 'utf8')) as { sources: string[] };
      for (const source of sources) {
        const shipped = posix.normalize(posix.join(posix.dirname(map), source));
        if (!packed.has(shipped)) missing.push(`${map} -> ${shipped}`);
      }
    }
    expect(missing).toEqual([]);
  });
});

describe('installed from the packed tarball into an empty project', () => {
  let project = '';
  let installed: string[] = [];
  beforeAll(() => {
    project = mkdtempSync(join(tmpdir(), 'ff-install-'));
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'host', version: '1.0.0', private: true }));
    // --prefer-offline: the tarballs come from the cache npm ci filled; the registry is asked only for
    // what the cache lacks (npm ci stores tarballs, not the version lists a semver range needs).
    const install = spawnSync(npm, ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', tarball], { cwd: project, encoding: 'utf8', env: npmEnv });
    expect(install.status, install.stderr).toBe(0);
    const lock = JSON.parse(readFileSync(join(project, 'node_modules', '.package-lock.json'), 'utf8')) as { packages: Record<string, unknown> };
    installed = Object.keys(lock.packages).filter((p) => p !== '').map((p) => p.replace(/^.*node_modules\//, '')).sort();
    writeFileSync(join(project, 'a.txt'), 'x');
  }, 180_000);
  afterAll(() => rmSync(project, { recursive: true, force: true }));

  it('installs at most 5 packages in all', () => {
    expect(installed).toContain('find-file');
    expect(installed.length, installed.join(', ')).toBeLessThanOrEqual(5);
  });

  it('the find-file bin searches from there', () => {
    const run = spawnSync(process.execPath, [join(project, 'node_modules', 'find-file', 'bin', 'find-file.mjs'), '*.txt'], { cwd: project, encoding: 'utf8' });
    expect(run.stderr).toContain('complete');
    expect(run.stdout).toBe('a.txt\n');
    expect(run.status).toBe(0);
  });

  // The library's entries are bundles with lazy chunks (scripts/bundle.mjs): each must load from the install and
  // reach the chunks read only on use (content search's reader, the ripgrep backend).
  it('every library entry loads from there, and searches names and content', () => {
    writeFileSync(join(project, 'host.mjs'), [
      "import { findFiles, searchContent } from 'find-file';",
      "import { glob } from 'find-file/tinyglobby';",
      "import { globSync } from 'find-file/glob';",
      "import { globTool } from 'find-file/agent';",
      "const names = await findFiles({ root: '.', pattern: '*.txt' });",
      "const walked = await searchContent({ root: '.', pattern: '*.txt', query: 'x', backend: 'walker' });",
      "const ripgrep = await searchContent({ root: '.', pattern: '*.txt', query: 'x', backend: 'auto' });",
      "const tool = await globTool({ pattern: '*.txt', path: process.cwd() }, { root: process.cwd() });",
      'console.log(JSON.stringify([names.matches, names.complete, walked.hits.map((h) => h.path), ripgrep.backend, ripgrep.hits.map((h) => h.path), await glob(\'*.txt\'), globSync(\'*.txt\'), typeof tool]));',
    ].join('\n'));
    const run = spawnSync(process.execPath, ['host.mjs'], { cwd: project, encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual([['a.txt'], true, ['a.txt'], 'ripgrep', ['a.txt'], ['a.txt'], ['a.txt'], 'object']);
  });

  it('the MCP server answers initialize from there (find-file-mcp and find-file mcp)', () => {
    const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'host', version: '1' } } });
    const bin = join(project, 'node_modules', 'find-file', 'bin');
    for (const argv of [[join(bin, 'find-file-mcp.mjs')], [join(bin, 'find-file.mjs'), 'mcp']]) {
      const run = spawnSync(process.execPath, argv, { cwd: project, input: initialize + '\n', encoding: 'utf8', timeout: 30_000 });
      expect(run.stderr, argv.join(' ')).not.toMatch(/cannot load/);
      const reply = JSON.parse(run.stdout.split('\n')[0]!) as { id: number; result: { serverInfo: { name: string } } };
      expect(reply).toMatchObject({ id: 1, result: { serverInfo: { name: 'find-file' } } });
    }
  });
});
