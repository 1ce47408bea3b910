import { createReadStream, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { DatasetImportError, ImportFormat } from "../src/index.js";
import { jsonArrayHead } from "../src/repo/datasets/json-records.js";
import { editor } from "./actors.js";
import { engines, errorOf, openTestStore, textStream } from "./helpers.js";

// JSON and NDJSON files in as they are (issue 25): the tables of the vega-datasets package, and
// generated files with nested objects, arrays, empty and absent fields, and every kind of mistake
// named by its line, on every engine.

const dataDir = join(
  dirname(createRequire(import.meta.url).resolve("vega-datasets")),
  "..",
  "data",
);

const seed = Number(process.env.FC_SEED ?? Date.now() % 2_147_483_647);
console.log(`json import property seed: ${seed} (set FC_SEED to replay)`);

async function importText(
  store: Awaited<ReturnType<typeof openTestStore>>,
  text: string,
  format: ImportFormat,
) {
  const result = await store.importNewDataset(
    { name: `json ${format}`, source: textStream(text), format },
    editor,
  );
  const dataset = await store.getDataset(result.datasetId);
  if (!dataset) throw new Error("not stored");
  return { result, dataset };
}

/** The files of the package that hold a table: an array of objects. */
function vegaTables(): string[] {
  return readdirSync(dataDir)
    .filter((name) => name.endsWith(".json"))
    .filter((name) => {
      const value: unknown = JSON.parse(readFileSync(join(dataDir, name), "utf8"));
      return (
        Array.isArray(value) &&
        value.length > 0 &&
        value.every((row) => typeof row === "object" && row !== null && !Array.isArray(row))
      );
    });
}

describe("vega-datasets JSON tables through the store", () => {
  it("imports every table of the package with the types a person would choose", async () => {
    const store = await openTestStore("sqlite", { seedDemo: false });
    const tables = vegaTables();
    expect(tables.length).toBeGreaterThan(25);
    const outcomes: Record<string, string> = {};
    for (const name of tables) {
      const rows = (JSON.parse(readFileSync(join(dataDir, name), "utf8")) as unknown[]).length;
      try {
        const result = await store.importNewDataset(
          { name, source: createReadStream(join(dataDir, name)), format: "json" },
          editor,
        );
        outcomes[name] = result.imported === rows ? "ok" : `${result.imported} of ${rows}`;
      } catch (error) {
        outcomes[name] = (error as Error).message;
      }
    }
    // budget.json is 72 columns wide, past the 50-column limit, and says so.
    expect(outcomes["budget.json"]).toContain("the file has 72 columns; the limit is 50.");
    const others = Object.entries(outcomes).filter(([name]) => name !== "budget.json");
    expect(others.filter(([, outcome]) => outcome !== "ok")).toEqual([]);
  });

  it("cars, movies, weekly weather: numbers, days, empty values and nested fields", async () => {
    const store = await openTestStore("sqlite", { seedDemo: false });
    const read = async (name: string) => {
      const result = await store.importNewDataset(
        { name, source: createReadStream(join(dataDir, name)), format: "json" },
        editor,
      );
      return store.getDataset(result.datasetId);
    };
    const cars = await read("cars.json");
    expect(cars?.columns.map(({ name, type }) => `${name}:${type}`)).toEqual([
      "Name:string",
      "Miles_per_Gallon:number",
      "Cylinders:number",
      "Displacement:number",
      "Horsepower:number",
      "Weight_in_lbs:number",
      "Acceleration:number",
      "Year:date",
      "Origin:string",
    ]);
    expect(cars?.rows[0]).toEqual({
      Name: "chevrolet chevelle malibu",
      Miles_per_Gallon: 18,
      Cylinders: 8,
      Displacement: 307,
      Horsepower: 130,
      Weight_in_lbs: 3504,
      Acceleration: 12,
      Year: "1970-01-01",
      Origin: "USA",
    });
    const movies = await read("movies.json");
    expect(movies?.rowCount).toBe(3201);
    // "Jun 12 1998" is a day; null is empty.
    expect(movies?.rows[0]).toMatchObject({
      Title: "The Land Girls",
      "Release Date": "1998-06-12",
      "US DVD Sales": null,
      "IMDB Rating": 6.1,
    });
    const weekly = await read("weekly-weather.json");
    expect(weekly?.columns.map((column) => column.name)).toContain("forecast.high.low");
    expect(weekly?.rows[0]).toMatchObject({ day: "M", "record.high": 62, "normal.low": 38 });
  });
});

describe("JSON and NDJSON on every engine", () => {
  for (const engine of engines) {
    it(`${engine}: nested objects become dotted names, arrays stay JSON, absent fields are empty`, async () => {
      const store = await openTestStore(engine, { seedDemo: false });
      const lines = [
        JSON.stringify({
          id: "a1",
          place: { city: "Köln", zip: "01067" },
          tags: ["x", "y"],
          n: 1.5,
        }),
        "",
        JSON.stringify({ id: "b2", place: { city: null }, n: null }),
        JSON.stringify({ id: "c3", tags: [], n: -2, place: { zip: "10115" } }),
      ];
      const { result, dataset } = await importText(
        store,
        `\uFEFF${lines.join("\r\n")}\n`,
        "ndjson",
      );
      expect(result.imported).toBe(3);
      expect(dataset.columns.map(({ name, type }) => `${name}:${type}`)).toEqual([
        "id:string",
        "place.city:string",
        "place.zip:string",
        "tags:string",
        "n:number",
      ]);
      expect(dataset.rows).toEqual([
        { id: "a1", "place.city": "Köln", "place.zip": "01067", tags: '["x","y"]', n: 1.5 },
        { id: "b2", "place.city": null, "place.zip": null, tags: null, n: null },
        { id: "c3", "place.city": null, "place.zip": "10115", tags: "[]", n: -2 },
      ]);
      // The same rows as one JSON array.
      const array = await importText(
        store,
        JSON.stringify(
          lines.filter((line) => line !== "").map((line) => JSON.parse(line)),
          null,
          2,
        ),
        "json",
      );
      expect(array.dataset.rows).toEqual(dataset.rows);
    });
  }

  it("names the line of each mistake, and a failed replace keeps the old rows whole", async () => {
    const store = await openTestStore("sqlite", { seedDemo: false });
    const refusal = async (text: string, format: ImportFormat) =>
      (await errorOf(importText(store, text, format))) as DatasetImportError;

    const broken = await refusal('{"a": 1}\n{"a": 2}\n{"a": 3,}\n', "ndjson");
    expect(broken.code).toBe("invalid_json");
    expect(broken.line).toBe(3);
    expect(broken.fieldErrors.csv).toEqual([
      "Line 3: not valid JSON at character 9 (Expected double-quoted property name).",
    ]);
    const notObject = await refusal('{"a": 1}\n[1, 2]\n', "ndjson");
    expect(notObject.fieldErrors.csv).toEqual([
      'Line 2: each line must hold one object, such as {"a": 1}.',
    ]);
    const inArray = await refusal('[\n  {"a": 1},\n  {"a": 2},\n  {"a": }\n]', "json");
    expect(inArray.line).toBe(4);
    expect(inArray.fieldErrors.csv).toEqual(["Line 4: not valid JSON (Unexpected token '}')."]);
    const notArray = await refusal('{"rows": [{"a": 1}]}', "json");
    expect(notArray.fieldErrors.csv?.[0]).toContain("the file must hold an array of objects");
    const element = await refusal('[{"a": 1},\n 7]', "json");
    expect(element.fieldErrors.csv).toEqual([
      "Line 2: row 2 is not an object; each row must be one.",
    ]);
    expect((await refusal("[]", "json")).fieldErrors.csv?.[0]).toContain("no rows to import");
    // Nesting deeper than a reader's stack is refused with a reason, on either form.
    const deep = `{"a": ${"[".repeat(200_000)}${"]".repeat(200_000)}}`;
    expect((await refusal(`{"a": 1}\n${deep}`, "ndjson")).fieldErrors.csv).toEqual([
      "Line 2: values are nested too deeply to read.",
    ]);
    expect((await refusal(`[${deep}]`, "json")).fieldErrors.csv).toEqual([
      "Line 1: values are nested too deeply to read.",
    ]);
    // A field first seen after the rows that name the columns is named, never dropped.
    const late = [
      ...Array.from({ length: 1_000 }, (_, index) => JSON.stringify({ n: index })),
      JSON.stringify({ n: 1, extra: "x" }),
    ].join("\n");
    const unknown = await refusal(late, "ndjson");
    expect(unknown.code).toBe("unknown_field");
    expect(unknown.fieldErrors.csv?.[0]).toMatch(
      /^Line 1001, column "extra": this field is not among/,
    );
    // A cell that does not fit its column is named with its line, like a CSV cell.
    // (Types come from the first 1,000 rows, as for CSV.)
    const misfit = await refusal(
      [...Array.from({ length: 1_000 }, (_, n) => `{"n": ${n}}`), '{"n": "many"}'].join("\n"),
      "ndjson",
    );
    expect(misfit.fieldErrors.csv?.[0]).toMatch(/^Line 1001, column "n": expected a number/);

    const kept = await importText(store, '{"n": 1}\n{"n": 2}\n', "ndjson");
    const replace = await errorOf(
      store.importIntoDataset(
        {
          datasetId: kept.dataset.id,
          expectedVersion: kept.dataset.version,
          mode: "replace",
          source: textStream('{"n": 5}\n{"n": 6}\n{"n": oops}\n'),
          format: "ndjson",
        },
        editor,
      ),
    );
    expect((replace as DatasetImportError).line).toBe(3);
    const after = await store.getDataset(kept.dataset.id);
    expect(after?.rows).toEqual([{ n: 1 }, { n: 2 }]);
    expect(after?.version).toBe(kept.dataset.version);
  });

  it("loses no digit of a number: integers past 2^53 and long decimals keep what the file wrote (property)", async () => {
    const store = await openTestStore("sqlite", { seedDemo: false });
    const integer = fc.oneof(
      fc.bigInt({ min: -(2n ** 53n) + 1n, max: 2n ** 53n - 1n }),
      // Past what a double holds exactly, up to 30 digits, and the edges around 2^53.
      fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }),
      fc.constantFrom(2n ** 53n, 2n ** 53n + 1n, -(2n ** 53n) - 1n, 2n ** 63n, -(2n ** 64n)),
    );
    const decimal = fc
      .tuple(fc.bigInt({ min: -(10n ** 25n), max: 10n ** 25n }), fc.integer({ min: 1, max: 24 }))
      .map(([digits, places]) => {
        const text = (digits < 0n ? -digits : digits).toString().padStart(places + 1, "0");
        return `${digits < 0n ? "-" : ""}${text.slice(0, -places)}.${text.slice(-places)}`;
      });
    // Numbers in forms a double would print otherwise, and words: a text column keeps them as written.
    const written = fc.oneof(
      decimal,
      fc
        .tuple(decimal, fc.constantFrom("e", "E"), fc.integer({ min: -400, max: 400 }))
        .map(([digits, e, exponent]) => `${digits}${e}${exponent}`),
      fc.constantFrom("-0", "-0.0", "1.50", "0.0000001", "1e21", "100E-2"),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            id: integer.map(String),
            amount: decimal,
            note: fc.oneof(written, fc.constant('"pending"')),
          }),
          {
            minLength: 1,
            maxLength: 30,
          },
        ),
        fc.boolean(),
        async (rows, asArray) => {
          // Written by hand: JSON.stringify has no way to write a number a double cannot hold.
          const objects = rows.map(
            ({ id, amount, note }) => `{"id": ${id}, "amount": ${amount}, "note": ${note}}`,
          );
          const text = asArray ? `[${objects.join(",\n")}]` : objects.join("\n");
          const before = (await store.listDatasets()).length;
          const imported = await importText(store, text, asArray ? "json" : "ndjson").catch(
            (error: unknown) => error as DatasetImportError,
          );
          if (!("dataset" in imported)) {
            // A number a double cannot hold (0.1e310) among numbers: the column is typed by its
            // other cells (at most 10% misfit), so the file is refused naming that cell, and
            // nothing is stored. Any other refusal is a failure.
            const unheld = rows.findIndex(({ note }) => !Number.isFinite(Number(note)));
            expect(unheld, String(imported)).toBeGreaterThanOrEqual(0);
            expect(imported.code).toBe("not_a_number");
            expect(imported.lineProblems[0]?.column).toBe("note");
            const refused = rows[(imported.row ?? 0) - 1];
            expect(Number.isFinite(Number(refused?.note))).toBe(false);
            expect((await store.listDatasets()).length).toBe(before);
            return;
          }
          const { dataset } = imported;
          const types = Object.fromEntries(dataset.columns.map((c) => [c.name, c.type]));
          for (const [index, row] of rows.entries()) {
            const stored = dataset.rows[index] as Record<string, unknown>;
            // Integers: exactly as written, as text when a double could not hold one of them.
            if (types.id === "number") {
              expect(Number.isSafeInteger(stored.id)).toBe(true);
              expect(BigInt(stored.id as number)).toBe(BigInt(row.id));
            } else {
              expect(stored.id).toBe(row.id);
            }
            // Decimals: the double the text names (as a CSV cell would be read), or the text.
            if (types.amount === "number") expect(stored.amount).toBe(Number(row.amount) + 0);
            else expect(stored.amount).toBe(row.amount);
            const note = row.note === '"pending"' ? "pending" : row.note;
            if (types.note === "number") expect(stored.note).toBe(Number(note) + 0);
            else expect(stored.note).toBe(note);
          }
          if (rows.some(({ note }) => note === '"pending"')) expect(types.note).toBe("string");
          if (rows.some(({ id }) => !Number.isSafeInteger(Number(id)))) {
            expect(types.id).toBe("string");
          }
        },
      ),
      { seed, numRuns: 60 },
    );
  });

  it("keeps every text value as written, whatever the fields and their order (property)", async () => {
    const store = await openTestStore("sqlite", { seedDemo: false });
    const names = ["alpha", "beta", "gamma", "delta.x", "delta.y"];
    // Words, not the empty markers a file may write for "no value" (NA, null, none, ...).
    const word = fc
      .stringMatching(/^[A-Za-zÀ-ÿ][A-Za-zÀ-ÿ -]{0,18}[A-Za-zÀ-ÿ]$/)
      .filter((text) => !/^(na|n a|nan|null|none|nil)$/i.test(text));
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.dictionary(fc.constantFrom(...names), word, { minKeys: 1 }), {
          minLength: 1,
          maxLength: 40,
        }),
        fc.boolean(),
        async (objects, asArray) => {
          const nested = objects.map((object) => {
            const out: Record<string, unknown> = {};
            for (const [key, value] of Object.entries(object)) {
              const [outer, inner] = key.split(".") as [string, string | undefined];
              if (inner === undefined) out[outer] = value;
              else out[outer] = { ...(out[outer] as object | undefined), [inner]: value };
            }
            return out;
          });
          const text = asArray
            ? JSON.stringify(nested)
            : nested.map((object) => JSON.stringify(object)).join("\n");
          const { dataset } = await importText(store, text, asArray ? "json" : "ndjson");
          const seen = dataset.columns.map((column) => column.name);
          expect(new Set(seen)).toEqual(new Set(objects.flatMap((object) => Object.keys(object))));
          expect(dataset.rows).toEqual(
            objects.map((object) =>
              Object.fromEntries(seen.map((name) => [name, object[name] ?? null])),
            ),
          );
        },
      ),
      { seed, numRuns: 60 },
    );
  });
});

describe("the preview of a JSON array's first megabyte", () => {
  // Texts that try the cut: brackets, braces, commas and quotes inside strings, escapes, and
  // characters of two, three and four UTF-8 bytes.
  const tricky = fc.oneof(
    fc.string(),
    fc.constantFrom("a,b", "[1,2]", '{"k":1}', 'say "hi"', "back\\slash\\", "Zoë, 東京, 😀", ""),
  );
  const row = fc.record({
    id: fc.integer({ min: -1e6, max: 1e6 }),
    name: tricky,
    nested: fc.record({ list: fc.array(tricky, { maxLength: 3 }), flag: fc.boolean() }),
  });

  it("cuts after the last whole row and closes the array, at any cut and in UTF-8 or UTF-16", () => {
    fc.assert(
      fc.property(
        fc.array(row, { minLength: 1, maxLength: 12 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.constantFrom("utf8", "utf16le", "utf16be", "utf8bom"),
        fc.boolean(),
        (rows, at, encoding, spaced) => {
          const text = spaced ? JSON.stringify(rows, null, 2) : JSON.stringify(rows);
          const encoded =
            encoding === "utf16le" || encoding === "utf16be"
              ? Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, "utf16le")])
              : Buffer.concat([
                  Buffer.from(encoding === "utf8bom" ? [0xef, 0xbb, 0xbf] : []),
                  Buffer.from(text, "utf8"),
                ]);
          if (encoding === "utf16be") {
            // The same units, each byte pair swapped, after a big-endian mark.
            for (let index = 0; index + 1 < encoded.length; index += 2) {
              const low = encoded[index] as number;
              encoded[index] = encoded[index + 1] as number;
              encoded[index + 1] = low;
            }
          }
          const cut = Math.floor(at * encoded.length);
          const head = jsonArrayHead(new Uint8Array(encoded.subarray(0, cut)));
          // Every cut of an array is one, with or without a whole row yet.
          expect(head).not.toBe("not_array");
          if (head === "no_row" || head === "not_array") return;
          const decoded =
            encoding === "utf16le"
              ? Buffer.from(head.subarray(2)).toString("utf16le")
              : encoding === "utf16be"
                ? Buffer.from(head.subarray(2)).swap16().toString("utf16le")
                : Buffer.from(head)
                    .toString("utf8")
                    .replace(/^\uFEFF/, "");
          const read = JSON.parse(decoded) as unknown[];
          // Whole rows only, the first ones, in order; all of them once the array's end is in.
          expect(read).toEqual(rows.slice(0, read.length));
          expect(read.length).toBeGreaterThan(0);
          expect(jsonArrayHead(new TextEncoder().encode('{"rows":[1,2]}'))).toBe("not_array");
          if (cut === encoded.length) expect(read.length).toBe(rows.length);
        },
      ),
      { seed, numRuns: 2_000 },
    );
  });

  it("a file too large to send whole is previewed from its head, as its import reads it", async () => {
    const rows = Array.from({ length: 20_000 }, (_, index) => ({
      id: String(index).padStart(6, "0"),
      when: `2024-01-${String((index % 28) + 1).padStart(2, "0")}`,
      amount: index * 1.5,
      place: { city: index % 3 === 0 ? "Zürich" : "Köln", zip: "01067" },
    }));
    const text = JSON.stringify(rows);
    const bytes = new TextEncoder().encode(text);
    expect(bytes.length).toBeGreaterThan(1024 * 1024);
    const store = await openTestStore("sqlite", { seedDemo: false });
    const preview = await store.previewImport(
      { bytes: bytes.subarray(0, 1024 * 1024), complete: false, format: "json" },
      editor,
    );
    expect(preview.stopped).toBeNull();
    expect(preview.complete).toBe(false);
    expect(preview.sampleRows).toBe(1_000);
    expect(preview.columns.map((column) => [column.header, column.type])).toEqual([
      ["id", "string"],
      ["when", "date"],
      ["amount", "number"],
      ["place.city", "string"],
      ["place.zip", "string"],
    ]);
    const result = await store.importNewDataset(
      { name: "Big array", source: textStream(text), format: "json" },
      editor,
    );
    const dataset = await store.getDataset(result.datasetId);
    expect(dataset?.columns.map((column) => [column.name, column.type])).toEqual(
      preview.columns.map((column) => [column.header, column.type]),
    );
    expect(dataset?.rowCount).toBe(20_000);
    expect(dataset?.rows.slice(0, preview.rows.length)).toEqual(
      preview.rows.map((shown) => shown.values),
    );
    // A first row longer than the head is said, not guessed at.
    const long = new TextEncoder().encode(`[{"note":"${"x".repeat(2 * 1024 * 1024)}"}]`);
    const cutShort = await store.previewImport(
      { bytes: long.subarray(0, 1024 * 1024), complete: false, format: "json" },
      editor,
    );
    expect(cutShort.stopped?.message).toMatch(/first row of the array does not end/);
  });
});
