import { describe, expect, it } from "vitest";
import { maxListedCsvProblems, parseCsvDataset } from "../src/repo/datasets/csv.js";
import { columnsOf } from "./helpers.js";

const plainNumbers = { decimal: ".", thousands: null, currency: null, percent: false };

describe("parseCsvDataset", () => {
  it("infers number, date and string columns and types the rows", () => {
    const csv = "month,region,revenue\n2025-01-01,North,100.5\n2025-02-01,South,-3e2\n";

    const result = parseCsvDataset(csv);

    expect(result).toEqual({
      ok: true,
      // Text is already decoded; bytes report how they were read (test/csv-encodings.test.ts).
      encoding: null,
      dialect: { delimiter: ",", decimal: "." },
      sourceColumns: [
        { header: "month", inferred: "date", format: "yyyy-MM-dd" },
        { header: "region", inferred: "string", format: null },
        { header: "revenue", inferred: "number", format: plainNumbers },
      ],
      columns: columnsOf({ month: "date", region: "string", revenue: "number" }),
      rows: [
        { month: "2025-01-01", region: "North", revenue: 100.5 },
        { month: "2025-02-01", region: "South", revenue: -300 },
      ],
      rowCount: 2,
      preview: [
        { month: "2025-01-01", region: "North", revenue: 100.5 },
        { month: "2025-02-01", region: "South", revenue: -300 },
      ],
    });
  });

  it("types a column holding any time of day as a timestamp", () => {
    const csv = "at,value\n2025-01-01,1\n2025-02-01T10:00:00Z,2\n";
    expect(parseCsvDataset(csv)).toMatchObject({
      ok: true,
      columns: columnsOf({ at: "timestamp", value: "number" }),
    });
  });

  it("handles quotes, embedded commas and newlines, CRLF, a BOM, blank lines and empty cells", () => {
    const csv =
      '\uFEFFname,notes,score\r\n"Smith, Jo","line one\r\nline two",\r\n\r\nLee,plain,7\r\n';

    const result = parseCsvDataset(csv);

    expect(result.ok && result.rows).toEqual([
      { name: "Smith, Jo", notes: "line one\nline two", score: null },
      { name: "Lee", notes: "plain", score: 7 },
    ]);
    expect(result.ok && result.columns.map((column) => column.type)).toEqual([
      "string",
      "string",
      "number",
    ]);
  });

  it("names the line and column of a stray value in a number column", () => {
    const rows = Array.from({ length: 12 }, (_, index) => `${index + 1},${index * 10}`);
    rows[5] = "6,abc";
    const csv = ["week,revenue", ...rows].join("\n");

    const result = parseCsvDataset(csv);

    const detail = {
      code: "not_a_number",
      message: 'Line 7, column "revenue": expected a number, got "abc".',
      line: 7,
      column: "revenue",
    };
    expect(result).toEqual({
      ok: false,
      dialect: { delimiter: ",", decimal: "." },
      ...detail,
      sourceColumns: [
        { header: "week", inferred: "number", format: plainNumbers },
        { header: "revenue", inferred: "number", format: plainNumbers },
      ],
      problems: [detail],
      problemCount: 1,
    });
  });

  it("names the line and column of a bad date in a date column", () => {
    const rows = Array.from(
      { length: 11 },
      (_, index) => `2025-01-${String(index + 1).padStart(2, "0")},1`,
    );
    rows[10] = "2025-02-30,1";
    const csv = ["day,visits", ...rows].join("\n");

    const result = parseCsvDataset(csv);

    expect(result.ok === false && result.message).toBe(
      'Line 12, column "day": expected a date (yyyy-mm-dd), got "2025-02-30".',
    );
  });

  it("treats a column with many text values as strings", () => {
    const result = parseCsvDataset("code\n001\nA12\nB7\n");

    expect(result.ok && result.columns).toEqual([{ name: "code", type: "string" }]);
    expect(result.ok && result.rows[0]).toEqual({ code: "001" });
  });

  it("lets the caller force a column type", () => {
    const result = parseCsvDataset("zip,n\n01234,1\n", { columnTypes: { zip: "string" } });

    expect(result.ok && result.rows).toEqual([{ zip: "01234", n: 1 }]);
  });

  it("reports ragged rows with their line", () => {
    const result = parseCsvDataset("a,b,c\n1,2,3\n4,5\n");

    expect(result).toMatchObject({
      ok: false,
      line: 3,
      message: "Line 3: expected 3 values (one per column), got 2.",
    });
  });

  it("reports empty and duplicate header names", () => {
    const empty = parseCsvDataset("a,,c\n1,2,3\n");
    const duplicate = parseCsvDataset("a,b,a\n1,2,3\n");

    expect(empty.ok === false && empty.message).toBe(
      "Line 1, column 2: the header is empty; name every column.",
    );
    expect(duplicate.ok === false && duplicate.message).toBe(
      'Line 1, column 3: "a" is already the name of column 1; header names must be unique.',
    );
  });

  it("asks for a header row when the first line looks like data", () => {
    const result = parseCsvDataset("2025-01-01,100\n2025-02-01,200\n");

    expect(result.ok === false && result.message).toBe(
      "Line 1: the first line looks like data; add a header row naming the columns.",
    );
  });

  it("rejects empty input and a header without rows", () => {
    expect(parseCsvDataset("")).toMatchObject({
      ok: false,
      message: "The file is empty; the first line must name the columns.",
    });
    expect(parseCsvDataset("\n\n")).toMatchObject({ ok: false });
    expect(parseCsvDataset("a,b\n")).toMatchObject({
      ok: false,
      message: "The file has a header but no rows of data.",
    });
  });

  it("enforces the byte, row and column limits", () => {
    const tooBig = parseCsvDataset(`a\n${"1\n".repeat(600)}`, { maxBytes: 1024 });
    const tooManyRows = parseCsvDataset(`a\n${"1\n".repeat(11)}`, { maxRows: 10 });
    const exactlyMaxRows = parseCsvDataset(`a\n${"1\n".repeat(10)}`, { maxRows: 10 });
    const tooManyColumns = parseCsvDataset("a,b,c,d\n1,2,3,4\n", { maxColumns: 3 });

    expect(tooBig.ok === false && tooBig.message).toBe(
      "The file is larger than the 1 KB limit (1,202 bytes).",
    );
    expect(tooManyRows.ok === false && tooManyRows.message).toBe(
      "The file has more than 10 rows; the limit is 10.",
    );
    expect(exactlyMaxRows.ok && exactlyMaxRows.rowCount).toBe(10);
    expect(tooManyColumns.ok === false && tooManyColumns.message).toBe(
      "Line 1: the file has 4 columns; the limit is 3.",
    );
  });

  it("applies the default limits of 2 MB, 50,000 rows and 50 columns", () => {
    const header = Array.from({ length: 51 }, (_, index) => `c${index}`).join(",");
    const wide = parseCsvDataset(`${header}\n${Array.from({ length: 51 }, () => "1").join(",")}\n`);
    const long = parseCsvDataset(`n\n${"1\n".repeat(50_001)}`);
    const big = parseCsvDataset(`s\n${"x".repeat(2 * 1024 * 1024)}\n`);

    expect(wide.ok === false && wide.message).toBe(
      "Line 1: the file has 51 columns; the limit is 50.",
    );
    expect(long.ok === false && long.message).toBe(
      "The file has more than 50,000 rows; the limit is 50,000.",
    );
    expect(big.ok === false && big.message).toBe(
      "The file is larger than the 2 MB limit (2,097,155 bytes).",
    );
  });

  it("reports an unclosed quote with its line", () => {
    const result = parseCsvDataset('a,b\n1,"open\n');

    expect(result).toMatchObject({ ok: false, line: 2 });
    expect(result.ok === false && result.message).toMatch(
      /^Line 2: a quoted value is never closed/,
    );
  });

  it("returns only the first rows in the preview", () => {
    const result = parseCsvDataset(`n\n${"1\n".repeat(30)}`, { previewRows: 5 });

    expect(result.ok && result.preview).toHaveLength(5);
    expect(result.ok && result.rows).toHaveLength(30);
  });

  it("lists every bad row at once, in file order, up to the limit, with the total", () => {
    const lines = Array.from(
      { length: 300 },
      (_, index) => `${index + 1},${index * 10},2025-01-01`,
    );
    // Three different kinds of problem on lines 3, 5 and 8 (line 1 is the header).
    lines[1] = "2,oops,2025-01-01";
    lines[3] = "4,40";
    lines[6] = "7,70,2025-13-45";
    const few = parseCsvDataset(["week,revenue,day", ...lines].join("\n"));
    expect(few.ok).toBe(false);
    if (few.ok) return;
    expect(few.problems.map((found) => [found.code, found.line, found.column])).toEqual([
      ["not_a_number", 3, "revenue"],
      ["wrong_value_count", 5, null],
      ["not_a_date", 8, "day"],
    ]);
    expect(few.problemCount).toBe(3);
    expect(few.message).toBe(few.problems[0]?.message);

    // 250 bad cells: the first 100 are listed, and the count tells the rest.
    const many = lines.map((line, index) =>
      index < 250 ? `${index + 1},bad${index},2025-01-01` : line,
    );
    const result = parseCsvDataset(["week,revenue,day", ...many].join("\n"), {
      columnTypes: { revenue: "number" },
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems).toHaveLength(maxListedCsvProblems);
    expect(result.problemCount).toBe(250);
    expect(result.problems[99]?.line).toBe(101);
  });

  it("saves columns under the names and types the user chose, and refuses clashing names", () => {
    const csv = "code,amount\n001,5\n002,7\n";
    const chosen = parseCsvDataset(csv, {
      columnNames: { code: "  Product code ", amount: "" },
      columnTypes: { code: "string" },
    });
    expect(chosen).toMatchObject({
      ok: true,
      // Codes with a leading zero are identifiers: inferred as text (they were numbers, 1 and 2).
      sourceColumns: [
        { header: "code", inferred: "string" },
        { header: "amount", inferred: "number" },
      ],
      columns: columnsOf({ "Product code": "string", amount: "number" }),
      rows: [
        { "Product code": "001", amount: 5 },
        { "Product code": "002", amount: 7 },
      ],
    });
    const clash = parseCsvDataset(csv, { columnNames: { code: "amount" } });
    expect(clash).toMatchObject({ ok: false, code: "duplicate_header", column: "code" });
    const long = parseCsvDataset(csv, { columnNames: { amount: "x".repeat(200) } });
    expect(long).toMatchObject({ ok: false, code: "header_too_long", column: "amount" });
    // A type the cells do not fit lists each cell that does not.
    const wrongType = parseCsvDataset("day,n\nMonday,1\nTuesday,2\n", {
      columnTypes: { day: "date" },
    });
    expect(wrongType).toMatchObject({ ok: false, code: "not_a_date", problemCount: 2 });
  });
});
