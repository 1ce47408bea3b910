import { createReadStream, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseCsvDataset } from "../src/repo/datasets/csv.js";
import { editor } from "./actors.js";
import { columnsOf, errorOf, openTestStore, textStream } from "./helpers.js";

// Real files in as they are (issue 25): tables of the vega-datasets package, imported through the
// streamed import on SQLite, with their types and the exact values of known rows.

// The package exports only its script (build/index.js); the data files sit beside build/.
const dataDir = join(
  dirname(createRequire(import.meta.url).resolve("vega-datasets")),
  "..",
  "data",
);
const dataFile = (name: string) => join(dataDir, name);

async function importFile(name: string) {
  const store = await openTestStore("sqlite", { seedDemo: false });
  const result = await store.importNewDataset(
    { name, source: createReadStream(dataFile(name)) },
    editor,
  );
  const dataset = await store.getDataset(result.datasetId);
  if (!dataset) throw new Error(`${name} was not stored`);
  return { result, dataset };
}

describe("vega-datasets through the store", () => {
  it("stocks.csv: 'Jan 1 2000' dates come in as days, prices as numbers", async () => {
    const { result, dataset } = await importFile("stocks.csv");
    expect(result.imported).toBe(560);
    expect(dataset.columns).toEqual(columnsOf({ symbol: "string", date: "date", price: "number" }));
    expect(dataset.rows[0]).toEqual({ symbol: "MSFT", date: "2000-01-01", price: 39.81 });
    // Line 435 is GOOG,Dec 1 2009,619.98; line 489 AAPL,Mar 1 2004,13.52 (row = line - 2).
    expect(dataset.rows[433]).toEqual({ symbol: "GOOG", date: "2009-12-01", price: 619.98 });
    expect(dataset.rows[487]).toEqual({ symbol: "AAPL", date: "2004-03-01", price: 13.52 });
    // The same through the in-memory path (forms' preview).
    const parsed = parseCsvDataset(readFileSync(dataFile("stocks.csv"), "utf8"));
    expect(parsed.ok && parsed.sourceColumns[1]).toEqual({
      header: "date",
      inferred: "date",
      format: "MMM d yyyy",
    });
    expect(parsed.ok && parsed.rows[433]).toEqual(dataset.rows[433]);
  });

  it("zipcodes.csv: postal codes keep their leading zeros as text", async () => {
    const { result, dataset } = await importFile("zipcodes.csv");
    expect(result.imported).toBe(42_049);
    expect(dataset.columns).toEqual(
      columnsOf({
        zip_code: "string",
        latitude: "number",
        longitude: "number",
        city: "string",
        state: "string",
        county: "string",
      }),
    );
    expect(dataset.rows[0]).toEqual({
      zip_code: "00501",
      latitude: 40.922326,
      longitude: -72.637078,
      city: "Holtsville",
      state: "NY",
      county: "Suffolk",
    });
    expect(dataset.rows.find((row) => row.zip_code === "12345")).toMatchObject({
      latitude: 42.833261,
      city: "Schenectady",
    });
    expect(dataset.rows.at(-1)).toMatchObject({ zip_code: "99950", city: "Ketchikan" });
  });

  it("github.csv: 'yyyy/MM/dd HH:mm:ss' times come in as UTC instants", async () => {
    const { result, dataset } = await importFile("github.csv");
    expect(result.imported).toBe(955);
    expect(dataset.columns).toEqual(columnsOf({ time: "timestamp", count: "number" }));
    expect(dataset.rows[0]).toEqual({ time: "2015-01-01T01:00:00.000Z", count: 2 });
    expect(dataset.rows.at(-1)).toEqual({ time: "2015-05-30T11:00:00.000Z", count: 2 });
  });

  it("seattle-weather.csv: ISO days (a leap day among them), numbers and text", async () => {
    const { result, dataset } = await importFile("seattle-weather.csv");
    expect(result.imported).toBe(1_461);
    expect(dataset.columns).toEqual(
      columnsOf({
        date: "date",
        precipitation: "number",
        temp_max: "number",
        temp_min: "number",
        wind: "number",
        weather: "string",
      }),
    );
    expect(dataset.rows[59]).toEqual({
      date: "2012-02-29",
      precipitation: 0.8,
      temp_max: 5,
      temp_min: 1.1,
      wind: 7,
      weather: "snow",
    });
  });

  it("seattle-weather-hourly-normals.csv: times without an offset are read as UTC", async () => {
    const { dataset } = await importFile("seattle-weather-hourly-normals.csv");
    expect(dataset.columns.map((column) => column.type)).toEqual([
      "timestamp",
      "number",
      "number",
      "number",
    ]);
    expect(dataset.rows[0]).toMatchObject({ date: "2010-01-01T01:00:00.000Z", pressure: 1016.6 });
  });
});

describe("formats from the data, problems with the format", () => {
  it("decides month-first from a day over 12 and names the format of a cell that misfits", async () => {
    const lines = ["day,amount", "1/31/2024,$1,200.50"];
    for (let index = 1; index <= 30; index++) lines.push(`2/${index % 28 || 28}/2024,$${index}`);
    lines.push("31/1/2024,$5");
    const csv = `${lines.map((line) => line.replace(/(\$[\d,.]+)$/, '"$1"')).join("\n")}\n`;
    const parsed = parseCsvDataset(csv);
    expect(parsed).toMatchObject({
      ok: false,
      code: "not_a_date",
      line: 33,
      message:
        'Line 33, column "day": expected a date like "1/31/2000" (M/d/yyyy), got "31/1/2024".',
    });
    const store = await openTestStore("sqlite", { seedDemo: false });
    const error = await errorOf(
      store.importNewDataset({ name: "Days", source: textStream(csv) }, editor),
    );
    expect(error).toMatchObject({ code: "not_a_date", line: 33, column: "day" });
    const fine = `${lines.slice(0, -1).join("\n").replaceAll("$", "")}\n`.replace(
      "1,200.50",
      '"1,200.50"',
    );
    const created = await store.importNewDataset(
      { name: "Days", source: textStream(fine) },
      editor,
    );
    const dataset = await store.getDataset(created.datasetId);
    expect(dataset?.rows[0]).toEqual({ day: "2024-01-31", amount: 1200.5 });
  });

  it("reports a file that cannot tell day-first from month-first as ambiguous, read month-first", () => {
    const parsed = parseCsvDataset("day,n\n01/02/2024,1\n03/04/2024,2\n");
    expect(parsed.ok && parsed.sourceColumns[0]).toEqual({
      header: "day",
      inferred: "date",
      format: "M/d/yyyy",
      ambiguous: { other: "d/M/yyyy" },
    });
    expect(parsed.ok && parsed.rows[0]).toEqual({ day: "2024-01-02", n: 1 });
    const dotted = parseCsvDataset("day;n\n01.02.2024;1\n13.02.2024;NA\n", { delimiter: ";" });
    expect(dotted.ok && dotted.rows).toEqual([
      { day: "2024-02-01", n: 1 },
      { day: "2024-02-13", n: null },
    ]);
  });

  it("reads two-digit years in the window 1950 to 2049, day-first decided from the data", async () => {
    const csv = "day,when,n\n31/12/99,1-Jan-49,1\n1/2/24,15-Mar-50,2\n29/2/00,29-Feb-00,3\n";
    const parsed = parseCsvDataset(csv);
    expect(
      parsed.ok &&
        parsed.sourceColumns.slice(0, 2).map(({ inferred, format }) => [inferred, format]),
    ).toEqual([
      ["date", "d/M/yy"],
      ["date", "d-MMM-yy"],
    ]);
    const store = await openTestStore("sqlite", { seedDemo: false });
    const created = await store.importNewDataset(
      { name: "Short years", source: textStream(csv) },
      editor,
    );
    const dataset = await store.getDataset(created.datasetId);
    expect(dataset?.rows).toEqual([
      { day: "1999-12-31", when: "2049-01-01", n: 1 },
      { day: "2024-02-01", when: "1950-03-15", n: 2 },
      { day: "2000-02-29", when: "2000-02-29", n: 3 },
    ]);
  });

  it("reads percents, parentheses and empty markers; yes/no as true/false", () => {
    const parsed = parseCsvDataset('share,change,ok\n12.5%,(5),yes\n-,"1,000",NO\n');
    expect(parsed).toMatchObject({
      ok: true,
      columns: columnsOf({ share: "number", change: "number", ok: "boolean" }),
      rows: [
        { share: 0.125, change: -5, ok: "true" },
        { share: null, change: 1000, ok: "false" },
      ],
    });
  });
});
