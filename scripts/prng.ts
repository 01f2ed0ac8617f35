/**
 * A small seeded pseudo-random generator (mulberry32), in [0, 1): the same seed gives the same
 * sequence, so generated data (the bench's requests, the seeder's posts, a fuzz run, a property
 * test's cases) can be made again exactly. For tools and tests only; nothing secret comes from it.
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
