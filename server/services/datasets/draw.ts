/**
 * The random part of populating a dataset, as pure functions: a seeded generator, a uniform
 * sample of k positions among n, and how the sample splits between sets by their fractions.
 * The same seed, n, k and fractions always give the same positions in the same sets, so a split
 * is reproduced by its seed alone once the candidates are listed in a fixed order (by id).
 */

const TWO_32 = 2 ** 32;
const TWO_53 = 2 ** 53;

/** splitmix32: spreads a 32-bit value over the four words sfc32 starts from. */
function splitmix32(state: number): () => number {
  let a = state | 0;
  return () => {
    a = (a + 0x9e3779b9) | 0;
    let t = a ^ (a >>> 16);
    t = Math.imul(t, 0x21f0aaad);
    t ^= t >>> 15;
    t = Math.imul(t, 0x735a2d97);
    return (t ^ (t >>> 15)) >>> 0;
  };
}

/**
 * sfc32, seeded from any safe integer (both of its 32-bit halves count): a fast generator with
 * a long period, good enough for drawing samples. Answers uniform 32-bit unsigned integers.
 */
export function seededGenerator(seed: number): () => number {
  const high = Math.floor(seed / TWO_32);
  const low = (seed - high * TWO_32) >>> 0;
  const mix = splitmix32(low);
  let a = mix();
  let b = mix() ^ (high >>> 0);
  let c = mix() ^ Math.imul(high | 0, 0x85ebca6b);
  let d = mix();
  const next = () => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return t >>> 0;
  };
  for (let i = 0; i < 12; i += 1) next();
  return next;
}

/** An integer in [0, n), from 53 random bits (the bias is below n / 2^53). */
export function below(next: () => number, n: number): number {
  const bits = (next() >>> 5) * 67108864 + (next() >>> 6);
  return Math.floor((bits / TWO_53) * n);
}

/**
 * k distinct positions among 0…n-1, in the order drawn (a partial Fisher–Yates shuffle of the
 * positions). Memory follows k, not n, when k is small: the shuffled positions are then kept
 * sparsely; both ways draw exactly the same sample.
 */
export function drawPositions(n: number, k: number, next: () => number): Uint32Array {
  const size = Math.max(0, Math.min(n, k));
  const drawn = new Uint32Array(size);
  const dense = size * 8 >= n;
  const pool = dense ? Uint32Array.from({ length: n }, (_, i) => i) : null;
  const moved = new Map<number, number>();
  const at = (i: number) => (pool ? pool[i]! : (moved.get(i) ?? i));
  for (let i = 0; i < size; i += 1) {
    const j = i + below(next, n - i);
    const picked = at(j);
    const displaced = at(i);
    if (pool) pool[j] = displaced;
    else moved.set(j, displaced);
    drawn[i] = picked;
  }
  return drawn;
}

export interface SetShare {
  name: string;
  fraction: number;
}

/**
 * How many of `count` elements each set gets: floor(count × fraction), the rest to the last set
 * by name among those with a fraction above 0. `shares` must be sorted by name.
 */
export function setQuotas(count: number, shares: readonly SetShare[]): number[] {
  // The epsilon keeps 0.7 × 10 = 6.999… from losing an element to rounding.
  const quotas = shares.map((share) => Math.floor(count * share.fraction + 1e-9));
  let left = count;
  for (let i = 0; i < quotas.length; i += 1) {
    quotas[i] = Math.min(quotas[i]!, left);
    left -= quotas[i]!;
  }
  let last = -1;
  shares.forEach((share, i) => {
    if (share.fraction > 0) last = i;
  });
  if (last >= 0) quotas[last]! += left;
  return quotas;
}

/**
 * The drawn positions with their set, sorted by position: each entry is position × setCount +
 * set index, so a numeric sort orders by position and the set reads back as the remainder.
 * The first quota of the draw order goes to the first set, the next to the second, and so on:
 * the draw order being random, so is the split.
 */
export function planSplit(
  n: number,
  count: number,
  seed: number,
  shares: readonly SetShare[],
): { entries: Float64Array; setCount: number } {
  const positions = drawPositions(n, count, seededGenerator(seed));
  const quotas = setQuotas(positions.length, shares);
  const setCount = Math.max(1, shares.length);
  const entries = new Float64Array(positions.length);
  let set = 0;
  let filled = 0;
  for (let i = 0; i < positions.length; i += 1) {
    while (set < quotas.length - 1 && filled >= quotas[set]!) {
      set += 1;
      filled = 0;
    }
    entries[i] = positions[i]! * setCount + set;
    filled += 1;
  }
  entries.sort();
  return { entries, setCount };
}
