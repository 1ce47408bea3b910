import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import {
  type ColumnType,
  columnTypes,
  datePatterns,
  formatChoicesFor,
  type ImportColumnChoices,
  importColumnChoicesSchema,
} from "@seed/model";
import fc from "fast-check";
import iconv from "iconv-lite";
import { describe, expect, it } from "vitest";
import { DatasetImportError, type Store } from "../src/index.js";
import { editor } from "./actors.js";
import { byteChunks, errorOf, openTestStore } from "./helpers.js";

// The import's preview (issue 25): the same readers, detection and checks as the import, so what
// the preview shows is what the import stores, on every choice of type and format.

const dataDir = join(
  dirname(createRequire(import.meta.url).resolve("vega-datasets")),
  "..",
  "data",
);
const vegaBytes = (name: string) => new Uint8Array(readFileSync(join(dataDir, name)));
const encode = (text: string) => new TextEncoder().encode(text);

const open = (): Promise<Store> => openTestStore("sqlite", { seedDemo: false });

describe("the preview of a file", () => {
  it("stocks.csv: its dates are read as 'MMM d yyyy', its prices as numbers", async () => {
    const store = await open();
    const preview = await store.previewImport(
      { bytes: vegaBytes("stocks.csv"), complete: true },
      editor,
    );
    expect(preview.stopped).toBeNull();
    expect(preview.encoding?.name).toBe("UTF-8");
    expect(preview.dialect).toEqual({ delimiter: ",", decimal: "." });
    expect(preview.columns.map(({ header, type, format }) => ({ header, type, format }))).toEqual([
      { header: "symbol", type: "string", format: null },
      { header: "date", type: "date", format: "MMM d yyyy" },
      { header: "price", type: "number", format: expect.objectContaining({ decimal: "." }) },
    ]);
    expect(preview.rows[0]?.values).toEqual({ symbol: "MSFT", date: "2000-01-01", price: 39.81 });
    expect(preview.sampleRows).toBe(560);
    expect(preview.complete).toBe(true);
    expect(preview.problemCount).toBe(0);
  });

  it("zipcodes.csv, from its first megabyte: postal codes stay text, the head is not the whole", async () => {
    const store = await open();
    const bytes = vegaBytes("zipcodes.csv");
    const head = bytes.subarray(0, 1024 * 1024);
    const preview = await store.previewImport({ bytes: head, complete: false }, editor);
    expect(preview.stopped).toBeNull();
    const zip = preview.columns.find((column) => column.header === "zip_code");
    expect(zip?.type).toBe("string");
    expect(preview.rows[0]?.values.zip_code).toBe("00501");
    expect(preview.complete).toBe(false);
    expect(preview.sampleRows).toBe(1_000);
  });

  it("a Latin-1 file: its encoding is shown; read as UTF-8 instead, the line that fails is named", async () => {
    const store = await open();
    const bytes = iconv.encode("name,city\nJosé,München\nAnna,Köln\n", "latin1");
    const detected = await store.previewImport({ bytes, complete: true }, editor);
    expect(["ISO-8859-1", "windows-1252"]).toContain(detected.encoding?.name);
    expect(detected.rows.map((row) => row.values)).toEqual([
      { name: "José", city: "München" },
      { name: "Anna", city: "Köln" },
    ]);
    const forced = await store.previewImport({ bytes, complete: true, encoding: "UTF-8" }, editor);
    expect(forced.stopped?.code).toBe("invalid_encoding");
    expect(forced.stopped?.line).toBe(2);
    expect(forced.encoding).toEqual({ name: "UTF-8", source: "chosen", confidence: null });
  });

  it("a UTF-16 head cut mid-file ends on a whole line", async () => {
    const store = await open();
    const lines = ["city,n", ...Array.from({ length: 400 }, (_, i) => `Zürich ${i},${i}`)];
    const bytes = iconv.encode(`${lines.join("\n")}\n`, "utf16le", { addBOM: true });
    for (const cut of [1001, 1002, 1003, 1004]) {
      const preview = await store.previewImport(
        { bytes: bytes.subarray(0, cut), complete: false },
        editor,
      );
      expect(preview.stopped).toBeNull();
      expect(preview.encoding?.name).toBe("UTF-16LE");
      expect(preview.problemCount).toBe(0);
      expect(preview.rows.at(-1)?.values.city).toMatch(/^Zürich \d+$/);
    }
  });

  it("day-first or month-first: told as undecided, and read as chosen", async () => {
    const store = await open();
    const csv = "day,n\n01/02/2024,1\n03/04/2024,2\n";
    const preview = await store.previewImport({ bytes: encode(csv), complete: true }, editor);
    const day = preview.columns[0];
    expect(day?.format).toBe("M/d/yyyy");
    expect(day?.detected.ambiguous).toEqual({ other: "d/M/yyyy" });
    const chosen = await store.previewImport(
      { bytes: encode(csv), complete: true, columns: { day: { format: "d/M/yyyy" } } },
      editor,
    );
    expect(chosen.rows.map((row) => row.values.day)).toEqual(["2024-02-01", "2024-04-03"]);
    const imported = await store.importNewDataset(
      { name: "Days", source: byteChunks(encode(csv)), columns: { day: { format: "d/M/yyyy" } } },
      editor,
    );
    const dataset = await store.getDataset(imported.datasetId);
    expect(dataset?.rows.map((row) => row.day)).toEqual(["2024-02-01", "2024-04-03"]);
  });

  it("a choice naming no column of the file is refused by name, and nothing is saved", async () => {
    const store = await open();
    const before = (await store.listDatasets()).length;
    const error = await errorOf(
      store.importNewDataset(
        {
          name: "Nope",
          source: byteChunks(encode("a,b\n1,2\n")),
          columns: { c: { type: "string" } },
        },
        editor,
      ),
    );
    expect(error).toBeInstanceOf(DatasetImportError);
    expect((error as DatasetImportError).code).toBe("unknown_column");
    expect((error as DatasetImportError).column).toBe("c");
    expect((await store.listDatasets()).length).toBe(before);
  });

  it("a column named like an object's own property keeps its choice", async () => {
    const store = await open();
    const csv = encode("__proto__,constructor\n00501,1\n02134,2\n");
    // As the routes read it: JSON text through the shared schema.
    const columns = importColumnChoicesSchema.parse(
      JSON.parse('{"__proto__":{"type":"number"},"constructor":{"type":"string"}}'),
    );
    expect(Object.keys(columns)).toEqual(["__proto__", "constructor"]);
    const preview = await store.previewImport({ bytes: csv, complete: true, columns }, editor);
    expect(preview.columns.map((column) => column.type)).toEqual(["number", "string"]);
    const imported = await store.importNewDataset(
      { name: "Own names", source: byteChunks(csv), columns },
      editor,
    );
    const dataset = await store.getDataset(imported.datasetId);
    expect(dataset?.columns.map((column) => [column.name, column.type])).toEqual([
      ["__proto__", "number"],
      ["constructor", "string"],
    ]);
    // Its values are read back as its own, not lost to the object's prototype.
    expect(dataset?.rows.map((row) => Object.hasOwn(row, "__proto__"))).toEqual([true, true]);
    expect(
      dataset?.rows.map((row) => Object.getOwnPropertyDescriptor(row, "__proto__")?.value),
    ).toEqual([501, 2134]);
    expect(preview.rows.map((row) => Object.hasOwn(row.values, "__proto__"))).toEqual([true, true]);
  });

  it("a new dataset saves its columns under the names chosen; a clash or a blank is refused", async () => {
    const store = await open();
    const csv = encode("Umsatz (€),Region\n1,Nord\n2,Süd\n");
    const imported = await store.importNewDataset(
      {
        name: "Renamed",
        source: byteChunks(csv),
        columns: { "Umsatz (€)": { name: "  Sales  " }, Region: { name: "__proto__" } },
      },
      editor,
    );
    const dataset = await store.getDataset(imported.datasetId);
    expect(dataset?.columns.map((column) => column.name)).toEqual(["Sales", "__proto__"]);
    const own = (row: object) => Object.getOwnPropertyDescriptor(row, "__proto__")?.value;
    expect(dataset?.rows.map((row) => [row.Sales, own(row)])).toEqual([
      [1, "Nord"],
      [2, "Süd"],
    ]);
    const before = (await store.listDatasets()).length;
    for (const [columns, code, column] of [
      [{ Region: { name: "Umsatz (€)" } }, "duplicate_header", "Region"],
      [{ "Umsatz (€)": { name: "Region" } }, "duplicate_header", "Umsatz (€)"],
      [{ Region: { name: " " } }, "empty_header", "Region"],
      [{ Region: { name: "r".repeat(65) } }, "header_too_long", "Region"],
    ] as const) {
      const preview = await store
        .previewImport({ bytes: csv, complete: true, columns }, editor)
        .then((answer) => answer.stopped?.message)
        .catch((error: DatasetImportError) => error.lineProblems[0]?.message);
      const refused = (await errorOf(
        store.importNewDataset({ name: "Clash", source: byteChunks(csv), columns }, editor),
      )) as DatasetImportError;
      expect(refused.code).toBe(code);
      expect(refused.column).toBe(column);
      expect(refused.lineProblems[0]?.message).toBe(preview);
    }
    expect((await store.listDatasets()).length).toBe(before);
  });

  it("an import into a dataset keeps its types: a changed type is refused, a format is taken", async () => {
    const store = await open();
    const created = await store.importNewDataset(
      { name: "Fixed", source: byteChunks(encode("when,n\n2024-01-31,1\n")) },
      editor,
    );
    const file = encode("when,n\n31.01.2024,2\n");
    const preview = await store.previewImport(
      { bytes: file, complete: true, datasetId: created.datasetId },
      editor,
    );
    expect(preview.columns.map((column) => [column.type, column.fixed])).toEqual([
      ["date", true],
      ["number", true],
    ]);
    expect(preview.rows[0]?.values).toEqual({ when: "2024-01-31", n: 2 });
    const appendWith = (columns: ImportColumnChoices) =>
      store.importIntoDataset(
        {
          datasetId: created.datasetId,
          expectedVersion: 1,
          mode: "append",
          source: byteChunks(file),
          columns,
        },
        editor,
      );
    const refused = await errorOf(appendWith({ n: { type: "string" } }));
    expect((refused as DatasetImportError).code).toBe("unknown_column");
    // Nor does an import rename a dataset's column: that is the dataset page's to do.
    const renamed = await errorOf(appendWith({ n: { name: "count" } }));
    expect((renamed as DatasetImportError).code).toBe("unknown_column");
    expect((renamed as DatasetImportError).message).toMatch(/keeps its column names/);
    const done = await appendWith({ when: { format: "dd.MM.yyyy" } });
    expect(done.rowCount).toBe(2);
  });
});

describe("a file with a header and only blank lines", () => {
  it("stops the preview where the import refuses it, with the same words, for any blank lines", async () => {
    const store = await open();
    const seed = Number(process.env.SEED_PROPERTY_SEED ?? Date.now() % 2 ** 31);
    console.log(`blank rows property seed: ${seed}`);
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom("\n", "\r\n", "\r\n\r\n"), { maxLength: 6 }),
        fc.constantFrom("name", "name;amount", "a,b,c"),
        async (breaks, header) => {
          const bytes = new TextEncoder().encode(`${header}${breaks.join("")}`);
          const preview = await store.previewImport({ bytes, complete: true }, editor);
          const refused = await errorOf(
            store.importNewDataset({ name: "Blank", source: byteChunks(bytes, 3) }, editor),
          );
          expect(refused).toBeInstanceOf(DatasetImportError);
          expect(preview.stopped?.message).toBe(
            (refused as DatasetImportError).lineProblems[0]?.message,
          );
          expect(preview.stopped?.message).toBe(
            "Line 2: the file has a header but no rows of data.",
          );
        },
      ),
      { seed, numRuns: 40 },
    );
    expect(await store.listDatasets()).toEqual([]);
  });
});

describe("a table that starts below notes", () => {
  const file = encode(
    "Sales report,,\nExported 2024-03-01,,\n\nregion,month,revenue\nNorth,2024-01,10\nSouth,2024-01,7\n",
  );

  it("is offered its header row, and read from it when chosen; lines keep their numbers", async () => {
    const store = await open();
    const asIs = await store.previewImport({ bytes: file, complete: true }, editor);
    expect(asIs.suggestedHeaderRow).toBe(4);
    const chosen = await store.previewImport({ bytes: file, complete: true, headerRow: 4 }, editor);
    expect(chosen.suggestedHeaderRow).toBeNull();
    expect(chosen.problemCount).toBe(0);
    expect(chosen.columns.map((column) => [column.header, column.type])).toEqual([
      ["region", "string"],
      ["month", "string"],
      ["revenue", "number"],
    ]);
    expect(chosen.rows.map((row) => row.line)).toEqual([5, 6]);
    const imported = await store.importNewDataset(
      { name: "Below notes", source: byteChunks(file), headerRow: 4 },
      editor,
    );
    const dataset = await store.getDataset(imported.datasetId);
    expect(dataset?.rows).toEqual([
      { region: "North", month: "2024-01", revenue: 10 },
      { region: "South", month: "2024-01", revenue: 7 },
    ]);
  });

  it("a header row past the end of the file is named, and nothing is saved", async () => {
    const store = await open();
    const preview = await store.previewImport(
      { bytes: file, complete: true, headerRow: 40 },
      editor,
    );
    expect(preview.stopped?.message).toBe(
      "Line 40: the file ends before line 40, the header row chosen.",
    );
    const error = await errorOf(
      store.importNewDataset({ name: "Nothing", source: byteChunks(file), headerRow: 40 }, editor),
    );
    expect((error as DatasetImportError).code).toBe("empty");
  });

  it("a file whose first line is its header is offered nothing", async () => {
    const store = await open();
    const preview = await store.previewImport(
      { bytes: vegaBytes("seattle-weather.csv"), complete: true },
      editor,
    );
    expect(preview.suggestedHeaderRow).toBeNull();
  });
});

// ---- The property: the preview is what the import stores ------------------------------------

type Kind = "integer" | "grouped" | "decimalComma" | "date" | "code" | "word" | "mixed";

const months = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

/** A day written in a pattern's tokens (the readers are checked against date-fns elsewhere). */
function formatDate(day: Date, pattern: string): string {
  const two = (n: number) => String(n).padStart(2, "0");
  const tokens: Record<string, string> = {
    yyyy: String(day.getFullYear()),
    yy: two(day.getFullYear() % 100),
    MMMM: months[day.getMonth()] as string,
    MMM: (months[day.getMonth()] as string).slice(0, 3),
    MM: two(day.getMonth() + 1),
    M: String(day.getMonth() + 1),
    dd: two(day.getDate()),
    d: String(day.getDate()),
  };
  return pattern.replace(/yyyy|yy|MMMM|MMM|MM|M|dd|d/g, (token) => tokens[token] as string);
}

const words = ["North", "South", "East", "West", "Zoë", "Ærø", "n/a", "", "NA", "1e3"];

function cellOf(kind: Kind, n: number, pattern: string, comma: boolean): string {
  switch (kind) {
    case "integer":
      return String(n - 500);
    case "grouped":
      return n.toLocaleString("en-US", { minimumFractionDigits: 1, maximumFractionDigits: 1 });
    case "decimalComma":
      return comma ? `${n},${n % 10}` : `${n}.${n % 10}`;
    case "date":
      return formatDate(new Date(1990 + (n % 60), n % 12, 1 + (n % 28)), pattern);
    case "code":
      return String(n).padStart(5, "0");
    case "word":
      return words[n % words.length] as string;
    case "mixed":
      return n % 7 === 0 ? "oops" : String(n);
  }
}

const kinds: Kind[] = ["integer", "grouped", "decimalComma", "date", "code", "word", "mixed"];

describe("the preview against the import, property", () => {
  it("shows the types and first rows the import stores, and exactly its problems", async () => {
    const store = await open();
    const seed = Number(process.env.SEED_PROPERTY_SEED ?? Date.now() % 2 ** 31);
    console.log(`import preview property seed: ${seed}`);
    const column = fc.record({
      kind: fc.constantFrom(...kinds),
      pattern: fc.constantFrom(...datePatterns),
      choose: fc.option(
        fc.record({
          type: fc.constantFrom<ColumnType>(...columnTypes),
          formatAt: fc.nat(40),
          withFormat: fc.boolean(),
        }),
        { freq: 2 },
      ),
      // A new name: plain, another column's header (a clash), padded, too long or blank.
      rename: fc.option(
        fc.constantFrom("Sales", "c0", "c1", "  Zoë  ", "__proto__", "x".repeat(65), "   "),
        { freq: 3 },
      ),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(column, { minLength: 1, maxLength: 5 }),
        fc.array(fc.nat(100_000), { minLength: 1, maxLength: 40 }),
        fc.boolean(),
        async (columns, numbers, comma) => {
          const header = columns.map((_, index) => `c${index}`);
          const delimiter = comma ? ";" : ",";
          const lines = numbers.map((n, row) =>
            columns
              .map((spec, index) => cellOf(spec.kind, n + row * 31 + index, spec.pattern, comma))
              .map((cell) => (cell.includes(delimiter) ? `"${cell}"` : cell))
              .join(delimiter),
          );
          const bytes = encode(`${header.join(delimiter)}\n${lines.join("\n")}\n`);
          const choices: ImportColumnChoices = {};
          for (const [index, spec] of columns.entries()) {
            const named = spec.rename === null ? {} : { name: spec.rename };
            if (!spec.choose) {
              if (spec.rename !== null) choices[`c${index}`] = named;
              continue;
            }
            const formats = formatChoicesFor(spec.choose.type);
            const format = formats[spec.choose.formatAt % Math.max(1, formats.length)];
            choices[`c${index}`] = {
              ...named,
              type: spec.choose.type,
              ...(spec.choose.withFormat && format !== undefined ? { format } : {}),
            };
          }
          const badName = columns.some(
            (spec) =>
              spec.rename !== null && (spec.rename.trim() === "" || spec.rename.length > 64),
          );
          const dialect = { delimiter, decimal: comma ? "," : "." } as const;
          const previewed = await store
            .previewImport({ bytes, complete: true, ...dialect, columns: choices }, editor)
            .catch((error: unknown) => error);
          const imported = await store
            .importNewDataset(
              { name: "Property", source: byteChunks(bytes, 5), dialect, columns: choices },
              editor,
            )
            .catch((error: unknown) => error);
          if (badName) {
            // A blank or too long name is refused by both, naming the column; nothing is saved.
            expect(previewed).toBeInstanceOf(DatasetImportError);
            expect(imported).toBeInstanceOf(DatasetImportError);
            expect((imported as DatasetImportError).lineProblems[0]?.message).toBe(
              (previewed as DatasetImportError).lineProblems[0]?.message,
            );
            return;
          }
          if (previewed instanceof Error) throw previewed;
          const preview = previewed as Awaited<ReturnType<Store["previewImport"]>>;
          const names = preview.columns.map((c) => c.name);
          if (new Set(names).size < names.length) {
            // Two columns saved under one name: the preview stops on it, the import refuses it.
            expect(preview.stopped?.message).toMatch(/column names must be unique/);
            expect(imported).toBeInstanceOf(DatasetImportError);
            expect((imported as DatasetImportError).lineProblems[0]?.message).toBe(
              preview.stopped?.message,
            );
            return;
          }
          if (preview.stopped) {
            // Only a file whose every line after the header is blank stops a whole file here
            // (an empty value of a one-column file is a blank line): the import refuses it alike.
            expect(preview.stopped.code).toBe("no_rows");
            expect(lines.every((line) => line === "")).toBe(true);
            expect(imported).toBeInstanceOf(DatasetImportError);
            expect((imported as DatasetImportError).lineProblems[0]?.message).toBe(
              preview.stopped.message,
            );
            return;
          }
          for (const [index, spec] of columns.entries()) {
            expect(names[index]).toBe(spec.rename === null ? `c${index}` : spec.rename.trim());
          }
          if (preview.problemCount > 0) {
            expect(imported).toBeInstanceOf(DatasetImportError);
            const refused = imported as DatasetImportError;
            expect(refused.problemCount).toBe(preview.problemCount);
            expect(refused.lineProblems.map((p) => p.message)).toEqual(
              preview.problems.map((p) => p.message),
            );
            return;
          }
          if (imported instanceof Error) throw imported;
          const dataset = await store.getDataset((imported as { datasetId: string }).datasetId);
          expect(dataset?.columns.map((c) => [c.name, c.type])).toEqual(
            preview.columns.map((c) => [c.name, c.type]),
          );
          // The preview's rows by header, the dataset's by the names they are saved under.
          expect(dataset?.rows.slice(0, preview.rows.length)).toEqual(
            preview.rows.map((row) =>
              Object.fromEntries(preview.columns.map((c) => [c.name, row.values[c.header]])),
            ),
          );
        },
      ),
      { seed, numRuns: 120 },
    );
  }, 120_000);
});
