import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  detectCsvDialect,
  normalizeNumberText,
  parseCsvDataset,
} from "../src/repo/datasets/csv.js";

const seed = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31);
console.log(`[@seed/store csv-dialect] fast-check seed ${seed} (FC_SEED=${seed} repeats this run)`);

const semicolonCsv = [
  "date;region;product;revenue;units",
  '2026-01-05;Nord;Chaise;"4.222,5";12',
  "2026-01-06;Sud;Table;1.050,25;3",
  "2026-01-07;Est;Lampe;99,9;1",
  "2026-01-08;Ouest;Tapis;1.234;7",
].join("\n");

describe("CSV dialects", () => {
  it("reads a semicolon file with decimal commas as five typed columns", () => {
    const result = parseCsvDataset(semicolonCsv);
    if (!result.ok) throw new Error(result.message);
    expect(result.dialect).toEqual({ delimiter: ";", decimal: "," });
    expect(result.columns).toEqual([
      { name: "date", type: "date" },
      { name: "region", type: "string" },
      { name: "product", type: "string" },
      { name: "revenue", type: "number" },
      { name: "units", type: "number" },
    ]);
    expect(result.rows.map((row) => row.revenue)).toEqual([4222.5, 1050.25, 99.9, 1234]);
  });

  it.each([
    ["a,b\n1.5,2\n3,4", { delimiter: ",", decimal: "." }],
    ["a\tb\n1,5\t2\n3,25\t4", { delimiter: "\t", decimal: "," }],
    ["a|b\n1.5|2\n3.25|4", { delimiter: "|", decimal: "." }],
    ["a;b\nx;1.5\ny;2.25", { delimiter: ";", decimal: "." }],
    ["name;note\nAda;hello, world\nBob;fine", { delimiter: ";", decimal: "." }],
  ])("guesses the dialect of %j", (text, dialect) => {
    expect(detectCsvDialect(text)).toEqual(dialect);
  });

  it("lets the caller choose: the same text read as commas is one column per line", () => {
    const forced = parseCsvDataset(semicolonCsv, { delimiter: ",", decimal: "." });
    expect(forced.ok ? forced.columns.length : forced.code).not.toBe(5);
    const asDot = parseCsvDataset("a;b\nx;1,5\ny;2,5", { delimiter: ";", decimal: "." });
    if (!asDot.ok) throw new Error(asDot.message);
    expect(asDot.columns[1]?.type).toBe("string");
  });

  it("keeps text that only looks like a number in another convention (versions, codes)", () => {
    const result = parseCsvDataset("app;version\nx;1.2.3\ny;2.10.1\nz;0.9.12", {});
    if (!result.ok) throw new Error(result.message);
    expect(result.columns[1]).toEqual({ name: "version", type: "string" });
    expect(result.rows.map((row) => row.version)).toEqual(["1.2.3", "2.10.1", "0.9.12"]);
  });

  it("normalises exactly the numbers of each convention, round trip included", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -1e12, max: 1e12 }),
        fc.integer({ min: 0, max: 999 }),
        (whole, fraction) => {
          const grouped = Math.abs(whole).toLocaleString("de-DE");
          const sign = whole < 0 ? "-" : "";
          const text = `${sign}${grouped},${String(fraction).padStart(3, "0")}`;
          const expected = Number(`${sign}${Math.abs(whole)}.${String(fraction).padStart(3, "0")}`);
          expect(Number(normalizeNumberText(text, ","))).toBe(expected);
          const english = `${sign}${Math.abs(whole).toLocaleString("en-US")}.${String(fraction).padStart(3, "0")}`;
          expect(Number(normalizeNumberText(english, "."))).toBe(expected);
        },
      ),
      { seed, numRuns: 500 },
    );
    for (const bad of [
      "",
      "1,2,3",
      "12.34,5.6",
      "1.23.4",
      "abc",
      ",",
      "1.2345,6",
      "9".repeat(401),
    ]) {
      expect(normalizeNumberText(bad, ",")).toBeNull();
    }
  });
});
