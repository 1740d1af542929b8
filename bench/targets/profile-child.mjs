#!/usr/bin/env node
/**
 * The process bench/lib/profile.mjs runs under `node --cpu-prof`: one tool on one workload, one
 * warm-up walk then RUNS more, nothing else, so that the profile holds that work only.
 *
 *   node --cpu-prof bench/targets/profile-child.mjs ROOT TREE WORKLOAD TOOL RUNS
 */
import { resolveWorkload, toolNamed } from '../lib/tools.mjs';

async function runChild(root, tree, workload, toolName, runs) {
  const tool = toolNamed(toolName);
  const w = resolveWorkload(workload, tree);
  for (let i = 0; i <= runs; i++) await tool.run(root, w);
}

const [root, tree, workload, tool, runs] = process.argv.slice(2);
await runChild(root, tree, workload, tool, Number(runs));
