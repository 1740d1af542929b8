/**
 * The package entry points (package.json "exports"): `find-file/tinyglobby` and `find-file/glob`
 * resolve, by the package's own name, to the built adapters and their types (`npm run build`
 * first, as `npm test` does).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const PACKAGE = fileURLToPath(new URL('../../package.json', import.meta.url));
const PROJECT = dirname(PACKAGE);
const TSC = createRequire(PACKAGE).resolve('typescript/bin/tsc');
const exportsMap = JSON.parse(readFileSync(PACKAGE, 'utf8')).exports as Record<string, { types: string; default: string }>;

describe('the adapter entry points', () => {
  for (const entry of ['tinyglobby', 'glob']) {
    it(`find-file/${entry} resolves to the built adapter, with its types`, async () => {
      const target = exportsMap[`./${entry}`]!;
      expect(target).toEqual({ types: `./dist/compat/${entry}.d.ts`, default: `./dist/lib/${entry}.js` });
      expect(existsSync(fileURLToPath(new URL(`../../${target.types}`, import.meta.url)))).toBe(true);
      const mod = (await import(`find-file/${entry}`)) as Record<string, unknown>;
      expect(typeof mod.glob).toBe('function');
      expect(typeof mod.globSync).toBe('function');
    });
  }

  // The entries are bundled with their shared code in one chunk (scripts/bundle.mjs): a host that
  // catches with `instanceof FindFileError` from 'find-file' must catch what an adapter throws.
  it('every entry throws the one FindFileError class that find-file exports', async () => {
    const { FindFileError } = (await import('find-file')) as { FindFileError: typeof import('../../src/index.js').FindFileError };
    const adapters = [await import('find-file/glob'), await import('find-file/tinyglobby')] as { globSync: (p: string, o: object) => unknown }[];
    for (const adapter of adapters) {
      let thrown: unknown;
      try {
        adapter.globSync('*', { nosuchoption: true });
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(FindFileError);
      expect((thrown as InstanceType<typeof FindFileError>).code).toBe('FF_UNKNOWN_OPTION');
    }
    const { globTool } = (await import('find-file/agent')) as typeof import('../../src/agent/index.js');
    expect(typeof globTool).toBe('function');
  });
});

/**
 * Every entry's types resolve for a TypeScript consumer whatever its `moduleResolution`: `node10`
 * reads no "exports" (package.json "typesVersions" maps the subpaths for it), `node16` and
 * `bundler` read "exports". The consumer imports by package name through a node_modules link
 * to this checkout and is checked by the real `tsc`: one `tsc --build` over a project per setting
 * (each its own folder, the same compiler options the command line gave), where three runs of
 * `tsc` each started and read the standard library anew (4.1 s of CPU against 1.7).
 */
describe('the entry points under every TypeScript module resolution', () => {
  const CONSUMER = [
    "import { findFiles, type FindResult } from 'find-file';",
    "import { globTool, type GlobToolResult } from 'find-file/agent';",
    "import { glob as tinyglob, type GlobOptions as TinyOptions } from 'find-file/tinyglobby';",
    "import { globSync, type GlobOptions as NodeGlobOptions } from 'find-file/glob';",
    'export const used: unknown[] = [findFiles, globTool, tinyglob, globSync];',
    'export type Used = [FindResult, GlobToolResult, TinyOptions, NodeGlobOptions];',
    // A wrong type must fail: proves the imports carry real types, not `any`.
    "// @ts-expect-error a number is no pattern",
    'globSync(42);',
    // withFileTypes: node-glob's Path members, typed; the verdict on the same array.
    "const entries = globSync('*', { withFileTypes: true, stat: true });",
    'export const newest: [string, number][] = entries.map((e) => [e.fullpath(), e.mtimeMs ?? 0]);',
    'export const complete: boolean = entries.result.complete;',
    "// @ts-expect-error withFileTypes answers entries, not strings",
    "export const paths: string[] = globSync('*', { withFileTypes: true });",
  ].join('\n');
  const SETTINGS: Record<string, { module: string; moduleResolution: string }> = {
    node10: { module: 'commonjs', moduleResolution: 'node10' },
    node16: { module: 'node16', moduleResolution: 'node16' },
    bundler: { module: 'esnext', moduleResolution: 'bundler' },
  };
  let dir = '';
  /** What `tsc --build` printed, by setting (a message's indented continuation lines with it), and what no setting's file starts. */
  const printed = new Map<string, string[]>();
  let status: number | null = null;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'ff-consumer-'));
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(PROJECT, join(dir, 'node_modules', 'find-file'), 'junction');
    for (const [name, options] of Object.entries(SETTINGS)) {
      // node10 consumers are CommonJS files; node16 and bundler ones are ES modules.
      const file = name === 'node10' ? 'consumer.ts' : 'consumer.mts';
      mkdirSync(join(dir, name));
      writeFileSync(join(dir, name, file), CONSUMER);
      const compilerOptions = { noEmit: true, strict: true, skipLibCheck: true, target: 'es2022', ...options };
      writeFileSync(join(dir, name, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: [file] }));
    }
    // --force: every project checked, whatever build info a folder holds.
    const run = spawnSync(process.execPath, [TSC, '--build', '--force', '--pretty', 'false', ...Object.keys(SETTINGS)], { cwd: dir, encoding: 'utf8' });
    status = run.status;
    let owner = '(no setting)';
    for (const line of `${run.stdout}${run.stderr}`.split('\n').filter((l) => l.trim() !== '')) {
      if (!/^\s/.test(line)) owner = Object.keys(SETTINGS).find((name) => line.startsWith(`${name}/`)) ?? '(no setting)';
      printed.set(owner, [...(printed.get(owner) ?? []), line]);
    }
  }, 60_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  for (const [name, options] of Object.entries(SETTINGS)) {
    it(`moduleResolution ${name}`, () => {
      expect((printed.get(name) ?? []).join('\n'), `tsc --module ${options.module} --moduleResolution ${name}`).toBe('');
      // What no setting's file starts (tsc failing as a whole) fails every setting.
      expect((printed.get('(no setting)') ?? []).join('\n')).toBe('');
      if (printed.size === 0) expect(status).toBe(0);
    });
  }
});
