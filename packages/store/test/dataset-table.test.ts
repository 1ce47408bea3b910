import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { columnIdsFor, datasetTableName, isSafeIdentifier } from "../src/db/dataset-table.js";

describe("dataset table names", () => {
  it("maps any id to a safe name of at most 63 bytes", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (id) => {
        const name = datasetTableName(id);
        expect(isSafeIdentifier(name)).toBe(true);
        expect(Buffer.byteLength(name)).toBeLessThanOrEqual(63);
      }),
      { verbose: true },
    );
    expect(datasetTableName("1B2C-3d")).toBe("ds_1b2c_3d");
  });

  it("gives distinct, safe column ids for any headers", () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 100 }), { maxLength: 60 }), (names) => {
        const ids = columnIdsFor(names);
        expect(new Set(ids).size).toBe(names.length);
        for (const id of ids) {
          expect(isSafeIdentifier(id)).toBe(true);
          expect(Buffer.byteLength(id)).toBeLessThanOrEqual(60);
        }
      }),
      { verbose: true },
    );
    expect(columnIdsFor(["Revenue", "revenue", "Région", "", "x;DROP TABLE"])).toEqual([
      "c_revenue",
      "c_revenue_2",
      "c_region",
      "c_column",
      "c_x_drop_table",
    ]);
  });
});
