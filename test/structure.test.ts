/**
 * The shape of src/ (issue 13): no source file over 400 lines, no function over 80, so that each
 * behaviour lives in a piece a newcomer can read whole. Measured with the TypeScript parser on
 * the sources themselves, so a long arrow function or method counts as a function too.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../src', import.meta.url));
const MAX_FILE_LINES = 400;
const MAX_FUNCTION_LINES = 80;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return name.endsWith('.ts') ? [full] : [];
  });
}

interface Piece {
  where: string;
  lines: number;
}

function longFunctions(file: string, text: string): Piece[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: Piece[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
      const start = source.getLineAndCharacterOfPosition(node.getStart()).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      if (end - start + 1 > MAX_FUNCTION_LINES) found.push({ where: `${relative(SRC, file)}:${start + 1}`, lines: end - start + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const files = sourceFiles(SRC);

describe('the shape of src/', () => {
  it('has sources to measure (the walk of src/ found them)', () => {
    expect(files.map((f) => relative(SRC, f))).toEqual(expect.arrayContaining(['index.ts', 'walk/engine.ts', 'plan/search-plan.ts']));
  });

  it(`has no file over ${MAX_FILE_LINES} lines`, () => {
    const long = files.map((f) => ({ where: relative(SRC, f), lines: readFileSync(f, 'utf8').split('\n').length })).filter((p) => p.lines > MAX_FILE_LINES);
    expect(long).toEqual([]);
  });

  it(`has no function over ${MAX_FUNCTION_LINES} lines`, () => {
    expect(files.flatMap((f) => longFunctions(f, readFileSync(f, 'utf8')))).toEqual([]);
  });

  it('the measure counts what it should: a long function in a sample is found', () => {
    const body = Array.from({ length: MAX_FUNCTION_LINES }, (_, i) => `  const v${i} = ${i};`).join('\n');
    expect(longFunctions(join(SRC, 'sample.ts'), `export const f = () => {\n${body}\n};\n`)).toEqual([{ where: 'sample.ts:1', lines: MAX_FUNCTION_LINES + 2 }]);
  });
});

describe('the drop-in adapters (src/compat/) stand on the public API', () => {
  // The modules src/index.ts exports from: an adapter reaches nothing else of the library, and never the CLI, agent or MCP layers.
  const PUBLIC = ['../find.js', '../errors.js', '../options.js', '../result.js', '../fs.js'];
  // The packages a host installs with find-file (node-glob's `hasMagic` and `unescape` are minimatch's own).
  const RUNTIME = Object.keys((JSON.parse(readFileSync(join(SRC, '..', 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies);
  const compat = files.filter((f) => relative(SRC, f).startsWith('compat'));

  it('has adapters to check', () => {
    expect(compat.map((f) => relative(SRC, f)).sort()).toEqual(expect.arrayContaining([join('compat', 'glob.ts'), join('compat', 'tinyglobby.ts')]));
  });

  it('imports only node: modules, each other, the public modules and the runtime dependencies', () => {
    const imports = compat.flatMap((f) => [...readFileSync(f, 'utf8').matchAll(/from '([^']+)'/g)].map((m) => ({ file: relative(SRC, f), from: m[1]! })));
    expect(imports.length).toBeGreaterThan(0);
    expect(imports.filter(({ from }) => !from.startsWith('node:') && !from.startsWith('./') && !PUBLIC.includes(from) && !RUNTIME.includes(from))).toEqual([]);
  });
});
