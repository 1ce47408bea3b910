import {
  type ColumnType,
  columnTypes,
  datasetLimits,
  formatChoicesFor,
  formatKey,
  formatOfKey,
  type ImportColumnChoices,
} from "@seed/model";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { importReadingParams, importReadingSchema } from "./import-reading";

// How a file is to be read, as the import form sends it: every choice the pickers offer goes
// through the query string and back unchanged; anything else is refused, never thrown on.

const seed = Number(process.env.SEED_PROPERTY_SEED ?? Date.now() % 2 ** 31);
console.log(`import reading property seed: ${seed}`);

// Any text a header holds, names objects have of their own included.
const header = fc.oneof(
  fc.string({ minLength: 1, maxLength: datasetLimits.maxColumnNameLength }),
  fc.constantFrom("__proto__", "constructor", "toString", "hasOwnProperty"),
);
const choice = fc
  .record({
    type: fc.constantFrom<ColumnType>(...columnTypes),
    at: fc.nat(60),
    with: fc.boolean(),
    // A new name as the form sends it: trimmed, 1 to 64 characters, any text.
    name: fc.option(
      fc
        .string({ minLength: 1, maxLength: datasetLimits.maxColumnNameLength })
        .filter((name) => name.trim() === name && name !== ""),
    ),
  })
  .map(({ type, at, with: withFormat, name }) => {
    const offered = formatChoicesFor(type);
    const format = offered[at % Math.max(1, offered.length)];
    return {
      ...(name === null ? {} : { name }),
      type,
      ...(withFormat && format !== undefined ? { format } : {}),
    };
  });

describe("the import form's reading parameters", () => {
  it("carry every offered choice through the query string unchanged", () => {
    fc.assert(
      fc.property(
        fc.dictionary(header, choice, { maxKeys: datasetLimits.maxColumns }),
        fc.constantFrom("auto", "UTF-8", "windows-1252", "Shift_JIS"),
        (columns: ImportColumnChoices, encoding) => {
          const params = importReadingParams({ format: "csv", encoding, columns });
          const parsed = importReadingSchema.parse(Object.fromEntries(params));
          expect(parsed.encoding).toBe(encoding);
          expect(parsed.columns ?? {}).toEqual(columns);
        },
      ),
      { seed, numRuns: 500 },
    );
  });

  it("refuse any other columns text, never throwing", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 200 }), fc.json()), (text) => {
        const parsed = importReadingSchema.safeParse({ columns: text });
        if (parsed.success) expect(typeof parsed.data.columns).toBe("object");
      }),
      { seed, numRuns: 1_000 },
    );
    for (const bad of [
      '{"a":{"type":"number","format":"yyyy-MM-dd"}}',
      '{"a":{"type":"date","format":{"decimal":".","thousands":null,"currency":null,"percent":false}}}',
      '{"a":{"type":"boolean","format":"yyyy-MM-dd"}}',
      '{"a":{"format":{"decimal":".","thousands":null,"currency":"X","percent":false}}}',
      `{"${"x".repeat(65)}":{}}`,
      "x".repeat(17 * 1024),
      '{"a":{"name":"   "}}',
      `{"a":{"name":"${"n".repeat(65)}"}}`,
      `{"a":{"name":7}}`,
    ]) {
      expect(importReadingSchema.safeParse({ columns: bad }).success).toBe(false);
    }
  });

  it("name every offered format by a key that reads back as it", () => {
    for (const type of columnTypes) {
      for (const format of formatChoicesFor(type)) {
        expect(formatOfKey(formatKey(format))).toEqual(format);
      }
    }
    expect(formatOfKey("{not json")).toBeNull();
    expect(formatOfKey("dd/mm/yyyy")).toBeNull();
  });
});
