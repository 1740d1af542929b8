/**
 * What `npm pack` ships (issue 29, packaging): the licence package.json names, and source maps
 * whose every source is in the package too, so a host's stack trace through find-file points at
 * a file it has. Read from `npm pack --dry-run --json --ignore-scripts` (no build, no tarball)
 * after `npm run build`, as `npm test` runs it.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

const PROJECT = dirname(fileURLToPath(new URL('../package.json', import.meta.url)));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
let packed: Set<string>;

beforeAll(() => {
  const run = spawnSync(npm, ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: PROJECT, encoding: 'utf8', shell: false });
  expect(run.status, run.stderr).toBe(0);
  packed = new Set((JSON.parse(run.stdout) as { files: { path: string }[] }[])[0]!.files.map((f) => f.path));
}, 60_000);

describe('the packed package', () => {
  it('ships the LICENSE package.json names', () => {
    expect(JSON.parse(readFileSync(join(PROJECT, 'package.json'), 'utf8')).license).toBe('MIT');
    expect(packed.has('LICENSE')).toBe(true);
    expect(readFileSync(join(PROJECT, 'LICENSE'), 'utf8')).toMatch(/^MIT License/);
  });

  it('every source map points at sources that are in the package', () => {
    const maps = [...packed].filter((p) => p.endsWith('.js.map'));
    expect(maps.length).toBeGreaterThan(50);
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
