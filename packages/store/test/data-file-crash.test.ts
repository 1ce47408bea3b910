import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { salesCsvChunks } from "@seed/sample-data";
import Database from "better-sqlite3";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CommittedRows, type DataFile, openDataFile } from "../src/db/data-file.js";
import { columnIdsFor, type TableColumn } from "../src/db/dataset-table.js";
import { runQuery } from "../src/engine/execute.js";

// Crash tests of the DuckDB data file (src/db/data-file.ts) with a real kill -9: a child process
// (data-file-child.mjs, on the built dist/data-file.js) replaces or appends a dataset's rows and
// is killed with SIGKILL at each point of the write. The test then reopens both files, recovers,
// and checks that a reader sees exactly the rows of the version the state file committed, and that
// no other generation table is left.

const here = dirname(fileURLToPath(import.meta.url));
const child = join(here, "data-file-child.mjs");
const built = join(here, "..", "dist", "data-file.js");
const datasetId = "3f2a9c1e-sales";

const csvColumns = [
  ["day", "DATE"],
  ["region", "VARCHAR"],
  ["revenue", "DOUBLE"],
  ["orders", "DOUBLE"],
  ["price", "DOUBLE"],
] as const;
const ids = columnIdsFor(csvColumns.map(([name]) => name));
const columns: TableColumn[] = csvColumns.map(([name, type], index) => ({
  id: ids[index] as string,
  name,
  type: type === "DATE" ? "date" : type === "VARCHAR" ? "string" : "number",
}));

/** The CSV's rows as a reader compares them: `day|region|revenue|orders|price`, numbers as JS prints them. */
function csvRows(text: string): string[] {
  return text
    .trim()
    .split("\n")
    .slice(1)
    .map((line) => {
      const [day, region, ...numbers] = line.split(",");
      return [day, region, ...numbers.map((n) => String(Number(n)))].join("|");
    });
}

type Mode = "replace" | "append";
type KillAt = "load" | "staged" | "committed" | "none";

let dir: string;
let oldCsv: string;
let newCsv: string;
let oldRows: string[];
let newRows: string[];

beforeAll(() => {
  if (!existsSync(built)) throw new Error(`${built} is missing: run pnpm build first`);
  dir = mkdtempSync(join(tmpdir(), "seed-data-file-"));
  const oldText = [...salesCsvChunks(3_000, { seed: 1 })].join("");
  const newText = [
    ...salesCsvChunks(2_000, { seed: 2, start: new Date(Date.UTC(2026, 0, 1)) }),
  ].join("");
  oldCsv = join(dir, "old.csv");
  newCsv = join(dir, "new.csv");
  writeFileSync(oldCsv, oldText);
  writeFileSync(newCsv, newText);
  oldRows = csvRows(oldText);
  newRows = csvRows(newText);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const readState = (statePath: string): CommittedRows => {
  const state = new Database(statePath);
  const row = state
    .prepare("select version, generation from datasets where id = ?")
    .get(datasetId) as CommittedRows;
  state.close();
  return row;
};

/** Generation 1 at version 1 holding the old rows, committed in both files. */
async function setUp(name: string) {
  const duckPath = join(dir, `${name}.duckdb`);
  const statePath = join(dir, `${name}.sqlite`);
  const file = await openDataFile(duckPath);
  await file.recover(new Map());
  const { generation } = await file.stageReplace(datasetId, 1, columns, (target, trx, firstKey) =>
    sql`insert into ${sql.table(target.table)} ("_row", ${sql.join(ids.map((id) => sql.id(id)))}) select ${sql.lit(firstKey - 1)} + row_number() over (), * from read_csv(${sql.lit(oldCsv)}, header = true)`
      .execute(trx)
      .then(() => undefined),
  );
  await file.close();
  const state = new Database(statePath);
  state.exec("create table datasets (id text primary key, version integer, generation integer)");
  state.prepare("insert into datasets values (?, 1, ?)").run(datasetId, generation);
  state.close();
  return { duckPath, statePath };
}

/** Runs the child until it says it reached `killAt`, then kills it with SIGKILL. */
function runChild(config: Record<string, unknown>, killAt: KillAt) {
  return new Promise<{ signal: NodeJS.Signals | null; code: number | null; said: string[] }>(
    (resolve, reject) => {
      const process = spawn("node", [child, JSON.stringify({ ...config, killAt })], {
        stdio: ["pipe", "pipe", "pipe"],
      });
      const said: string[] = [];
      let stderr = "";
      let buffered = "";
      process.stdout.on("data", (chunk: Buffer) => {
        buffered += chunk.toString();
        const lines = buffered.split("\n");
        buffered = lines.pop() ?? "";
        for (const line of lines) {
          said.push(line);
          if (line === killAt) process.kill("SIGKILL");
        }
      });
      process.stderr.on("data", (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      process.on("error", reject);
      process.on("exit", (code, signal) => {
        if (code !== 0 && signal !== "SIGKILL") reject(new Error(`child failed: ${stderr}`));
        else resolve({ signal, code, said });
      });
    },
  );
}

async function visibleRows(file: DataFile, committed: CommittedRows): Promise<string[]> {
  const descriptor = file.readTable(datasetId, committed, columns);
  const result = await sql<Record<string, unknown>>`select ${sql.join(
    ids.map((id) => sql.id(id)),
  )} from ${sql.table(descriptor.table)} where "_v" <= ${committed.version} order by "_row"`.execute(
    file.db,
  );
  return result.rows.map((row) => ids.map((id) => String(row[id])).join("|"));
}

async function tables(file: DataFile): Promise<string[]> {
  const result = await sql<{
    name: string;
  }>`select table_name as name from duckdb_tables() order by 1`.execute(file.db);
  return result.rows.map((row) => row.name);
}

/** Orders per region, as the query engine counts them through readTable's descriptor. */
async function ordersByRegion(file: DataFile, committed: CommittedRows) {
  const result = await runQuery(file.db, file.readTable(datasetId, committed, columns), {
    x: { column: "region" },
    measures: [{ column: "orders", aggregate: "sum" }],
  });
  return Object.fromEntries(result.rows.map((row) => [row.x, row.m0]));
}

function expectedOrders(rows: readonly string[]) {
  const totals: Record<string, number> = {};
  for (const row of rows) {
    const [, region, , orders] = row.split("|");
    totals[region as string] = (totals[region as string] ?? 0) + Number(orders);
  }
  return totals;
}

const cases: Array<{
  mode: Mode;
  killAt: KillAt;
  version: number;
  generation: number;
  rows: () => string[];
}> = [
  { mode: "replace", killAt: "load", version: 1, generation: 1, rows: () => oldRows },
  { mode: "replace", killAt: "staged", version: 1, generation: 1, rows: () => oldRows },
  { mode: "replace", killAt: "committed", version: 2, generation: 2, rows: () => newRows },
  { mode: "replace", killAt: "none", version: 2, generation: 2, rows: () => newRows },
  { mode: "append", killAt: "load", version: 1, generation: 1, rows: () => oldRows },
  { mode: "append", killAt: "staged", version: 1, generation: 1, rows: () => oldRows },
  {
    mode: "append",
    killAt: "committed",
    version: 2,
    generation: 1,
    rows: () => [...oldRows, ...newRows],
  },
  {
    mode: "append",
    killAt: "none",
    version: 2,
    generation: 1,
    rows: () => [...oldRows, ...newRows],
  },
];

describe("the DuckDB data file after a kill -9", () => {
  it.each(cases)("$mode killed at $killAt", async ({ mode, killAt, version, generation, rows }) => {
    const { duckPath, statePath } = await setUp(`${mode}-${killAt}`);
    const ran = await runChild(
      { duckPath, statePath, csvPath: newCsv, datasetId, columns, csvColumns, mode },
      killAt,
    );
    if (killAt === "none") expect(ran).toMatchObject({ code: 0, said: ["done"] });
    else expect(ran).toMatchObject({ signal: "SIGKILL", said: [killAt] });

    const committed = readState(statePath);
    expect(committed).toEqual({ version, generation });
    const file = await openDataFile(duckPath);
    try {
      const report = await file.recover(new Map([[datasetId, committed]]));
      expect(report.missing).toEqual([]);
      const table = `ds_3f2a9c1e_sales_g${generation}`;
      // Only the committed generation is left, holding only the committed version's rows.
      expect(await tables(file)).toEqual([table]);
      const expected = rows();
      expect(await visibleRows(file, committed)).toEqual(expected);
      expect(await visibleRows(file, { ...committed, version: Number.MAX_SAFE_INTEGER })).toEqual(
        expected,
      );
      expect(await ordersByRegion(file, committed)).toEqual(expectedOrders(expected));
      // What recovery did, by case.
      const orphan = mode === "replace" && killAt === "staged" ? ["ds_3f2a9c1e_sales_g2"] : [];
      const old = mode === "replace" && killAt === "committed" ? ["ds_3f2a9c1e_sales_g1"] : [];
      expect(report.dropped).toEqual([...orphan, ...old]);
      expect(report.trimmed).toEqual(
        mode === "append" && killAt === "staged" ? [{ table, rows: newRows.length }] : [],
      );
    } finally {
      await file.close();
    }
  });
});
