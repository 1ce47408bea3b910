import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { rowsLimits } from "@seed/model";
import { salesCsvChunks } from "@seed/sample-data";
import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { datasetTableName, openStore, type Store } from "../src/index.js";
import { internalsOf } from "../src/raw-handles.js";
import { editor } from "./actors.js";
import { errorOf } from "./helpers.js";

// The embedded store with dataset rows in the DuckDB data file (datasetEngine "duckdb"): rows
// never in the SQLite file, every write all or nothing, a kill -9 mid-import leaving the old rows.
// The shared store tests (datasets, import, push, row edits, queries) also run on this engine.

const child = fileURLToPath(new URL("./rows-data-file-child.mjs", import.meta.url));
const stateOnlyChild = fileURLToPath(new URL("./state-only-child.mjs", import.meta.url));
const dirs: string[] = [];
const stores: Store[] = [];

afterEach(async () => {
  await Promise.all(stores.splice(0).map((store) => store.close()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function newDataDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "seed-rows-file-"));
  dirs.push(dir);
  return dir;
}

async function open(dataDir: string): Promise<Store> {
  const store = await openStore({
    dataDir,
    databaseUrl: null,
    datasetEngine: "duckdb",
    seedDemo: false,
  });
  stores.push(store);
  return store;
}

async function close(store: Store) {
  stores.splice(stores.indexOf(store), 1);
  await store.close();
}

/** Runs a child store script with its JSON config; SIGKILLs it once stdout holds `killAt`. */
function runChild(
  script: string,
  config: unknown,
  killAt?: string,
): Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const running = spawn("node", [script, JSON.stringify(config)], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    running.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      if (killAt !== undefined && stdout.includes(killAt)) running.kill("SIGKILL");
    });
    running.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    running.on("error", reject);
    running.on("exit", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

async function* csvBytes(rows: number, seed: number): AsyncGenerator<Uint8Array> {
  const encoder = new TextEncoder();
  for (const chunk of salesCsvChunks(rows, { seed })) yield encoder.encode(chunk);
}

/** Revenue summed and rows counted in JS from the same generated file. */
function expectedTotals(rows: number, seed: number) {
  const text = [...salesCsvChunks(rows, { seed })].join("");
  const lines = text.trim().split("\n").slice(1);
  const revenue = lines.reduce((sum, line) => sum + Number(line.split(",")[2]), 0);
  return { rows: lines.length, revenue };
}

async function totals(store: Store, datasetId: string) {
  const result = await store.runChartQuery(datasetId, {
    x: { column: "region" },
    measures: [
      { column: "revenue", aggregate: "sum" },
      { column: "revenue", aggregate: "count" },
    ],
  });
  return {
    rows: result.rows.reduce((sum, row) => sum + Number(row.m1), 0),
    revenue: result.rows.reduce((sum, row) => sum + Number(row.m0), 0),
  };
}

describe("dataset rows in the DuckDB data file", () => {
  it("keeps rows out of the SQLite file and answers queries, pages and searches from the data file", async () => {
    const dataDir = newDataDir();
    const store = await open(dataDir);
    const created = await store.importNewDataset(
      { name: "Sales", source: csvBytes(3_000, 1) },
      editor,
    );
    expect(existsSync(path.join(dataDir, "seed-rows.duckdb"))).toBe(true);
    // The column store's limits: ten million rows, 1 GB files.
    expect(store.rowsLimits).toEqual(rowsLimits["data-file"]);
    expect(store.rowsLimits.maxImportRows).toBe(10_000_000);
    const tables = await sql<{
      name: string;
    }>`select name from sqlite_master where type = 'table' and name like 'ds_%'`.execute(
      internalsOf(store).db,
    );
    expect(tables.rows).toEqual([]);
    const want = expectedTotals(3_000, 1);
    const got = await totals(store, created.datasetId);
    expect(got.rows).toBe(want.rows);
    expect(got.revenue).toBeCloseTo(want.revenue, 6);
    const page = await store.listDatasetRows(created.datasetId, {
      limit: 5,
      offset: 10,
      search: "north",
    });
    expect(page?.rows.length).toBe(5);
    expect(page?.rows.every((row) => String(row.row.region).toLowerCase().includes("north"))).toBe(
      true,
    );
    expect(page?.total).toBeGreaterThan(5);
    // Keys are 1..n in file order.
    const first = await store.listDatasetRows(created.datasetId, { limit: 3 });
    expect(first?.rows.map((row) => row.key)).toEqual([1, 2, 3]);
  });

  it("replaces, appends, edits and deletes, each one new version, and reopens to the same rows", async () => {
    const dataDir = newDataDir();
    let store = await open(dataDir);
    const created = await store.importNewDataset(
      { name: "Sales", source: csvBytes(2_000, 1) },
      editor,
    );
    const id = created.datasetId;
    const replaced = await store.importIntoDataset(
      { datasetId: id, expectedVersion: 1, mode: "replace", source: csvBytes(1_500, 2) },
      editor,
    );
    expect(replaced).toMatchObject({ version: 2, rowCount: 1_500 });
    const appended = await store.importIntoDataset(
      { datasetId: id, expectedVersion: 2, mode: "append", source: csvBytes(500, 3) },
      editor,
    );
    expect(appended).toMatchObject({ version: 3, rowCount: 2_000 });
    const want = expectedTotals(1_500, 2);
    const more = expectedTotals(500, 3);
    expect((await totals(store, id)).revenue).toBeCloseTo(want.revenue + more.revenue, 6);
    // Appended rows continue the keys.
    const last = await store.listDatasetRows(id, { limit: 1, offset: 1_999 });
    expect(last?.rows[0]?.key).toBe(2_000);

    const edited = await store.editDatasetRows(
      id,
      3,
      {
        set: [{ key: 1, row: { ...last?.rows[0]?.row, revenue: 1_000_000 } }],
        remove: [2, 3],
        append: [{ ...last?.rows[0]?.row, revenue: 5 }],
      },
      editor,
    );
    expect(edited).toMatchObject({ version: 4, rowCount: 1_999 });
    const keys = await store.listDatasetRows(id, { limit: 3 });
    expect(keys?.rows.map((row) => row.key)).toEqual([1, 4, 5]);
    expect(keys?.rows[0]?.row.revenue).toBe(1_000_000);
    const added = await store.listDatasetRows(id, { limit: 1, offset: 1_998 });
    expect(added?.rows[0]).toMatchObject({ key: 2_001, row: { revenue: 5 } });
    const before = await totals(store, id);

    await close(store);
    store = await open(dataDir);
    expect(await totals(store, id)).toEqual(before);
    expect((await store.getDataset(id, 0))?.version).toBe(4);

    await store.deleteDataset(id, 4, editor);
    expect(await store.getDataset(id)).toBeNull();
    const again = await store.importNewDataset({ name: "Again", source: csvBytes(10, 4) }, editor);
    expect((await totals(store, again.datasetId)).rows).toBe(10);
  });

  it("leaves the old rows and version whole when an import fails half-way, and the next write starts from them", async () => {
    const store = await open(newDataDir());
    const created = await store.importNewDataset(
      { name: "Sales", source: csvBytes(1_000, 1) },
      editor,
    );
    const before = await totals(store, created.datasetId);
    async function* badHalfWay(): AsyncGenerator<Uint8Array> {
      const encoder = new TextEncoder();
      const text = [...salesCsvChunks(4_000, { seed: 5 })].join("").split("\n");
      text[3_000] = "2024-01-01,North,not a number,1,2";
      yield encoder.encode(text.join("\n"));
    }
    for (const mode of ["append", "replace"] as const) {
      const error = await errorOf(
        store.importIntoDataset(
          { datasetId: created.datasetId, expectedVersion: 1, mode, source: badHalfWay() },
          editor,
        ),
      );
      expect(error).toMatchObject({ code: "not_a_number", line: 3_001 });
      expect(await totals(store, created.datasetId)).toEqual(before);
      expect((await store.getDataset(created.datasetId, 0))?.version).toBe(1);
    }
    const appended = await store.importIntoDataset(
      { datasetId: created.datasetId, expectedVersion: 1, mode: "append", source: csvBytes(10, 9) },
      editor,
    );
    expect(appended).toMatchObject({ version: 2, rowCount: 1_010 });
    expect((await totals(store, created.datasetId)).rows).toBe(1_010);
  });

  it("moves the rows a SQLite store kept into the data file at open, keys and all, and will not reopen without it", async () => {
    const dataDir = newDataDir();
    const before = await openStore({
      dataDir,
      databaseUrl: null,
      datasetEngine: "sqlite",
      seedDemo: false,
    });
    const sales = await before.importNewDataset(
      { name: "Sales", source: csvBytes(3_000, 1) },
      editor,
    );
    // Gaps in the keys and an edited row, as a dataset in use has.
    await before.editDatasetRows(sales.datasetId, 1, { remove: [2, 3, 500] }, editor);
    const typed = await before.createDataset(
      {
        name: "Typed",
        columns: [
          { name: "when", type: "timestamp" },
          { name: "day", type: "date" },
          { name: "label", type: "string" },
          { name: "value", type: "number" },
        ],
        rows: [
          {
            when: "2024-03-31T01:30:00.000Z",
            day: "1999-12-31",
            label: "naïve café ✓ 日本 🎉",
            value: 1.5,
          },
          { when: null, day: null, label: "a,b\nc", value: -1e300 },
          { when: "1970-01-01T00:00:00.000Z", day: "2024-02-29", label: null, value: null },
        ],
      },
      editor,
    );
    const salesRows = await before.listDatasetRows(sales.datasetId, { limit: 1_000, offset: 0 });
    const salesTotals = await totals(before, sales.datasetId);
    const typedRows = (await before.getDataset(typed.id))?.rows;
    await before.close();

    const store = await open(dataDir);
    expect(await store.listDatasetRows(sales.datasetId, { limit: 1_000, offset: 0 })).toEqual(
      salesRows,
    );
    // Sums agree to the engines' rounding (each adds in its own order).
    const moved = await totals(store, sales.datasetId);
    expect(moved.rows).toBe(salesTotals.rows);
    expect(moved.revenue).toBeCloseTo(salesTotals.revenue, 6);
    expect((await store.getDataset(typed.id))?.rows).toEqual(typedRows);
    expect((await store.getDataset(sales.datasetId, 0))?.version).toBe(2);
    const left = await sql<{
      name: string;
    }>`select name from sqlite_master where type = 'table' and name like 'ds_%'`.execute(
      internalsOf(store).db,
    );
    expect(left.rows).toEqual([]);
    // The next write goes on from the moved rows and keys.
    const appended = await store.importIntoDataset(
      { datasetId: sales.datasetId, expectedVersion: 2, mode: "append", source: csvBytes(10, 9) },
      editor,
    );
    expect(appended.rowCount).toBe(3_007);
    const last = await store.listDatasetRows(sales.datasetId, { limit: 1, offset: 3_006 });
    expect(last?.rows[0]?.key).toBe(3_010);
    await close(store);
    const refused = await errorOf(
      openStore({ dataDir, databaseUrl: null, datasetEngine: "sqlite", seedDemo: false }),
    );
    expect(String((refused as Error).message)).toContain("SEED_DATASET_ENGINE=duckdb");
  });

  it("moves nothing when one dataset's rows cannot be moved, and says which", async () => {
    const dataDir = newDataDir();
    const before = await openStore({
      dataDir,
      databaseUrl: null,
      datasetEngine: "sqlite",
      seedDemo: false,
    });
    const first = await before.importNewDataset(
      { name: "First", source: csvBytes(200, 1) },
      editor,
    );
    const second = await before.importNewDataset(
      { name: "Second", source: csvBytes(200, 2) },
      editor,
    );
    const broken = [first.datasetId, second.datasetId].sort()[1] as string;
    await sql`drop table ${sql.table(datasetTableName(broken))}`.execute(internalsOf(before).db);
    await before.close();
    const error = await errorOf(open(dataDir));
    expect(error).toMatchObject({ name: "RowsMoveError" });
    expect(String((error as Error).message)).toContain(broken);
    // Nothing moved: the SQLite store still reads the intact dataset.
    const again = await openStore({
      dataDir,
      databaseUrl: null,
      datasetEngine: "sqlite",
      seedDemo: false,
    });
    const intact = broken === first.datasetId ? second.datasetId : first.datasetId;
    expect((await totals(again, intact)).rows).toBe(200);
    await again.close();
  });

  it("lets a command-line tool open the state beside the server that holds the data file, and refuses it the rows by name", async () => {
    const dataDir = newDataDir();
    const server = await open(dataDir);
    const created = await server.importNewDataset(
      { name: "Held", source: csvBytes(300, 3) },
      editor,
    );
    const before = await totals(server, created.datasetId);
    // A second process's open of the rows would fail on DuckDB's lock: the state-only open does not try.
    const ran = await runChild(stateOnlyChild, { dataDir, datasetId: created.datasetId });
    if (ran.code !== 0) throw new Error(`the state-only child failed (${ran.code}): ${ran.stderr}`);
    const said = ran.stdout;
    const outcome = JSON.parse(said) as { ok: boolean; rowsError: string | null };
    expect(outcome.ok).toBe(true);
    expect(outcome.rowsError).toContain("Dataset rows are not open in this process");
    expect(outcome.rowsError).toContain("seed-rows.duckdb");
    // The server saw the tool's state write, and its rows are untouched.
    const events = await server.listAuditEvents({ entityType: "user" });
    expect(events.events.map((event) => event.entityId)).toContain("user-from-cli");
    expect(await totals(server, created.datasetId)).toEqual(before);
    expect(before.rows).toBe(300);
  });

  it("answers reads and other datasets' writes while an import stages, and refuses other writes of its dataset", async () => {
    const store = await open(newDataDir());
    const other = await store.importNewDataset({ name: "Other", source: csvBytes(100, 2) }, editor);
    const target = await store.importNewDataset(
      { name: "Target", source: csvBytes(100, 3) },
      editor,
    );
    // An upload that stops after its first chunk until the test lets it go on.
    let started: () => void = () => {};
    const reading = new Promise<void>((resolve) => {
      started = resolve;
    });
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    async function* slowUpload(): AsyncGenerator<Uint8Array> {
      const encoder = new TextEncoder();
      let first = true;
      for (const chunk of salesCsvChunks(20_000, { seed: 4 })) {
        yield encoder.encode(chunk);
        if (first) {
          first = false;
          started();
          await gate;
        }
      }
    }
    const importing = store.importIntoDataset(
      { datasetId: target.datasetId, expectedVersion: 1, mode: "append", source: slowUpload() },
      editor,
    );
    await reading;
    // The import holds no lock on the state database: reads of both datasets answer.
    expect((await totals(store, other.datasetId)).rows).toBe(100);
    expect((await totals(store, target.datasetId)).rows).toBe(100);
    expect((await store.getDataset(target.datasetId, 0))?.version).toBe(1);
    // Another dataset takes writes meanwhile.
    const appended = await store.importIntoDataset(
      { datasetId: other.datasetId, expectedVersion: 1, mode: "append", source: csvBytes(5, 5) },
      editor,
    );
    expect(appended.rowCount).toBe(105);
    // Its own dataset refuses other writes, and says why; nothing of them is written.
    for (const write of [
      () => store.editDatasetRows(target.datasetId, 1, { remove: [1] }, editor),
      () => store.replaceDatasetRows(target.datasetId, 1, [], editor),
      () => store.deleteDataset(target.datasetId, 1, editor),
    ]) {
      expect(await errorOf(write())).toMatchObject({
        name: "ValidationError",
        formError: expect.stringContaining("An import into this dataset is running"),
      });
    }
    release();
    expect(await importing).toMatchObject({ version: 2, rowCount: 20_100, reader: "engine" });
    expect((await totals(store, target.datasetId)).rows).toBe(20_100);
  });

  for (const mode of ["append", "replace"] as const) {
    it(`keeps the old rows after a kill -9 in the middle of a ${mode} import, and opens cleanly`, async () => {
      const dataDir = newDataDir();
      let store = await open(dataDir);
      const created = await store.importNewDataset(
        { name: "Sales", source: csvBytes(2_000, 1) },
        editor,
      );
      const before = await totals(store, created.datasetId);
      await close(store);

      const config = {
        dataDir,
        datasetId: created.datasetId,
        expectedVersion: 1,
        mode,
        rows: 200_000,
        stopAt: 50_000,
      };
      const ran = await runChild(child, config, "loading\n");
      if (ran.signal !== "SIGKILL") throw new Error(`the child was not killed: ${ran.stderr}`);
      const outcome = { signal: ran.signal, said: ran.stdout };
      expect(outcome).toEqual({ signal: "SIGKILL", said: "loading\n" });

      store = await open(dataDir);
      const dataset = await store.getDataset(created.datasetId, 0);
      expect(dataset).toMatchObject({ version: 1, rowCount: 2_000 });
      expect(await totals(store, created.datasetId)).toEqual(before);
      const appended = await store.importIntoDataset(
        {
          datasetId: created.datasetId,
          expectedVersion: 1,
          mode: "append",
          source: csvBytes(10, 9),
        },
        editor,
      );
      expect(appended).toMatchObject({ version: 2, rowCount: 2_010 });
    });
  }
});
