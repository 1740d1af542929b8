/**
 * The package entry points (package.json "exports"): `find-file/tinyglobby` and `find-file/glob`
 * resolve, by the package's own name, to the built adapters and their types (`npm run build`
 * first, as `npm test` does).
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const PACKAGE = fileURLToPath(new URL('../../package.json', import.meta.url));
const exportsMap = JSON.parse(readFileSync(PACKAGE, 'utf8')).exports as Record<string, { types: string; default: string }>;

describe('the adapter entry points', () => {
  for (const entry of ['tinyglobby', 'glob']) {
    it(`find-file/${entry} resolves to the built adapter, with its types`, async () => {
      const target = exportsMap[`./${entry}`]!;
      expect(target).toEqual({ types: `./dist/compat/${entry}.d.ts`, default: `./dist/compat/${entry}.js` });
      expect(existsSync(fileURLToPath(new URL(`../../${target.types}`, import.meta.url)))).toBe(true);
      const mod = (await import(`find-file/${entry}`)) as Record<string, unknown>;
      expect(typeof mod.glob).toBe('function');
      expect(typeof mod.globSync).toBe('function');
    });
  }
});
