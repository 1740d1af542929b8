import type { FindOptions, FindResult } from '../../src/index.js';
import type { FileIndex, IndexOptions } from '../../src/watch/watched-index.js';

export interface OracleDiff {
  op: number;
  query: object;
  indexed: unknown;
  fresh: unknown;
  lastOps: string[];
}

export interface OracleRun {
  seed: number;
  compared: number;
  /** Queries whose fresh answer skipped a path (chmod 000): the gaps the run exercised. */
  gaps: number;
  diffs: OracleDiff[];
  stats: ReturnType<FileIndex['stats']>;
}

export const QUERIES: readonly object[];
export function prng(seed: number): () => number;
export function runOracle(options: {
  openIndex: (options: IndexOptions) => Promise<FileIndex>;
  /** The fresh walk each answer is compared with. */
  findFilesSync: (options: FindOptions) => FindResult;
  root: string;
  outside: string;
  seed: number;
  ops: number;
  chmod: boolean;
  tree?: Omit<IndexOptions, 'root'>;
  maxDiffs?: number;
}): Promise<OracleRun>;
