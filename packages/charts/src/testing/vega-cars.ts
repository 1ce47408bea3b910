// Test helper (not part of any build entry): vega-datasets' cars.json, 406 real cars (some with
// missing values), real data for the charts' tests.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

export interface Car {
  Name: string;
  Miles_per_Gallon: number | null;
  Cylinders: number;
  Displacement: number;
  Horsepower: number | null;
  Weight_in_lbs: number;
  Acceleration: number;
  Year: string;
  Origin: string;
}

/** Every car of vega-datasets' cars.json, in the file's order. */
export function vegaCars(): Car[] {
  const file = join(
    dirname(createRequire(import.meta.url).resolve("vega-datasets")),
    "..",
    "data",
    "cars.json",
  );
  return JSON.parse(readFileSync(file, "utf8")) as Car[];
}
