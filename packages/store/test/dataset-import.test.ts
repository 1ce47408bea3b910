import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { DatasetImportError, datasetTableName } from "../src/index.js";
import { internalsOf } from "../src/raw-handles.js";
import { editor } from "./actors.js";
import { columnsOf, engines, errorOf, openTestStore, salesInput } from "./helpers.js";

/** The text as a stream of small chunks, cutting through lines and quotes. */
async function* chunks(text: string, size = 7): AsyncGenerator<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  for (let at = 0; at < bytes.length; at += size) yield bytes.slice(at, at + size);
}

function salesCsv(count: number, badAt?: number): string {
  const lines = ["month,region,revenue,orders"];
  for (let index = 0; index < count; index++) {
    const day = new Date(Date.UTC(2020, 0, 1) + index * 86_400_000).toISOString().slice(0, 10);
    lines.push(`${day},R${index % 7},${index === badAt ? "12x" : index * 1.5},${index}`);
  }
  return `${lines.join("\n")}\n`;
}

for (const dialect of engines) {
  describe(`streamed CSV import on ${dialect}`, () => {
    it("keeps every kind of text, boolean and timestamp exactly, fed one byte at a time", async () => {
      const store = await openTestStore(dialect, { seedDemo: false });
      const texts = [
        'He said "hi", then left',
        "two\nlines",
        "comma, inside",
        "naïve café ✓ 日本 🎉",
        '""',
        "\\N",
        "back\\slash",
      ];
      const csv = [
        "label,flag,at",
        ...texts.map(
          (text, index) =>
            `"${text.replaceAll('"', '""')}",${index % 2 === 0},2024-03-0${index + 1}T10:00:00.000Z`,
        ),
        ",,",
      ].join("\r\n");
      const result = await store.importNewDataset(
        { name: "Texts", source: chunks(csv, 1) },
        editor,
      );
      expect(result.imported).toBe(texts.length + 1);
      const dataset = await store.getDataset(result.datasetId);
      expect(dataset?.rows).toEqual([
        ...texts.map((text, index) => ({
          label: text,
          flag: index % 2 === 0 ? "true" : "false",
          at: `2024-03-0${index + 1}T10:00:00.000Z`,
        })),
        { label: null, flag: null, at: null },
      ]);
    });

    it("counts a dataset's size the same in SQL and in the import, and refuses growing past the cap", async () => {
      const store = await openTestStore(dialect, { seedDemo: false });
      // 4 rows: text bytes (multi-byte included) + 8 per filled number/date cell.
      const csv = "day,name,amount\n2024-01-01,é,1\n2024-01-02,ab,\n,日本,3\n2024-01-04,,4\n";
      const expectedBytes = 8 + 2 + 8 + (8 + 2) + (3 * 2 + 8) + (8 + 8);
      const created = await store.importNewDataset({ name: "Sized", source: chunks(csv) }, editor);
      const { storedBytes } = await import("../src/db/rows-table.js");
      expect(await internalsOf(store).rowsOf(created.datasetId, storedBytes)).toBe(expectedBytes);
      // Appending one more "2024-01-05,x,5" row (8 + 1 + 8 bytes) fits exactly at the cap...
      const append = (maxDatasetBytes: number, version: number) =>
        store.importIntoDataset(
          {
            datasetId: created.datasetId,
            expectedVersion: version,
            mode: "append",
            source: chunks("day,name,amount\n2024-01-05,x,5\n"),
            maxDatasetBytes,
          },
          editor,
        );
      await append(expectedBytes + 17, 1);
      // ...and one byte under it is refused with the line, leaving the rows as they were.
      const error = await errorOf(append(expectedBytes + 17 + 16, 2));
      expect(error).toMatchObject({ code: "dataset_too_large", line: 2 });
      expect(String((error as DatasetImportError).reason)).toMatch(/at most .* of data/);
      expect((await store.getDataset(created.datasetId))?.rowCount).toBe(5);
    });

    it("creates a dataset with typed columns and reports progress", async () => {
      const store = await openTestStore(dialect, { seedDemo: false });
      const progress: number[] = [];
      const result = await store.importNewDataset(
        {
          name: "Daily",
          source: chunks(salesCsv(12_000), 4_096),
          onProgress: ({ rows }) => progress.push(rows),
        },
        editor,
      );
      expect(result).toMatchObject({ imported: 12_000, rowCount: 12_000, version: 1 });
      expect(progress.at(-1)).toBe(12_000);
      expect(progress.length).toBeGreaterThan(1);
      const dataset = await store.getDataset(result.datasetId, 2);
      expect(dataset).toMatchObject({
        rowCount: 12_000,
        columns: columnsOf({
          month: "date",
          region: "string",
          revenue: "number",
          orders: "number",
        }),
        rows: [
          { month: "2020-01-01", region: "R0", revenue: 0, orders: 0 },
          { month: "2020-01-02", region: "R1", revenue: 1.5, orders: 1 },
        ],
      });
      // Indexes on date columns are built after the bulk load, in the same transaction (the
      // DuckDB data file has none: its row groups keep min/max zone maps instead).
      const index = `${datasetTableName(result.datasetId)}_c_month`;
      const found =
        dialect === "duckdb"
          ? null
          : dialect === "sqlite"
            ? await sql`select name from sqlite_master where type = 'index' and name = ${index}`.execute(
                internalsOf(store).db,
              )
            : await sql`select indexname from pg_indexes where indexname = ${index}`.execute(
                internalsOf(store).db,
              );
      expect(found?.rows ?? [index]).toHaveLength(1);
      const audit = await store.listAuditEvents({ limit: 5 });
      expect(audit.events[0]).toMatchObject({
        action: "dataset.create",
        entityId: result.datasetId,
      });
    });

    it("keeps every row of a dataset over the in-memory limit through a rename", async () => {
      const store = await openTestStore(dialect, { seedDemo: false });
      const result = await store.importNewDataset(
        { name: "Big", source: chunks(salesCsv(60_000), 65_536) },
        editor,
      );
      const renamed = await store.updateDataset(result.datasetId, 1, { name: "Bigger" }, editor);
      expect(renamed.rowCount).toBe(60_000);
      expect(
        (await store.listDatasetRows(result.datasetId, { limit: 1, offset: 59_999 }))?.rows[0]?.row,
      ).toMatchObject({ orders: 59_999 });
      const retype = await errorOf(
        store.updateDataset(
          result.datasetId,
          2,
          { columns: [{ name: "month", type: "string" }] },
          editor,
        ),
      );
      expect(retype).toMatchObject({ name: "ValidationError" });
      expect((await store.getDataset(result.datasetId, 0))?.rowCount).toBe(60_000);
    });

    it("imports a semicolon file with decimal commas when told its dialect", async () => {
      const store = await openTestStore(dialect, { seedDemo: false });
      const csv = 'day;region;revenue\n2026-01-05;Nord;"4.222,5"\n2026-01-06;Sud;1.050,25\n';
      const dialectOfFile = { delimiter: ";", decimal: "," } as const;
      const created = await store.importNewDataset(
        { name: "Ventes", source: chunks(csv, 5), dialect: dialectOfFile },
        editor,
      );
      const dataset = await store.getDataset(created.datasetId);
      expect(dataset?.columns.map((column) => [column.name, column.type])).toEqual([
        ["day", "date"],
        ["region", "string"],
        ["revenue", "number"],
      ]);
      expect(dataset?.rows.map((row) => row.revenue)).toEqual([4222.5, 1050.25]);
      await store.importIntoDataset(
        {
          datasetId: created.datasetId,
          expectedVersion: created.version,
          mode: "append",
          source: chunks("region;revenue;day\nEst;99,9;2026-01-07\n"),
          dialect: dialectOfFile,
        },
        editor,
      );
      expect((await store.getDataset(created.datasetId))?.rows.at(-1)?.revenue).toBe(99.9);
      // Read with the default dialect, the same file is one column and refused as a mismatch.
      const wrong = await errorOf(
        store.importIntoDataset(
          {
            datasetId: created.datasetId,
            expectedVersion: created.version + 1,
            mode: "append",
            source: chunks("region;revenue;day\nEst;99,9;2026-01-07\n"),
          },
          editor,
        ),
      );
      expect(wrong).toMatchObject({ name: "DatasetImportError" });
    });

    it("replaces or appends rows, matching header names in any order", async () => {
      const store = await openTestStore(dialect, { seedDemo: false });
      const created = await store.createDataset(salesInput(), editor);
      const csv = 'orders,revenue,region,month\n1,2.5,"West, far",2026-01-01\n';
      const appended = await store.importIntoDataset(
        { datasetId: created.id, expectedVersion: 1, mode: "append", source: chunks(csv, 3) },
        editor,
      );
      expect(appended).toMatchObject({ imported: 1, rowCount: 4, version: 2 });
      expect((await store.getDataset(created.id))?.rows.at(-1)).toEqual({
        month: "2026-01-01",
        region: "West, far",
        revenue: 2.5,
        orders: 1,
      });
      const replaced = await store.importIntoDataset(
        { datasetId: created.id, expectedVersion: 2, mode: "replace", source: chunks(csv) },
        editor,
      );
      expect(replaced).toMatchObject({ imported: 1, rowCount: 1, version: 3 });
      expect((await store.getDataset(created.id))?.rows).toHaveLength(1);
      // Row keys start again at 1 after a replace, on both engines.
      const page = await store.listDatasetRows(created.id, { limit: 10 });
      expect(page?.rows.map((row) => row.key)).toEqual([1]);
    });

    it("stops at the first bad line half-way and leaves the old rows exactly", async () => {
      const store = await openTestStore(dialect, { seedDemo: false });
      const created = await store.createDataset(salesInput(), editor);
      const before = await store.getDataset(created.id);
      const auditBefore = (await store.listAuditEvents({ limit: 50 })).events.length;
      for (const mode of ["replace", "append"] as const) {
        const error = await errorOf(
          store.importIntoDataset(
            {
              datasetId: created.id,
              expectedVersion: 1,
              mode,
              // Batches of thousands of rows are already inserted when line 11,002 fails.
              source: chunks(salesCsv(12_000, 11_000), 65_536),
            },
            editor,
          ),
        );
        expect(error).toBeInstanceOf(DatasetImportError);
        expect(error).toMatchObject({ code: "not_a_number", line: 11_002, column: "revenue" });
        expect((error as DatasetImportError).fieldErrors.csv).toEqual([
          'Line 11002, column "revenue": expected a number, got "12x".',
        ]);
        expect(await store.getDataset(created.id)).toEqual(before);
      }
      expect((await store.listAuditEvents({ limit: 50 })).events).toHaveLength(auditBefore);
    });

    it("lists every bad line of a file at once (up to 100, with the total) and writes nothing", async () => {
      const store = await openTestStore(dialect, { seedDemo: false });
      const created = await store.createDataset(salesInput(), editor);
      const before = await store.getDataset(created.id);
      const lines = salesCsv(3_000).trimEnd().split("\n");
      // Line numbers are 1-based with the header on line 1.
      lines[2_000] = "2025-01-01,R1,oops,3";
      lines[2_500] = "2025-01-01,R1";
      lines[2_700] = "2025-13-45,R1,1,1";
      const few = await errorOf(
        store.importIntoDataset(
          {
            datasetId: created.id,
            expectedVersion: 1,
            mode: "append",
            source: chunks(`${lines.join("\n")}\n`, 65_536),
          },
          editor,
        ),
      );
      expect(few).toBeInstanceOf(DatasetImportError);
      const found = few as DatasetImportError;
      expect(found).toMatchObject({ code: "not_a_number", line: 2_001, problemCount: 3 });
      expect(found.lineProblems.map((problem) => [problem.code, problem.line])).toEqual([
        ["not_a_number", 2_001],
        ["wrong_value_count", 2_501],
        ["not_a_date", 2_701],
      ]);
      // 300 bad lines: 100 listed, all counted.
      const many = salesCsv(1_000).trimEnd().split("\n");
      for (let index = 1; index <= 300; index++) many[index] = "2025-01-01,R1,bad,1";
      const lots = (await errorOf(
        store.importIntoDataset(
          {
            datasetId: created.id,
            expectedVersion: 1,
            mode: "replace",
            source: chunks(`${many.join("\n")}\n`, 65_536),
          },
          editor,
        ),
      )) as DatasetImportError;
      expect(lots.lineProblems).toHaveLength(100);
      expect(lots.problemCount).toBe(300);
      expect(await store.getDataset(created.id)).toEqual(before);
    });

    it("names lines correctly across quoted newlines and blank lines", async () => {
      const store = await openTestStore(dialect, { seedDemo: false });
      const created = await store.createDataset(
        {
          name: "Notes",
          columns: columnsOf({ name: "string", notes: "string", score: "number" }),
          rows: [],
        },
        editor,
      );
      const csv = 'name,notes,score\n"a","one\ntwo",1\n\nb,plain,2\nc,"x\r\ny",oops\n';
      const error = await errorOf(
        store.importIntoDataset(
          { datasetId: created.id, expectedVersion: 1, mode: "append", source: chunks(csv, 1) },
          editor,
        ),
      );
      expect(error).toMatchObject({ code: "not_a_number", line: 6, column: "score" });
      expect((await store.getDataset(created.id))?.rows).toEqual([]);
    });

    it("refuses headers that do not match, oversize files, too many rows and ragged lines", async () => {
      const store = await openTestStore(dialect, { seedDemo: false });
      const created = await store.createDataset(salesInput(), editor);
      const into = (csv: string, limits: { maxBytes?: number; maxRows?: number } = {}) =>
        errorOf(
          store.importIntoDataset(
            {
              datasetId: created.id,
              expectedVersion: 1,
              mode: "append",
              source: chunks(csv),
              ...limits,
            },
            editor,
          ),
        );
      expect(await into("month,region,revenue\n2025-01-01,a,1\n")).toMatchObject({
        code: "header_mismatch",
        line: 1,
      });
      expect(await into(salesCsv(100), { maxBytes: 1_000 })).toMatchObject({
        code: "file_too_large",
      });
      expect(await into(salesCsv(10), { maxRows: 8 })).toMatchObject({
        code: "too_many_rows",
        line: 7,
      });
      expect(await into("month,region,revenue,orders\n2025-01-01,a,1\n")).toMatchObject({
        code: "wrong_value_count",
        line: 2,
      });
      expect(
        await into(`month,region,revenue,orders\n2025-01-01,a,${"9".repeat(40_000)}a,1\n`),
      ).toMatchObject({
        code: "cell_too_long",
        line: 2,
        column: "revenue",
      });
      expect(await into("month,region,revenue,orders\n")).toMatchObject({ code: "no_rows" });
      const cut = salesCsv(50);
      expect(
        await errorOf(
          store.importIntoDataset(
            {
              datasetId: created.id,
              expectedVersion: 1,
              mode: "replace",
              source: chunks(cut.slice(0, 400)),
              expectedBytes: cut.length,
            },
            editor,
          ),
        ),
      ).toMatchObject({ code: "incomplete_upload" });
      expect((await store.getDataset(created.id))?.rowCount).toBe(3);
    });
  });
}
