/**
 * An earlier build of find-file, timed as a row of the suite so that a regression shows beside
 * the peers (issue 19). find-file has no published release yet; the row is the commit named here,
 * the build issue 19's figures were measured at. Move it forward when a release is cut.
 *
 * Built once into bench/.scratch/previous-COMMIT/ (gitignored): the commit's src/ and tsconfig.json
 * from `git archive`, compiled with this checkout's TypeScript against this checkout's
 * node_modules (that commit's runtime dependencies, minimatch and yargs, are a subset of ours).
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

export const PREVIOUS = { commit: 'ed8361d', why: 'the build issue 19 measured' };

const BENCH = path.dirname(path.dirname(fileURLToPath(import.meta.url))); // bench/ (this file is bench/lib/previous.mjs)
const REPO = path.dirname(BENCH);

function run(command, args, options) {
  const r = spawnSync(command, args, { encoding: 'utf8', ...options });
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} failed: ${r.stderr || r.error?.message}`);
  return r.stdout;
}

/** The path of the earlier build's dist/index.js, building it first if it is missing. */
export function ensurePrevious() {
  const dir = path.join(BENCH, '.scratch', `previous-${PREVIOUS.commit}`);
  const entry = path.join(dir, 'dist', 'index.js');
  if (fs.existsSync(entry)) return entry;
  console.log(`building find-file at ${PREVIOUS.commit} (${PREVIOUS.why}) into ${path.relative(REPO, dir)} ...`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const archive = spawnSync('git', ['archive', '--format=tar', PREVIOUS.commit, 'src', 'tsconfig.json', 'package.json'], { cwd: REPO, maxBuffer: 64 << 20 });
  if (archive.status !== 0) throw new Error(`git archive ${PREVIOUS.commit} failed (a shallow clone lacks it): ${archive.stderr}`);
  run('tar', ['-x', '-C', dir], { input: archive.stdout });
  fs.symlinkSync(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  run(process.execPath, [path.join(REPO, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', path.join(dir, 'tsconfig.json')], { cwd: dir });
  return entry;
}
