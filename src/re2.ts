/**
 * RE2 (re2js), loaded the first time something needs a matcher that runs in linear time: a content
 * regex, a name regex, an ignore rule a backtracking regex could take minutes over. Not loaded with
 * the library: most searches never need it, and re2js was most of `import('find-file')`'s time
 * (bench/suites/import.mjs). `require` keeps compiling synchronous (re2js ships a CommonJS build).
 */
import { createRequire } from 'node:module';
import type { RE2JS } from 're2js';

const requireModule = createRequire(import.meta.url);
let re2: typeof RE2JS | undefined;

export function loadRe2(): typeof RE2JS {
  return (re2 ??= (requireModule('re2js') as typeof import('re2js')).RE2JS);
}
