#!/usr/bin/env node
/**
 * The process bench/suites/run.mjs times one tool in, for one round: that tool alone on one
 * workload, untimed runs (at least `WARMUP` of them and `WARMUP_MS` of them), then timed runs (at
 * least `ITERATIONS` and `TIME_MS`) with a full GC before each (tinybench). One line of JSON on
 * stdout: the samples in ms.
 *
 * The warm-up is by time as well as by count: a short walk (a rooted glob, 20-40 ms) in a fresh
 * process took 60-90 ms on its first runs and settled only after five to ten (while V8 compiles
 * its code), so two warm-up runs timed compilation, unevenly across tools.
 *
 * A process per tool and round, because in one process the tools share V8's inline caches and
 * heap: find-file's three forms run through the same walk with different match sinks, and after
 * the other two its call sites are polymorphic. That cost up to 3x on the short rooted walks here,
 * and is not one a program that uses one of them pays. Every tool, peers included, is timed alike.
 *
 *   node --expose-gc bench/targets/time-child.mjs ROOT TREE WORKLOAD TOOL ITERATIONS WARMUP WARMUP_MS TIME_MS
 */
import { Bench } from 'tinybench';
import { resolveWorkload, toolNamed } from '../lib/tools.mjs';

const [root, tree, workload, toolName, iterations, warmup, warmupMs, timeMs] = process.argv.slice(2);
const tool = toolNamed(toolName);
const w = resolveWorkload(workload, tree);
const bench = new Bench({
  iterations: Number(iterations),
  time: Number(timeMs),
  warmup: true,
  warmupIterations: Number(warmup),
  warmupTime: Number(warmupMs),
  retainSamples: true,
  throws: true,
});
bench.add(tool.name, () => tool.run(root, w), { beforeEach: () => globalThis.gc() });
await bench.run();
console.log(JSON.stringify({ samples: [...bench.tasks[0].result.latency.samples] }));
