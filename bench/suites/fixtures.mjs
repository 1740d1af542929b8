#!/usr/bin/env node
/**
 * Builds the benchmark trees that are missing (bench/lib/fixtures.mjs) and prints their counts.
 *
 *   node bench/suites/fixtures.mjs [TREE ...]     every tree (small, synthetic, realistic) by default
 */
import { describeTree, ensureFixtures, TREE_NAMES } from '../lib/fixtures.mjs';

const names = process.argv.length > 2 ? process.argv.slice(2) : TREE_NAMES;
for (const name of names) if (!TREE_NAMES.includes(name)) throw new Error(`unknown tree ${name}; the trees are ${TREE_NAMES.join(', ')}`);
const manifests = ensureFixtures(names);
for (const name of names) console.log(describeTree(manifests[name]));
