import { createReadStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import ExcelJS from "exceljs";
import { unzipSync, zipSync } from "fflate";
import { afterAll, describe, expect, it } from "vitest";
import type { DatasetImportError, Store } from "../src/index.js";
import { editor } from "./actors.js";
import { engines, errorOf, openTestStore, textStream } from "./helpers.js";

// Excel workbooks (.xlsx) in as they are (issue 25): a public table written as a workbook imports
// exactly as its CSV does; dates, numbers, formulas, rich text, booleans, blank rows, leading
// zeros and error cells each come in as a person would expect, on every engine; the sheet can be
// chosen by name; a file that is not a workbook is named as such.

const dataDir = join(
  dirname(createRequire(import.meta.url).resolve("vega-datasets")),
  "..",
  "data",
);
const folder = mkdtempSync(join(tmpdir(), "seed-xlsx-test-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

let files = 0;
/** A workbook written by exceljs (the reader the store uses reads what Excel and it write). */
async function workbookOf(fill: (workbook: ExcelJS.Workbook) => void): Promise<string> {
  const workbook = new ExcelJS.Workbook();
  fill(workbook);
  const file = join(folder, `generated-${++files}.xlsx`);
  await workbook.xlsx.writeFile(file);
  return file;
}

async function importFile(store: Store, file: string, sheet?: string) {
  const result = await store.importNewDataset(
    {
      name: `workbook ${++files}`,
      source: createReadStream(file),
      format: "xlsx",
      ...(sheet ? { sheet } : {}),
    },
    editor,
  );
  const dataset = await store.getDataset(result.datasetId);
  if (!dataset) throw new Error("not stored");
  return { result, dataset };
}

/** A UTC day as Excel keeps it: no zone, the wall-clock day. */
const day = (text: string) => new Date(`${text}T00:00:00Z`);

describe("Excel workbooks through the store", () => {
  it("seattle-weather as a workbook imports exactly as its CSV does", async () => {
    const csv = readFileSync(join(dataDir, "seattle-weather.csv"), "utf8");
    const [header = "", ...lines] = csv.trim().split("\n");
    const names = header.split(",");
    const file = await workbookOf((workbook) => {
      const sheet = workbook.addWorksheet("weather");
      sheet.addRow(names);
      for (const line of lines) {
        const cells = line.split(",");
        // As a person's workbook holds them: real dates and numbers, text as text.
        sheet.addRow(
          cells.map((cell, index) =>
            names[index] === "date" ? day(cell) : names[index] === "weather" ? cell : Number(cell),
          ),
        );
      }
    });
    const store = await openTestStore("duckdb", { seedDemo: false });
    const fromCsv = await store.importNewDataset(
      { name: "weather csv", source: textStream(csv) },
      editor,
    );
    const expected = await store.getDataset(fromCsv.datasetId);
    const { result, dataset } = await importFile(store, file);
    expect(result.imported).toBe(lines.length);
    expect(dataset.columns.map(({ name, type }) => [name, type])).toEqual(
      expected?.columns.map(({ name, type }) => [name, type]),
    );
    expect(dataset.rows).toEqual(expected?.rows);
  });

  for (const engine of engines) {
    it(`${engine}: dates, times, formulas, rich text, booleans, leading zeros, blank rows and errors`, async () => {
      const file = await workbookOf((workbook) => {
        const sheet = workbook.addWorksheet("Orders");
        sheet.addRow(["day", "at", "zip", "amount", "total", "note", "paid", "ratio"]);
        sheet.addRow([
          day("2024-02-29"),
          new Date("2024-03-31T01:30:00Z"),
          "00501",
          1234.5,
          { formula: "D2*2", result: 2469 },
          { richText: [{ text: "José, " }, { font: { bold: true }, text: "München" }] },
          true,
          0.125,
        ]);
        sheet.addRow([]);
        sheet.addRow([
          day("0001-01-01"),
          new Date("9999-12-31T23:59:59.999Z"),
          "10115",
          -0.5,
          { formula: "D4*2", result: -1 },
          "plain",
          false,
          { error: "#DIV/0!" },
        ]);
        sheet.addRow([day("1999-12-31"), null, "02134", null, null, null, null, 1]);
      });
      const store = await openTestStore(engine, { seedDemo: false });
      const { result, dataset } = await importFile(store, file);
      expect(result.imported).toBe(3);
      expect(dataset.columns.map(({ name, type }) => `${name}:${type}`)).toEqual([
        "day:date",
        "at:timestamp",
        "zip:string",
        "amount:number",
        "total:number",
        "note:string",
        "paid:boolean",
        // One error among three values: the column stays text rather than lose it.
        "ratio:string",
      ]);
      expect(dataset.rows).toEqual([
        {
          day: "2024-02-29",
          at: "2024-03-31T01:30:00.000Z",
          zip: "00501",
          amount: 1234.5,
          total: 2469,
          note: "José, München",
          paid: "true",
          ratio: "0.125",
        },
        {
          day: "0001-01-01",
          at: "9999-12-31T23:59:59.999Z",
          zip: "10115",
          amount: -0.5,
          total: -1,
          note: "plain",
          paid: "false",
          ratio: "#DIV/0!",
        },
        {
          day: "1999-12-31",
          at: null,
          zip: "02134",
          amount: null,
          total: null,
          note: null,
          paid: null,
          ratio: "1",
        },
      ]);
    });
  }

  it("reads the sheet named, names the sheets when one is missing, and refuses what is not a workbook", async () => {
    const file = await workbookOf((workbook) => {
      workbook.addWorksheet("Notes").addRow(["text"]).commit();
      const second = workbook.addWorksheet("Sales 2024");
      second.addRow(["region", "revenue"]);
      second.addRow(["North", 10]);
      second.addRow(["South", 20]);
    });
    const store = await openTestStore("sqlite", { seedDemo: false });
    // The preview lists the sheets in the workbook's order, whichever is read.
    const bytes = new Uint8Array(readFileSync(file));
    for (const sheet of [undefined, "Sales 2024", "Sales 2025"]) {
      const preview = await store.previewImport(
        { bytes, complete: true, format: "xlsx", ...(sheet ? { sheet } : {}) },
        editor,
      );
      expect(preview.sheets).toEqual(["Notes", "Sales 2024"]);
    }
    const csvPreview = await store.previewImport(
      { bytes: new TextEncoder().encode("a\n1\n"), complete: true },
      editor,
    );
    expect(csvPreview.sheets).toBeNull();
    const { dataset } = await importFile(store, file, "Sales 2024");
    expect(dataset.rows).toEqual([
      { region: "North", revenue: 10 },
      { region: "South", revenue: 20 },
    ]);
    // The first sheet by default: a header and no rows.
    const first = await errorOf(importFile(store, file));
    expect(first).toMatchObject({ code: "no_rows" });
    const missing = (await errorOf(importFile(store, file, "Sales 2025"))) as DatasetImportError;
    expect(missing.code).toBe("unknown_sheet");
    expect(missing.message).toContain('"Notes", "Sales 2024"');
    const broken = join(folder, "broken.xlsx");
    writeFileSync(broken, "region,revenue\nNorth,10\n");
    const refused = (await errorOf(importFile(store, broken))) as DatasetImportError;
    expect(refused.code).toBe("invalid_file");
    expect(refused.message).toMatch(/Excel workbook/);
    // Nothing half made: only the one good import is stored.
    expect((await store.listDatasets()).length).toBe(1);
  });

  it("reads a workbook whose sheets are stored after its strings but before its workbook part", async () => {
    // exceljs's writer appends sheets asynchronously: under load a sheet lands after the shared
    // strings and relationships but before xl/workbook.xml, which its reader could not read
    // ("Cannot read properties of undefined (reading 'sheets')", a CI failure).
    const file = await workbookOf((workbook) => {
      workbook.addWorksheet("Notes").addRow(["read me first"]);
      const sheet = workbook.addWorksheet("Orders");
      sheet.addRow(["day", "city", "amount"]);
      sheet.addRow([day("2024-02-29"), "München", 12.5]);
      sheet.addRow([day("2025-01-01"), "Lyon", -3]);
    });
    const parts = unzipSync(readFileSync(file));
    const store = await openTestStore("sqlite", { seedDemo: false });
    const orders = [
      // Both sheets after the strings, the styles and the workbook part last.
      [
        "[Content_Types].xml",
        "_rels/.rels",
        "xl/_rels/workbook.xml.rels",
        "xl/sharedStrings.xml",
        "xl/worksheets/sheet1.xml",
        "xl/worksheets/sheet2.xml",
        "xl/theme/theme1.xml",
        "xl/styles.xml",
        "docProps/app.xml",
        "docProps/core.xml",
        "xl/workbook.xml",
      ],
      // One sheet before the strings (set aside by exceljs itself), one after.
      [
        "[Content_Types].xml",
        "_rels/.rels",
        "xl/_rels/workbook.xml.rels",
        "xl/worksheets/sheet1.xml",
        "xl/sharedStrings.xml",
        "xl/worksheets/sheet2.xml",
        "xl/theme/theme1.xml",
        "xl/styles.xml",
        "docProps/app.xml",
        "docProps/core.xml",
        "xl/workbook.xml",
      ],
    ];
    for (const order of orders) {
      const reordered = join(folder, `reordered-${++files}.xlsx`);
      writeFileSync(
        reordered,
        zipSync(Object.fromEntries(order.map((name) => [name, parts[name] as Uint8Array]))),
      );
      const { dataset } = await importFile(store, reordered, "Orders");
      expect(dataset.columns.map(({ name, type }) => `${name}:${type}`)).toEqual([
        "day:date",
        "city:string",
        "amount:number",
      ]);
      expect(dataset.rows).toEqual([
        { day: "2024-02-29", city: "München", amount: 12.5 },
        { day: "2025-01-01", city: "Lyon", amount: -3 },
      ]);
      const preview = await store.previewImport(
        { bytes: new Uint8Array(readFileSync(reordered)), complete: true, format: "xlsx" },
        editor,
      );
      expect(preview.sheets).toEqual(["Notes", "Orders"]);
    }
  });

  it("a sheet with a title above its table: the preview offers the header row, which then reads it", async () => {
    const file = await workbookOf((workbook) => {
      const sheet = workbook.addWorksheet("Report");
      sheet.addRow(["Sales by region"]);
      sheet.addRow([]);
      sheet.addRow(["region", "revenue", "note"]);
      sheet.addRow(["North", 10, null]);
      sheet.addRow(["South", 20, "late"]);
    });
    const store = await openTestStore("sqlite", { seedDemo: false });
    const bytes = new Uint8Array(readFileSync(file));
    const preview = await store.previewImport({ bytes, complete: true, format: "xlsx" }, editor);
    expect(preview.suggestedHeaderRow).toBe(3);
    const chosen = await store.previewImport(
      { bytes, complete: true, format: "xlsx", headerRow: 3 },
      editor,
    );
    expect(chosen.problemCount).toBe(0);
    expect(chosen.rows.map((row) => row.line)).toEqual([4, 5]);
    const result = await store.importNewDataset(
      { name: "Report", source: createReadStream(file), format: "xlsx", headerRow: 3 },
      editor,
    );
    const dataset = await store.getDataset(result.datasetId);
    expect(dataset?.rows).toEqual([
      { region: "North", revenue: 10, note: null },
      { region: "South", revenue: 20, note: "late" },
    ]);
  });
});
