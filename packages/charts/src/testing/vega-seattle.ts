// Test helper (not part of any build entry): vega-datasets' seattle-weather.csv, a row a day
// 2012-2015, real data for the charts' tests.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

export interface SeattleDay {
  /** The day, as the file writes it (yyyy-mm-dd). */
  date: string;
  /** Rain, mm. */
  precipitation: number;
  /** The day's highest temperature, °C. */
  tempMax: number;
  weather: string;
}

/** Every day of vega-datasets' seattle-weather.csv, in the file's order. */
export function seattleDays(): SeattleDay[] {
  const file = join(
    dirname(createRequire(import.meta.url).resolve("vega-datasets")),
    "..",
    "data",
    "seattle-weather.csv",
  );
  return readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .slice(1)
    .map((line) => {
      const [date, precipitation, tempMax, , , weather] = line.split(",") as string[];
      return {
        date: date as string,
        precipitation: Number(precipitation),
        tempMax: Number(tempMax),
        weather: weather ?? "",
      };
    });
}
