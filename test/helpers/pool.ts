/**
 * Runs `fn` on each item, at most `width` at a time (the oracles that start a process per item:
 * most of each run is the process starting, which overlaps). `lane` (0 to width - 1) names the
 * worker, for callers that keep one resource per lane.
 */
export async function pool<T>(items: readonly T[], width: number, fn: (item: T, lane: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, items.length) }, async (_, lane) => {
      while (next < items.length) await fn(items[next++]!, lane);
    }),
  );
}
