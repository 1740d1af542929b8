/** bench/lib/long-corpus.mjs, typed for test/bench/long-corpus.test.ts. */
export declare const LONG_PARTS: ReadonlyArray<readonly [string, string]>;
export declare function longCorpus(scratch: string, options?: { parts?: ReadonlyArray<readonly [string, string]>; fallback?: string; cp?: string }): string;
