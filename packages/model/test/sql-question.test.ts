import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  dashboardRangeDays,
  importFormatOf,
  slugPattern,
  sqlParameterDays,
  sqlParameterProblem,
  sqlParametersOf,
  sqlTableNames,
  sqlTemplateParts,
} from "../src/index.js";

const seed = Number(process.env.FC_SEED ?? Date.now() % 2_147_483_647);
console.log(`sql question property seed: ${seed} (FC_SEED=${seed} repeats it)`);

describe("SQL question rules", () => {
  it("names each dataset's table from its name, once, with no quotes needed", () => {
    const names = sqlTableNames([
      { id: "a", name: "Store sales 2025!" },
      { id: "b", name: "store-sales 2025" },
      { id: "c", name: "2024 orders" },
      { id: "d", name: "Café Crème" },
      { id: "e", name: "!!!" },
    ]);
    expect([...names.values()]).toEqual([
      "store_sales_2025",
      "store_sales_2025_2",
      "t_2024_orders",
      "cafe_creme",
      "t",
    ]);
  });

  it("gives every dataset a distinct plain identifier that is also a slug, whatever the names (property)", () => {
    // Words of letters, digits and separators, long enough that a cut lands anywhere, and
    // names that repeat, so suffixes are cut too.
    const word = fc.stringMatching(/^[A-Za-z0-9éß]{1,12}$/);
    const separated = fc
      .array(fc.tuple(word, fc.constantFrom(" ", "-", "_", " - ", "!!", "   ")), {
        minLength: 1,
        maxLength: 12,
      })
      .map((parts) => parts.map(([text, gap]) => `${text}${gap}`).join(""));
    const name = fc.oneof(fc.string({ maxLength: 80 }), separated);
    fc.assert(
      fc.property(
        fc
          .array(name, { maxLength: 30 })
          .chain((names) =>
            fc.shuffledSubarray([...names, ...names]).map((more) => [...names, ...more]),
          ),
        (names) => {
          const tables = sqlTableNames(
            names.map((text, index) => ({ id: String(index), name: text })),
          );
          const values = [...tables.values()];
          expect(new Set(values).size).toBe(names.length);
          for (const value of values) {
            expect(value).toMatch(/^[a-z][a-z0-9_]{0,59}$/);
            // the API and files name a dataset by it: one slug pattern for every slug
            expect(value).toMatch(slugPattern);
          }
        },
      ),
      { seed, numRuns: 300 },
    );
  });

  it("leaves no separator at the end of a name cut at its limit, nor before a suffix", () => {
    const names = sqlTableNames([
      { id: "a", name: `${"a".repeat(59)} tail` },
      { id: "b", name: `${"a".repeat(57)} b` },
      { id: "c", name: `${"a".repeat(57)} b` },
    ]);
    expect([...names.values()]).toEqual([
      "a".repeat(59),
      `${"a".repeat(57)}_b`,
      `${"a".repeat(57)}_2`,
    ]);
  });

  it("cuts a question at its {{placeholders}} and puts it back together (property)", () => {
    const piece = fc.oneof(
      fc.string({ maxLength: 20 }).filter((text) => !text.includes("{{")),
      fc.constantFrom("{{from}}", "{{ to }}", "{{region}}"),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const text = pieces.join("");
        const parts = sqlTemplateParts(text);
        const back = parts
          .map((part) => (typeof part === "string" ? part : `{{${part.parameter}}}`))
          .join("");
        expect(back.replaceAll("{{ to }}", "{{to}}")).toBe(text.replaceAll("{{ to }}", "{{to}}"));
      }),
      { seed, numRuns: 200 },
    );
    expect(sqlParametersOf("where a >= {{from}} and a <= {{ to }} or b = {{from}}")).toEqual([
      "from",
      "to",
    ]);
  });

  it("refuses unknown parameters and anything but a real day", () => {
    expect(sqlParameterProblem("select {{region}}")).toMatch(/Unknown parameter \{\{region\}\}/);
    expect(sqlParameterProblem("select {{from}}", { from: "2025-02-30" })).toMatch(/yyyy-mm-dd/);
    expect(sqlParameterProblem("select {{from}}", { from: "2024-02-29" })).toBeNull();
    expect(
      sqlParameterProblem("select {{from}}", { from: "0001-01-01", to: "9999-12-31" }),
    ).toBeNull();
    expect(sqlParameterDays({ from: null, to: "" })).toEqual({
      from: "0001-01-01",
      to: "9999-12-31",
    });
  });

  it("turns a dashboard's range into its first and last day", () => {
    const now = Date.parse("2025-03-15T10:00:00Z");
    expect(dashboardRangeDays(null, "UTC", now)).toEqual({ from: null, to: null });
    expect(dashboardRangeDays({ preset: "last-30-days" }, "UTC", now)).toEqual({
      from: "2025-02-14",
      to: "2025-03-15",
    });
    expect(dashboardRangeDays({ preset: "last-month" }, "UTC", now)).toEqual({
      from: "2025-02-01",
      to: "2025-02-28",
    });
    // Late on the 28th of February in UTC is already March in Tokyo.
    expect(
      dashboardRangeDays(
        { preset: "this-month" },
        "Asia/Tokyo",
        Date.parse("2025-02-28T20:00:00Z"),
      ),
    ).toEqual({ from: "2025-03-01", to: "2025-03-31" });
    expect(dashboardRangeDays({ from: "2025-01-01", to: null }, "UTC", now)).toEqual({
      from: "2025-01-01",
      to: null,
    });
  });

  it("reads a file's format from its name", () => {
    expect(
      ["a.CSV", "b.json", "c.ndjson", "d.jsonl", "e.parquet", "f.arrow", "g.feather", "h.tsv"].map(
        importFormatOf,
      ),
    ).toEqual(["csv", "json", "ndjson", "ndjson", "parquet", "arrow", "arrow", "csv"]);
  });
});
