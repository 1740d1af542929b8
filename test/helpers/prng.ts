/**
 * mulberry32: a 32-bit seeded PRNG, uniform in [0, 1). The same seed gives the same stream on every
 * machine, so a generated case that fails comes back from its seed. (test/watch/oracle.mjs keeps a
 * copy of its own: it is copied alone into the unprivileged sandbox; bench/ keeps one too, as it
 * imports nothing from test/.)
 */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
