import { createReadStream, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import {
  DateDay,
  Float32,
  Float64,
  Int64,
  Table,
  TimestampMillisecond,
  tableToIPC,
  Utf8,
  vectorFromArray,
} from "apache-arrow";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import type { DatasetImportError, Store } from "../src/index.js";
import { editor } from "./actors.js";
import { engines, errorOf, openTestStore, type TestEngine } from "./helpers.js";

// Parquet and Arrow files in as they are (issue 25): the package's own flights files, generated
// files with every column type and the extremes of each, and broken files, on every engine. The
// file's declared types stand (text with leading zeros stays text; an integer past 2^53 becomes
// text rather than lose digits), and values come back exactly.

const dataDir = join(
  dirname(createRequire(import.meta.url).resolve("vega-datasets")),
  "..",
  "data",
);
const folder = mkdtempSync(join(tmpdir(), "seed-columnar-test-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const seed = Number(process.env.FC_SEED ?? Date.now() % 2_147_483_647);
console.log(`columnar import property seed: ${seed} (set FC_SEED to replay)`);

let files = 0;
/** A Parquet file written by DuckDB from a SELECT. */
async function parquetOf(select: string): Promise<string> {
  const file = join(folder, `generated-${++files}.parquet`);
  const instance = await DuckDBInstance.create(":memory:");
  const connection = await instance.connect();
  try {
    await connection.run("SET TimeZone = 'UTC'");
    await connection.run(`COPY (${select}) TO '${file}' (FORMAT parquet)`);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
  return file;
}

async function importFile(store: Store, file: string, format: "parquet" | "arrow") {
  const result = await store.importNewDataset(
    { name: `${format} ${++files}`, source: createReadStream(file), format },
    editor,
  );
  const dataset = await store.getDataset(result.datasetId);
  if (!dataset) throw new Error("not stored");
  return { result, dataset };
}

const everyType = `
  select * from (values
    (1, 9007199254740993::bigint, 1.5::double, 0.1::float, 12.345::decimal(18,3), date '2024-02-29',
     timestamp '2024-03-31 01:30:00', timestamptz '2024-10-27 00:30:00+00', '00501', 'José, München',
     true, [1, 2], {'a': 1}),
    (2, -9007199254740993::bigint, -0.0::double, 3.4028235e38::float, -0.001::decimal(18,3),
     date '0001-01-01', timestamp '1970-01-01 00:00:00', timestamptz '9999-12-31 23:59:59+00', '',
     '日本語 ✓', false, [], {'a': null}),
    (3, null, null, null, null, date '9999-12-31', null, null, null, null, null, null, null)
  ) as t(id, big, dbl, flt, dec, day, ts, tstz, zip, name, flag, list, obj)`;

describe.each(engines)("Parquet and Arrow imports on %s", (engine: TestEngine) => {
  it("reads every column type with its declared type and exact values", async () => {
    const store = await openTestStore(engine, { seedDemo: false });
    const { dataset } = await importFile(store, await parquetOf(everyType), "parquet");
    expect(dataset.columns.map(({ name, type }) => `${name}:${type}`)).toEqual([
      "id:number",
      // Past 2^53 a number would lose digits: the column is text.
      "big:string",
      "dbl:number",
      "flt:number",
      "dec:number",
      "day:date",
      "ts:timestamp",
      "tstz:timestamp",
      // Declared text stays text: the leading zeros are kept.
      "zip:string",
      "name:string",
      "flag:string",
      "list:string",
      "obj:string",
    ]);
    expect(dataset.rows).toEqual([
      {
        id: 1,
        big: "9007199254740993",
        dbl: 1.5,
        flt: 0.1,
        dec: 12.345,
        day: "2024-02-29",
        ts: "2024-03-31T01:30:00.000Z",
        tstz: "2024-10-27T00:30:00.000Z",
        zip: "00501",
        name: "José, München",
        flag: "true",
        list: "[1,2]",
        obj: '{"a":1}',
      },
      {
        id: 2,
        big: "-9007199254740993",
        // Negative zero reads as zero, as "-0" in a CSV file does.
        dbl: 0,
        flt: 3.4028235e38,
        dec: -0.001,
        day: "0001-01-01",
        ts: "1970-01-01T00:00:00.000Z",
        tstz: "9999-12-31T23:59:59.000Z",
        zip: null,
        name: "日本語 ✓",
        flag: "false",
        list: "[]",
        obj: '{"a":null}',
      },
      {
        id: 3,
        big: null,
        dbl: null,
        flt: null,
        dec: null,
        day: "9999-12-31",
        ts: null,
        tstz: null,
        zip: null,
        name: null,
        flag: null,
        list: null,
        obj: null,
      },
    ]);
  });

  it("reads an Arrow file's types and values, float32 as the number written", async () => {
    const store = await openTestStore(engine, { seedDemo: false });
    const table = new Table({
      day: vectorFromArray([new Date(Date.UTC(2024, 1, 29)), null], new DateDay()),
      at: vectorFromArray(
        [new Date(Date.UTC(2024, 1, 29, 10, 30)), null],
        new TimestampMillisecond(),
      ),
      count: vectorFromArray([2n ** 40n, -5n], new Int64()),
      id: vectorFromArray([2n ** 60n, 1n], new Int64()),
      ratio: vectorFromArray([0.1, 3], new Float32()),
      exact: vectorFromArray([0.1, 1e-300], new Float64()),
      zip: vectorFromArray(["00501", null], new Utf8()),
    });
    const file = join(folder, `generated-${++files}.arrow`);
    (await import("node:fs")).writeFileSync(file, tableToIPC(table, "file"));
    const { dataset } = await importFile(store, file, "arrow");
    expect(dataset.columns.map(({ name, type }) => `${name}:${type}`)).toEqual([
      "day:date",
      "at:timestamp",
      "count:number",
      "id:string",
      "ratio:number",
      "exact:number",
      "zip:string",
    ]);
    expect(dataset.rows).toEqual([
      {
        day: "2024-02-29",
        at: "2024-02-29T10:30:00.000Z",
        count: 2 ** 40,
        id: "1152921504606846976",
        ratio: 0.1,
        exact: 0.1,
        zip: "00501",
      },
      { day: null, at: null, count: -5, id: "1", ratio: 3, exact: 1e-300, zip: null },
    ]);
  });

  it("imports the package's flights-200k.arrow whole", async () => {
    const store = await openTestStore(engine, { seedDemo: false });
    const { result, dataset } = await importFile(
      store,
      join(dataDir, "flights-200k.arrow"),
      "arrow",
    );
    expect(result.imported).toBe(200_000);
    expect(dataset.columns.map(({ name, type }) => `${name}:${type}`)).toEqual([
      "delay:number",
      "distance:number",
      "time:number",
    ]);
    expect(dataset.rows.slice(0, 2)).toEqual([
      { delay: 0, distance: 1452, time: 0 },
      { delay: 171, distance: 2227, time: 0 },
    ]);
  });

  it("names a broken or truncated file, and keeps nothing of it", async () => {
    const store = await openTestStore(engine, { seedDemo: false });
    const before = (await store.listDatasets()).length;
    const good = readFileSync(await parquetOf("select range as n from range(1000)"));
    const cut = join(folder, `cut-${++files}.parquet`);
    (await import("node:fs")).writeFileSync(cut, good.subarray(0, good.length - 100));
    for (const [file, format] of [
      [cut, "parquet"],
      [join(dataDir, "cars.json"), "parquet"],
      [join(dataDir, "cars.json"), "arrow"],
    ] as const) {
      const error = (await errorOf(importFile(store, file, format))) as DatasetImportError;
      expect(error.code, `${file} as ${format}`).toBe("invalid_file");
      expect(error.message).toMatch(format === "parquet" ? /not a Parquet file/ : /not an Arrow/);
    }
    expect((await store.listDatasets()).length).toBe(before);
  });

  // Exponent notation: DuckDB reads a long plain literal as a DECIMAL first, which can round it.
  it("keeps every generated table's values exactly (property)", { timeout: 120_000 }, async () => {
    const store = await openTestStore(engine, { seedDemo: false });
    const row = fc.record({
      n: fc.oneof(
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.constant(null),
        fc.integer(),
      ),
      s: fc.option(fc.string({ unit: "grapheme", maxLength: 20 }).filter((text) => text !== "")),
      d: fc.option(
        fc
          .date({
            min: new Date("0001-01-01T00:00:00Z"),
            max: new Date("9999-12-31T00:00:00Z"),
            noInvalidDate: true,
          })
          .map((date) => date.toISOString().slice(0, 10)),
      ),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(row, { minLength: 1, maxLength: 30 }), async (rows) => {
        const values = rows
          .map(
            (r) =>
              `(${r.n === null ? "null::double" : `${Object.is(r.n, -0) ? "-0.0" : r.n.toExponential()}::double`}, ${
                r.s === null ? "null::varchar" : `'${r.s.replaceAll("'", "''")}'`
              }, ${r.d === null ? "null::date" : `date '${r.d}'`})`,
          )
          .join(", ");
        const file = await parquetOf(`select * from (values ${values}) as t(n, s, d)`);
        const { dataset } = await importFile(store, file, "parquet");
        const zeroed = (n: number | null) => (n !== null && Object.is(n, -0) ? 0 : n);
        expect(dataset.rows).toEqual(rows.map((r) => ({ n: zeroed(r.n), s: r.s, d: r.d })));
      }),
      { seed, numRuns: 20 },
    );
  });
});

describe("the package's flights-3m.parquet", () => {
  // About 24 s on the 2-core machine alone; CI runs other suites beside it.
  it("imports its 3,000,000 rows into the DuckDB data file, typed", {
    timeout: 240_000,
  }, async () => {
    const store = await openTestStore("duckdb", { seedDemo: false });
    const { result, dataset } = await store
      .importNewDataset(
        {
          name: "flights 3m",
          source: createReadStream(join(dataDir, "flights-3m.parquet")),
          format: "parquet",
        },
        editor,
      )
      .then(async (imported) => ({
        result: imported,
        dataset: await store.getDataset(imported.datasetId, 1),
      }));
    expect(result.imported).toBe(3_000_000);
    expect(dataset?.columns.map(({ name, type }) => `${name}:${type}`)).toEqual([
      "date:timestamp",
      "delay:number",
      "distance:number",
      "origin:string",
      "destination:string",
    ]);
    expect(dataset?.rows[0]).toEqual({
      date: "2001-01-01T00:01:00.000Z",
      delay: 33,
      distance: 2176,
      origin: "LAS",
      destination: "PHL",
    });
  });

  it("is refused where a dataset holds at most 1,000,000 rows, by name and with nothing kept", {
    timeout: 120_000,
  }, async () => {
    const store = await openTestStore("sqlite", { seedDemo: false });
    const error = (await errorOf(
      store.importNewDataset(
        {
          name: "flights 3m",
          source: createReadStream(join(dataDir, "flights-3m.parquet")),
          format: "parquet",
        },
        editor,
      ),
    )) as DatasetImportError;
    expect(error.code).toBe("too_many_rows");
    expect(await store.listDatasets()).toEqual([]);
  });
});
