// Test helper (not part of any build entry): vega-datasets' stocks.csv, monthly closing prices of
// five symbols 2000-2010, real data for the charts' tests.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

export interface StockPrice {
  symbol: string;
  /** The first of the month, midnight UTC. */
  day: number;
  price: number;
}

/** Every row of vega-datasets' stocks.csv, in the file's order. */
export function vegaStocks(): StockPrice[] {
  const file = join(
    dirname(createRequire(import.meta.url).resolve("vega-datasets")),
    "..",
    "data",
    "stocks.csv",
  );
  return readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .slice(1)
    .map((line) => {
      const [symbol, date, price] = line.split(",") as [string, string, string];
      return { symbol, day: Date.parse(`${date} UTC`), price: Number(price) };
    });
}
