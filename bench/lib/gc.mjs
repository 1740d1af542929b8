/**
 * A full garbage collection on demand, for the bench scripts that time or weigh in their own
 * process: `gc()` before each sample, so that no tool pays for the garbage of the one before, and
 * before each heap reading. Node hides `gc` unless started with `--expose-gc`; this turns the flag
 * on at run time and takes the function from a fresh context (where V8 then installs it), so the
 * scripts need no flag on their command line. The children in targets/ are started with
 * `--expose-gc` and call `globalThis.gc` instead: importing this would add modules to the process
 * they measure.
 */
import * as v8 from 'node:v8';
import * as vm from 'node:vm';

v8.setFlagsFromString('--expose-gc');

/** @type {() => void} */
export const gc = vm.runInNewContext('gc');
