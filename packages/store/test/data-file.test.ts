import { sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  type CommittedRows,
  type DataFile,
  type LoadRows,
  openDataFile,
} from "../src/db/data-file.js";
import type { TableColumn } from "../src/db/dataset-table.js";
import { runQuery } from "../src/engine/execute.js";

// The data file in one process (no crash): reads during a write see the committed version, and
// writes to one dataset queued by `serialise` run one at a time. Crashes: data-file-crash.test.ts.

const columns: TableColumn[] = [{ id: "c_n", name: "n", type: "number" }];
// Loads give their rows' keys (data-file tables have no key sequence), from `firstKey` on.
const rowsOf =
  (...values: number[]): LoadRows =>
  async (target, trx, firstKey) => {
    await sql`insert into ${sql.table(target.table)} ("_row", c_n) values ${sql.join(
      values.map((n, index) => sql`(${firstKey + index}, ${n})`),
    )}`.execute(trx);
  };

describe("the DuckDB data file", () => {
  let file: DataFile;
  let committed: CommittedRows;
  beforeEach(async () => {
    file = await openDataFile(":memory:");
    const { generation } = await file.stageReplace("d1", 1, columns, rowsOf(1, 2, 3));
    committed = { version: 1, generation };
  });
  afterEach(() => file.close());

  const total = async (state: CommittedRows) => {
    const result = await runQuery(file.db, file.readTable("d1", state, columns), {
      x: { column: "n" },
      measures: [{ column: "n", aggregate: "sum" }],
    });
    return result.rows.reduce((sum, row) => sum + Number(row.m0), 0);
  };

  it("shows a reader the committed rows while an append is loading and once it is staged", async () => {
    let during = 0;
    await file.stageAppend("d1", committed, columns, async (target, trx, firstKey) => {
      await rowsOf(10, 20)(target, trx, firstKey);
      during = await total(committed);
    });
    expect(during).toBe(6);
    // Staged in DuckDB, not yet committed in the state database: still version 1's rows.
    expect(await total(committed)).toBe(6);
    expect(await total({ ...committed, version: 2 })).toBe(36);
  });

  it("runs one dataset's writes one at a time, each from the state the last one committed", async () => {
    const append = (n: number) =>
      file.serialise("d1", async () => {
        const read = { ...committed };
        await file.stageAppend("d1", read, columns, rowsOf(n));
        committed = { ...read, version: read.version + 1 };
      });
    await Promise.all([append(10), append(20), append(30)]);
    expect(committed.version).toBe(4);
    expect(await total(committed)).toBe(66);
    const tagged = await sql<{
      v: number;
      n: number;
    }>`select "_v" as v, c_n as n from ${sql.table(file.readTable("d1", committed, columns).table)} order by "_row"`.execute(
      file.db,
    );
    expect(tagged.rows).toEqual([
      { v: 1, n: 1 },
      { v: 1, n: 2 },
      { v: 1, n: 3 },
      { v: 2, n: 10 },
      { v: 3, n: 20 },
      { v: 4, n: 30 },
    ]);
  });

  it("never reuses the generation of a replace whose state commit failed", async () => {
    const orphan = await file.stageReplace("d1", 2, columns, rowsOf(7));
    const next = await file.stageReplace("d1", 2, columns, rowsOf(8));
    expect([committed.generation, orphan.generation, next.generation]).toEqual([1, 2, 3]);
    const report = await file.recover(new Map([["d1", { version: 2, generation: 3 }]]));
    expect(report.dropped).toEqual(["ds_d1_g1", "ds_d1_g2"]);
    expect(await total({ version: 2, generation: 3 })).toBe(8);
  });
});
