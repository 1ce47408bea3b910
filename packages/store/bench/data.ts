import { writeFileSync } from "node:fs";

/**
 * A CSV of `rows` daily rows like real sales: consecutive dates, skewed regions (Zipf-like, a few
 * carry most rows), a random-walk revenue, an integer, a random-walk price; a fixed seed.
 */
export function writeSalesCsv(file: string, rows: number): void {
  // mulberry32: 32-bit integer steps, exact in JavaScript numbers.
  let seed = 42;
  const random = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const regions = ["North", "South", "East", "West", "Central", "Islands", "Overseas", "Online"];
  const parts = ["day,region,revenue,orders,price\n"];
  let revenue = 1_000;
  let price = 20;
  for (let index = 0; index < rows; index++) {
    revenue = Math.max(0, revenue + (random() - 0.5) * 50);
    price = Math.max(1, price + (random() - 0.5));
    const day = new Date(Date.UTC(1990, 0, 1) + (index % 20_000) * 86_400_000)
      .toISOString()
      .slice(0, 10);
    const region = regions[Math.min(regions.length - 1, Math.floor(-Math.log(random()) * 1.5))];
    parts.push(
      `${day},${region},${revenue.toFixed(2)},${Math.floor(random() * 40)},${price.toFixed(3)}\n`,
    );
  }
  writeFileSync(file, parts.join(""));
}
