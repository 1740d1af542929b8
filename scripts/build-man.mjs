/**
 * Writes man/find-file.1 from the flag table (src/cli/manpage.ts, compiled to dist/): run after
 * the build, and commit the page; test/cli/completions.test.ts fails when it is out of date.
 *
 *   npm run build && node scripts/build-man.mjs
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { buildManPage } from '../dist/cli/manpage.js';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
writeFileSync(new URL('../man/find-file.1', import.meta.url), buildManPage(version));
