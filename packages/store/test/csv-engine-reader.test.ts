import { isNumberText, storedDayPattern } from "@seed/model";
import fc from "fast-check";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDuckDbKysely } from "../src/db/duckdb.js";
import { dayCellReads, numberCellReads } from "../src/db/duckdb-csv.js";
import { editor } from "./actors.js";
import { openTestStore } from "./helpers.js";

const seed = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31);
console.log(
  `[@seed/store csv-engine-reader] fast-check seed ${seed} (FC_SEED=${seed} repeats this run)`,
);

// The DuckDB data file reads canonical CSV files itself (read_csv, db/duckdb-csv.ts) and hands
// anything uncertain back to the store's own reader. The property: for any file, the store on the
// data file ends exactly where the store on SQLite (the reader alone) ends: the same columns and
// types, the same rows and values, or the same error at the same line. Files mix canonical cells
// with the shapes where engines and readers part: spaces and odd whitespace, underscores, inf/NaN,
// empty markers, lenient dates, impossible days, exponents, long cells, quoted line ends (\r\n) and
// line breaks at a quoted cell's edge,
// quotes, commas, BOMs, CRLF files, blank lines and ragged lines.

const tricky = [
  " 5",
  "5 ",
  "\u00a07",
  "1_000",
  "inf",
  "Infinity",
  "NaN",
  "NA",
  "n/a",
  "-",
  "\u2014",
  "null",
  "+.5",
  "5.",
  ".5",
  "1.e5",
  "00012",
  "1e400",
  "-0",
  "0x10",
  "1,5",
  "2024-1-5",
  "2024-02-30",
  "2024-02-29",
  "0000-01-01",
  "2024-03-01T10:00:00.000Z",
  "2024-03-01T10:00:00Z",
  "2024-03-01 10:00",
  "true",
  "yes",
  "1 5",
  "0b101",
  "1e",
  ".",
  "+-5",
  "1__0",
  "\u0661\u0662",
  "1d",
  "5e+",
  "1E5",
  "+024-01-05",
  "-024-01-05",
  "2024-01- 5",
  "2024-01-05x",
  "2024-03-01T25:00:00.000Z",
  "2024-03-01t10:00:00.000z",
  "2024-03-01T10:00:00.000+",
  "x\n",
  "\ny",
  "5\n",
  "\n5",
  "\r\n7",
  "\n+-5",
  "\n2024-01-05",
  "0_1",
  "x".repeat(4_000),
  "é".repeat(2_001),
  "",
];

const number = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }).map(String),
  fc.integer({ min: -1_000_000, max: 1_000_000 }).map(String),
);
const day = fc
  .date({ min: new Date("1900-01-01"), max: new Date("2100-12-31"), noInvalidDate: true })
  .map((date) => date.toISOString().slice(0, 10));
const instant = fc
  .date({ min: new Date("1900-01-01"), max: new Date("2100-12-31"), noInvalidDate: true })
  .map((date) => date.toISOString());
const text = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.string({ unit: "grapheme", maxLength: 8 }),
  fc.constantFrom("a,b", 'say "hi"', "two\r\nlines", "one\rline", "  padded  ", "\t"),
);

/** A cell of a column: mostly what the column's values look like, sometimes a tricky shape. */
function cellOf(kind: "number" | "date" | "timestamp" | "string") {
  const usual = { number, date: day, timestamp: instant, string: text }[kind];
  return fc.oneof(
    { weight: 8, arbitrary: usual },
    { weight: 1, arbitrary: fc.constantFrom(...tricky) },
  );
}

/** A field as a CSV writer writes it: quoted when it must be, sometimes when it need not be. */
function field(value: string, quote: boolean): string {
  return quote || /[",\r\n]/.test(value) || value !== value.trim()
    ? `"${value.replaceAll('"', '""')}"`
    : value;
}

const kinds = ["number", "date", "timestamp", "string"] as const;

const csvFile = fc
  .record({
    columns: fc.array(fc.constantFrom(...kinds), { minLength: 2, maxLength: 4 }),
    rows: fc.integer({ min: 1, max: 40 }),
    crlf: fc.boolean(),
    bom: fc.boolean(),
    quoteAll: fc.boolean(),
    blankLineAt: fc.option(fc.integer({ min: 0, max: 40 })),
    raggedAt: fc.option(fc.integer({ min: 0, max: 40 })),
  })
  .chain((shape) =>
    fc
      .array(fc.tuple(...shape.columns.map((kind) => cellOf(kind))), {
        minLength: shape.rows,
        maxLength: shape.rows,
      })
      .map((cells) => {
        const eol = shape.crlf ? "\r\n" : "\n";
        const lines = cells.map((row) => row.map((cell) => field(cell, shape.quoteAll)).join(","));
        if (shape.raggedAt !== null && shape.raggedAt < lines.length) {
          lines[shape.raggedAt] = `${lines[shape.raggedAt]},extra`;
        }
        if (shape.blankLineAt !== null && shape.blankLineAt < lines.length) {
          lines.splice(shape.blankLineAt, 0, "");
        }
        const header = shape.columns.map((kind, index) => `${kind} ${index}`).join(",");
        return `${shape.bom ? "\ufeff" : ""}${[header, ...lines].join(eol)}${eol}`;
      }),
  );

async function* bytesOf(csv: string): AsyncGenerator<Uint8Array> {
  yield new TextEncoder().encode(csv);
}

describe("the DuckDB data file's CSV reading matches the store's reader", () => {
  it("ends every generated file where the reader alone ends it", async () => {
    const reader = await openTestStore("sqlite", { seedDemo: false });
    const engine = await openTestStore("duckdb", { seedDemo: false });
    const readers = { engine: 0, store: 0 };
    await fc.assert(
      fc.asyncProperty(csvFile, async (csv) => {
        const [a, b] = await Promise.all([
          reader.importNewDataset({ name: "File", source: bytesOf(csv) }, editor).then(
            (result) => ({ result }),
            (error: { code?: string; line?: number }) => ({ error }),
          ),
          engine.importNewDataset({ name: "File", source: bytesOf(csv) }, editor).then(
            (result) => ({ result }),
            (error: { code?: string; line?: number }) => ({ error }),
          ),
        ]);
        if ("error" in a || "error" in b) {
          expect("error" in b ? { code: b.error.code, line: b.error.line } : b.result).toEqual(
            "error" in a ? { code: a.error.code, line: a.error.line } : a.result,
          );
          return;
        }
        readers[b.result.reader]++;
        const [left, right] = await Promise.all([
          reader.getDataset(a.result.datasetId),
          engine.getDataset(b.result.datasetId),
        ]);
        expect(right?.columns).toEqual(left?.columns);
        expect(right?.rows).toEqual(left?.rows);
        expect(right?.rowCount).toBe(left?.rowCount);
        // Row keys too (the handles of row edits): 1, 2, 3... in file order on both.
        const keysOf = async (store: typeof reader, id: string) =>
          (await store.listDatasetRows(id, { limit: 1_000 }))?.rows.map((row) => row.key);
        expect(await keysOf(engine, b.result.datasetId)).toEqual(
          await keysOf(reader, a.result.datasetId),
        );
        // The same file appended to the dataset it made: columns typed, so every cell is checked.
        const [appendedA, appendedB] = await Promise.all([
          reader.importIntoDataset(
            {
              datasetId: a.result.datasetId,
              expectedVersion: 1,
              mode: "append",
              source: bytesOf(csv),
            },
            editor,
          ),
          engine.importIntoDataset(
            {
              datasetId: b.result.datasetId,
              expectedVersion: 1,
              mode: "append",
              source: bytesOf(csv),
            },
            editor,
          ),
        ]);
        expect(appendedB.rowCount).toBe(appendedA.rowCount);
        const [againA, againB] = await Promise.all([
          reader.getDataset(a.result.datasetId),
          engine.getDataset(b.result.datasetId),
        ]);
        expect(againB?.rows).toEqual(againA?.rows);
      }),
      { seed, numRuns: 150 },
    );
    console.log(`[csv-engine-reader] files read by: ${JSON.stringify(readers)}`);
    // Both paths were exercised: clean files by the engine, uncertain ones by the reader.
    expect(readers.engine).toBeGreaterThan(10);
    expect(readers.store).toBeGreaterThan(0);
  });
});

describe("a dataset size limit on the DuckDB data file", () => {
  // The engine skips its pass over the rows where the file's own size settles the limit
  // (storedBytesBound); wherever the limit falls, it ends where the reader alone ends.
  it("ends every generated file where the reader alone ends it, at any limit", async () => {
    const reader = await openTestStore("sqlite", { seedDemo: false });
    const engine = await openTestStore("duckdb", { seedDemo: false });
    await fc.assert(
      fc.asyncProperty(csvFile, fc.double({ min: 0, max: 3, noNaN: true }), async (csv, scale) => {
        const maxDatasetBytes = Math.floor(new TextEncoder().encode(csv).length * scale);
        const outcome = (store: typeof reader) =>
          store
            .importNewDataset({ name: "File", source: bytesOf(csv), maxDatasetBytes }, editor)
            .then(
              (result) => ({ rows: result.rowCount }),
              (error: { code?: string; line?: number }) => ({ code: error.code, line: error.line }),
            );
        const [a, b] = await Promise.all([outcome(reader), outcome(engine)]);
        expect(b).toEqual(a);
      }),
      { seed, numRuns: 100 },
    );
  });
});

// The engine's number check is DuckDB's own cast with what it takes beyond the reader's grammar
// ruled out (numberCellReads). The property pins DuckDB to that: on any text without whitespace at
// its edges (the engine trims where a file may have some), the check passes exactly the texts
// isNumberText takes, each to the value the reader gives. A DuckDB that takes more fails here.
const numberPiece = fc.constantFrom(
  ..."0123456789".split(""),
  ".",
  "e",
  "E",
  "+",
  "-",
  "_",
  " ",
  "i",
  "n",
  "f",
  "a",
  "t",
  "y",
  "I",
  "N",
  "x",
  "b",
  "o",
  "d",
  "l",
  ",",
  "$",
  "%",
  "\u0663",
  "\uff11",
  "\u00a0",
);

/** One in-memory DuckDB for the cell-check properties below. */
let duck: Awaited<ReturnType<typeof openDuckDbKysely>>;
beforeAll(async () => {
  duck = await openDuckDbKysely(":memory:", { threads: 1 });
});
afterAll(() => duck.close());

describe("numberCellReads", () => {
  it("passes exactly the texts the reader reads as numbers, to the reader's value", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.oneof(
            fc.array(numberPiece, { minLength: 1, maxLength: 10 }).map((parts) => parts.join("")),
            fc.double({ noNaN: true }).map(String),
            fc.constantFrom(
              "+-5",
              "1_000",
              "inf",
              "-Infinity",
              "NaN",
              "1e400",
              "+.5",
              "5.",
              "0x10",
            ),
          ),
          { minLength: 1, maxLength: 50 },
        ),
        async (texts) => {
          const trimmed = texts.filter((text) => text === text.trim());
          // The whole batch, then as files with no underscore, and with no plus sign either:
          // the checks the spool's byte search leaves out (risks as it would find them).
          const batches = [
            trimmed,
            trimmed.filter((text) => !text.includes("_")),
            trimmed.filter((text) => !text.includes("_") && !text.includes("+")),
          ];
          for (const cells of batches) {
            if (cells.length === 0) continue;
            const risks = {
              underscores: cells.some((cell) => cell.includes("_")),
              plusSigns: cells.some((cell) => cell.includes("+")),
            };
            const t = sql.ref("t");
            const parsed = sql`try_cast(${t} as double)`;
            const result = await sql<{
              t: string;
              ok: boolean | null;
              v: number | null;
            }>`select ${t}, coalesce(${numberCellReads(t, parsed, risks)}, false) as ok, ${parsed} + 0.0 as v from (values ${sql.join(cells.map((cell) => sql`(cast(${cell} as varchar))`))}) as cells(t)`.execute(
              duck.db,
            );
            for (const row of result.rows) {
              expect({ text: row.t, risks, reads: row.ok }).toEqual({
                text: row.t,
                risks,
                reads: isNumberText(row.t),
              });
              if (row.ok) expect(Number(row.v)).toBe(Number(row.t) + 0);
            }
          }
        },
      ),
      { seed, numRuns: 300 },
    );
  });
});

// The engine's day check (dayCellReads) is DuckDB's cast with a cheap shape test instead of the
// regular expression; the property: on any text without whitespace at its edges, it passes
// exactly the texts the expression and the cast both pass (what it replaced).
const dayPiece = fc.constantFrom(
  ..."0123456789".split(""),
  "-",
  "/",
  ".",
  " ",
  "+",
  "T",
  "Z",
  "B",
  "C",
  "(",
  ")",
  ":",
  "e",
  "\u0663",
  "\u00e9",
);
const dayShape = new RegExp(`^${storedDayPattern}$`);

describe("dayCellReads", () => {
  it("passes exactly the yyyy-mm-dd texts DuckDB reads as days", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.oneof(
            fc.array(dayPiece, { minLength: 8, maxLength: 12 }).map((parts) => parts.join("")),
            // Real days with one piece changed, dropped or added.
            fc
              .tuple(
                fc.date({
                  min: new Date("0001-01-01"),
                  max: new Date("9999-12-31"),
                  noInvalidDate: true,
                }),
                fc.nat(11),
                dayPiece,
                fc.constantFrom("set", "drop", "add", "keep"),
              )
              .map(([day, at, piece, how]) => {
                const text = day.toISOString().slice(0, 10);
                if (how === "keep") return text;
                const after = how === "add" ? at : at + 1;
                return text.slice(0, at) + (how === "drop" ? "" : piece) + text.slice(after);
              }),
            fc.constantFrom(
              "2020-01-05",
              "2020-1-05x",
              "2020-1-5BC",
              "-202-01-05",
              "+202-01-05",
              "2020/01/05",
              "2020-01-5Z",
              "0000-01-01",
              "2024-02-30",
              "2024-02-29",
              "99999-01-01",
              "1-1-1(BC)x",
            ),
          ),
          { minLength: 1, maxLength: 50 },
        ),
        async (texts) => {
          const cells = texts.filter((text) => text === text.trim());
          if (cells.length === 0) return;
          const t = sql.ref("t");
          const parsed = sql`try_cast(${t} as date)`;
          const result = await sql<{
            t: string;
            ok: boolean | null;
            cast: boolean;
          }>`select ${t}, coalesce(${dayCellReads(t, parsed)}, false) as ok, ${parsed} is not null as cast from (values ${sql.join(cells.map((cell) => sql`(cast(${cell} as varchar))`))}) as cells(t)`.execute(
            duck.db,
          );
          for (const row of result.rows) {
            expect({ text: row.t, reads: row.ok }).toEqual({
              text: row.t,
              reads: dayShape.test(row.t) && row.cast,
            });
          }
        },
      ),
      { seed, numRuns: 300 },
    );
  });
});
