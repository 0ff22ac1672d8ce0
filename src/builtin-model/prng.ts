/** A deterministic pseudo-random source of floats in [0, 1). */
export type Prng = () => number;

/**
 * Creates a seeded PRNG (xorshift32 state, output scrambled by a multiply).
 * Same seed, same sequence, on every JS engine.
 */
export function createPrng(seed: number): Prng {
  let state = seed >>> 0 || 0x9e3779b9;
  return () => {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    const mixed = Math.imul(state, 0x2c1b3c6d) >>> 0;
    return mixed / 0x100000000;
  };
}

/** Fills a new Float32Array of `count` values uniform in [lo, hi). */
export function uniformArray(rand: Prng, count: number, lo: number, hi: number): Float32Array {
  const out = new Float32Array(count);
  for (let i = 0; i < count; i++) out[i] = lo + (hi - lo) * rand();
  return out;
}
