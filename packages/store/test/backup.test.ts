import { copyFileSync, mkdtempSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { BackupError, backupDatabase, openStore, restoreDatabase } from "../src/index.js";
import { editor } from "./actors.js";
import { createTestDatabase, engines, errorOf, salesInput } from "./helpers.js";

function locationOf(database: Awaited<ReturnType<typeof createTestDatabase>>) {
  return {
    databaseUrl: database.options.databaseUrl ?? null,
    dataDir: database.dataDir ?? mkdtempSync(path.join(tmpdir(), "seed-backup-unused-")),
  };
}

describe.each(engines)("backup and restore on %s", (dialect) => {
  it("round-trips every dataset, row, chart, dashboard and audit event", async () => {
    const source = await createTestDatabase(dialect);
    const store = await openStore({ ...source.options });
    source.openStores.push(store);
    const dataset = await store.createDataset(salesInput("Backed up"), editor);
    await store.createChart(
      {
        title: "Revenue",
        type: "bar",
        datasetId: dataset.id,
        indexColumn: "month",
        seriesColumns: ["revenue"],
      },
      editor,
    );
    const file = path.join(mkdtempSync(path.join(tmpdir(), "seed-backup-")), "seed.backup");
    if (dialect === "duckdb") {
      // The data file is one process's: the backup wants the store closed, and says so.
      expect(String(await errorOf(backupDatabase(locationOf(source), file)))).toContain(
        "close it first",
      );
      await store.close();
      source.openStores.splice(source.openStores.indexOf(store), 1);
    }

    const result = await backupDatabase(locationOf(source), file);
    expect(result.engine).toBe(dialect === "duckdb" ? "sqlite" : dialect);
    if (dialect === "duckdb") expect(result.dataFile).toBe(`${file}.rows.duckdb`);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    await expect(backupDatabase(locationOf(source), file)).rejects.toThrow(/exists/);

    const target = await createTestDatabase(dialect);
    await restoreDatabase(locationOf(target), file);
    const restored = await openStore({ ...target.options });
    target.openStores.push(restored);
    // The source store, reopened for the comparison (on DuckDB the backup wanted it closed).
    const original = dialect === "duckdb" ? await openStore({ ...source.options }) : store;
    if (original !== store) source.openStores.push(original);
    const summary = async (which: typeof store) => ({
      datasets: (await which.listDatasets()).map((entry) => [entry.name, entry.rowCount]),
      charts: (await which.listCharts()).map((chart) => [chart.title, chart.type]),
      dashboards: (await which.listDashboards()).map((entry) => entry.slug),
      rows: (await which.getDataset(dataset.id))?.rows,
      audit: (await which.listAuditEvents({ limit: 100 })).events.map((event) => event.id),
    });
    expect(await summary(restored)).toEqual(await summary(original));
    expect((await summary(restored)).audit.length).toBeGreaterThan(0);

    if (dialect === "duckdb") {
      // The SQLite half of a backup alone is refused: its rows are in the data file's copy.
      const alone = path.join(mkdtempSync(path.join(tmpdir(), "seed-backup-half-")), "seed.backup");
      copyFileSync(file, alone);
      const empty = await createTestDatabase(dialect);
      const half = await errorOf(restoreDatabase(locationOf(empty), alone));
      expect(half).toBeInstanceOf(BackupError);
      expect(String(half)).toContain("is missing");
    }

    // A target that already holds a store is refused, then replaced when asked.
    const refused = await errorOf(restoreDatabase(locationOf(target), file));
    expect(refused).toBeInstanceOf(BackupError);
  });

  it("refuses a file that is not a backup and leaves the target as it was", async () => {
    const target = await createTestDatabase(dialect);
    const store = await openStore({ ...target.options, seedDemo: false });
    target.openStores.push(store);
    await store.createDataset(salesInput("Kept"), editor);
    const junk = path.join(mkdtempSync(path.join(tmpdir(), "seed-junk-")), "junk.backup");
    writeFileSync(junk, "not a database at all");

    const error = await errorOf(restoreDatabase(locationOf(target), junk, { replace: true }));

    expect(error).toBeInstanceOf(BackupError);
    expect((await store.listDatasets()).map((entry) => entry.name)).toEqual(["Kept"]);
  });
});
