/**
 * Seeded data that looks like real data: random walks (not sine waves, whose smoothness hides what
 * a chart or a query drops) and skewed categories (a few carry most rows). The one generator of
 * the demo, the benchmarks and the tests, so a figure depends only on its seed.
 */

/** mulberry32: 32-bit integer steps, exact in JavaScript numbers; uniform in [0, 1). */
export function seededRandom(seed: number): () => number {
  let state = seed | 0;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** An index in [0, count): geometric-like, index 0 about a half of draws, the last the fewest. */
export function skewedIndex(random: () => number, count: number): number {
  // 1 - random() is in (0, 1], so the logarithm is finite.
  return Math.min(count - 1, Math.floor(-Math.log(1 - random()) * 1.5));
}

/** Each call moves by a uniform step in [-step/2, step/2), kept within [min, max]. */
export function randomWalk(
  random: () => number,
  options: { start: number; step: number; min?: number; max?: number },
): () => number {
  const { step, min = Number.NEGATIVE_INFINITY, max = Number.POSITIVE_INFINITY } = options;
  let value = options.start;
  return () => {
    value = Math.min(max, Math.max(min, value + (random() - 0.5) * step));
    return value;
  };
}

/** `length` points of one walk as a Float64Array (a metric's shape). */
export function walkSeries(length: number, seed: number, start = 1_000, step = 1): Float64Array {
  const next = randomWalk(seededRandom(seed), { start, step });
  const values = new Float64Array(length);
  for (let index = 0; index < length; index++) values[index] = next();
  return values;
}

export const salesRegions = [
  "North",
  "South",
  "East",
  "West",
  "Central",
  "Islands",
  "Overseas",
  "Online",
] as const;

export const salesCsvHeader = "day,region,revenue,orders,price";

export interface SalesOptions {
  /** The generator's seed (default 42). */
  seed?: number;
  /** How many consecutive days the rows spread over, in order (default 2,000). */
  days?: number;
  /** The first day (default 2020-01-01, UTC). */
  start?: Date;
}

/**
 * `rows` daily sales rows as CSV text in chunks of about 64 KiB, header first: consecutive dates
 * in order, skewed regions, a random-walk revenue (2 decimals), integer orders, a random-walk
 * price (3 decimals).
 */
export function* salesCsvChunks(rows: number, options: SalesOptions = {}): Generator<string> {
  const random = seededRandom(options.seed ?? 42);
  const days = options.days ?? 2_000;
  const start = (options.start ?? new Date(Date.UTC(2020, 0, 1))).getTime();
  const revenue = randomWalk(random, { start: 1_000, step: 50, min: 0 });
  const price = randomWalk(random, { start: 20, step: 1, min: 1 });
  let chunk = `${salesCsvHeader}\n`;
  for (let index = 0; index < rows; index++) {
    const day = new Date(start + Math.floor((index * days) / rows) * 86_400_000)
      .toISOString()
      .slice(0, 10);
    const region = salesRegions[skewedIndex(random, salesRegions.length)];
    const orders = Math.floor(random() * 40);
    chunk += `${day},${region},${revenue().toFixed(2)},${orders},${price().toFixed(3)}\n`;
    if (chunk.length >= 1 << 16) {
      yield chunk;
      chunk = "";
    }
  }
  if (chunk) yield chunk;
}
