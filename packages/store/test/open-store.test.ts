import { chmodSync, existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { demoDashboardSlug, draftDemoDashboardSlug, openStore } from "../src/index.js";
import { internalsOf } from "../src/raw-handles.js";
import { editor } from "./actors.js";
import { createTestDatabase, dialects, errorOf, openTestStore, salesInput } from "./helpers.js";

describe.each(dialects)("openStore on %s", (dialect) => {
  it("migrates and seeds the demo once, however often it is opened", async () => {
    const database = await createTestDatabase(dialect);

    const first = await openStore(database.options);
    const countsAfterFirst = await first.getOverviewCounts();
    await first.close();
    const second = await openStore(database.options);
    const countsAfterSecond = await second.getOverviewCounts();
    const appliedAgain = await second.migrate();
    await second.close();

    expect(first.dialect).toBe(dialect);
    expect(countsAfterFirst).toMatchObject({
      datasets: 3,
      charts: 5,
      dashboards: 2,
      publishedDashboards: 1,
      draftDashboards: 1,
    });
    expect(countsAfterSecond).toEqual(countsAfterFirst);
    expect(appliedAgain).toEqual([]);
  });

  it("migrates and seeds once when four instances open one empty database at the same moment", async () => {
    const database = await createTestDatabase(dialect);

    const stores = await Promise.all(
      Array.from({ length: 4 }, () => openStore({ ...database.options, maxConnections: 2 })),
    );
    database.openStores.push(...stores);
    const counts = await Promise.all(stores.map((store) => store.getOverviewCounts()));

    expect(counts.map((count) => count.dashboards)).toEqual([2, 2, 2, 2]);
  });

  it("runExclusive never lets two instances' setup work overlap", async () => {
    const database = await createTestDatabase(dialect);
    const stores = await Promise.all(
      Array.from({ length: 3 }, () => openStore({ ...database.options, seedDemo: false })),
    );
    database.openStores.push(...stores);
    let inside = 0;
    let most = 0;
    const order: number[] = [];

    await Promise.all(
      stores.flatMap((store, index) =>
        [0, 1].map(() =>
          store.runExclusive(async () => {
            inside += 1;
            most = Math.max(most, inside);
            // Real database work inside, as better-auth's migrations would do.
            await store.listDatasets();
            await store.listDashboards();
            order.push(index);
            inside -= 1;
          }),
        ),
      ),
    );

    expect(most).toBe(1);
    expect(order).toHaveLength(6);
  });

  it("serves the published demo dashboard with a chart of each type and stat tiles", async () => {
    const store = await openTestStore(dialect);

    const demo = await store.getDashboardBySlug(demoDashboardSlug);

    expect(demo?.dashboard).toMatchObject({ title: "Store performance", status: "published" });
    const chartTypes = demo?.tiles.flatMap((tile) =>
      tile.kind === "chart" ? [tile.chart.type] : [],
    );
    expect(chartTypes?.sort()).toEqual(["area", "bar", "bar", "line", "pie"]);
    const stats = demo?.tiles.flatMap((tile) => (tile.kind === "stat" ? [tile] : [])) ?? [];
    expect(stats.map((tile) => tile.icon)).toEqual([
      "crown",
      "shopping-cart",
      "thumbs-up",
      "building",
      "database",
    ]);
    expect(stats.every((tile) => typeof tile.value === "number")).toBe(true);
    expect(demo?.tiles.map((tile) => tile.position)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    // Revenue per month by region: the last 12 months including this one, each that has data
    // (the demo's days end yesterday, so on the first of a month this one has none yet: 11),
    // top 3 regions and the rest as Other.
    const byRegion = demo?.tiles.find(
      (tile) => tile.kind === "chart" && tile.chart.title === "Revenue per month by region",
    );
    const labels = byRegion?.kind === "chart" ? byRegion.result?.series.map((s) => s.label) : [];
    expect(labels).toHaveLength(4);
    expect(labels?.at(-1)).toBe("Other");
    expect(new Set(labels?.slice(0, 3)).size).toBe(3);
    const today = new Date();
    const yesterday = new Date(
      Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() - 1),
    );
    const months = yesterday.getUTCMonth() === today.getUTCMonth() ? 12 : 11;
    expect(byRegion?.kind === "chart" && byRegion.result?.rows.length).toBe(months);
    // Revenue last month, compared with the month before.
    const lastMonth = stats.find((tile) => tile.label === "Revenue last month");
    expect(lastMonth?.deltaLabel).toBe("vs previous period");
    expect(typeof lastMonth?.delta).toBe("number");
  });

  it("keeps the draft demo dashboard off public lists", async () => {
    const store = await openTestStore(dialect);

    const published = await store.listPublishedDashboards();
    const hidden = await store.getDashboardBySlug(draftDemoDashboardSlug);
    const shownToEditors = await store.getDashboardBySlug(draftDemoDashboardSlug, {
      includeDrafts: true,
    });

    expect(published.map((dashboard) => dashboard.slug)).toEqual([demoDashboardSlug]);
    expect(hidden).toBeNull();
    expect(shownToEditors?.dashboard.status).toBe("draft");
  });

  it("seeds the same figures on every fresh database", async () => {
    const first = await openTestStore(dialect);
    const second = await openTestStore(dialect);

    const values = async (store: typeof first) =>
      (await store.getDashboardBySlug(demoDashboardSlug))?.tiles.map((tile) =>
        tile.kind === "stat"
          ? [tile.label, tile.value, tile.delta]
          : tile.kind === "chart"
            ? [tile.chart.title, tile.result?.rows]
            : [tile.markdown],
      );

    expect(await values(first)).toEqual(await values(second));
  });

  it("opens without the demo when seeding is turned off", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });

    const counts = await store.getOverviewCounts();

    expect(counts).toMatchObject({ datasets: 0, charts: 0, dashboards: 0, auditEvents: 0 });
  });

  it("exposes what better-auth needs", async () => {
    const store = await openTestStore(dialect);

    expect(store.authDatabase).toEqual({ db: internalsOf(store).db, type: dialect });
    if (dialect === "sqlite") expect(internalsOf(store).database).toBeInstanceOf(BetterSqlite3);
    else
      expect(typeof (internalsOf(store).database as { connect?: unknown }).connect).toBe(
        "function",
      );
  });
});

describe("openStore on sqlite", () => {
  it("creates <dataDir>/seed.db in WAL mode with foreign keys and a busy timeout", async () => {
    const database = await createTestDatabase("sqlite");
    const store = await openStore(database.options);

    const sqlite = internalsOf(store).database as BetterSqlite3.Database;
    const file = path.join(database.dataDir ?? "", "seed.db");
    const settings = {
      journal: sqlite.pragma("journal_mode", { simple: true }),
      foreignKeys: sqlite.pragma("foreign_keys", { simple: true }),
      busyTimeout: sqlite.pragma("busy_timeout", { simple: true }),
    };
    await store.close();

    expect(existsSync(file)).toBe(true);
    expect(store.sqliteFile).toBe(file);
    expect(settings).toEqual({ journal: "wal", foreignKeys: 1, busyTimeout: 5000 });
  });

  it("seeds once when the same file is opened twice at the same time", async () => {
    const database = await createTestDatabase("sqlite");

    const stores = await Promise.all([openStore(database.options), openStore(database.options)]);
    database.openStores.push(...stores);
    const counts = await Promise.all(stores.map((store) => store.getOverviewCounts()));

    expect(counts.map((count) => count.dashboards)).toEqual([2, 2]);
  });

  it("takes the write lock when a write transaction starts, not at its first write", async () => {
    const database = await createTestDatabase("sqlite");
    const store = await openStore({ ...database.options, seedDemo: false });
    database.openStores.push(store);
    const otherProcess = new BetterSqlite3(store.sqliteFile ?? "");
    otherProcess.pragma("busy_timeout = 0");
    const writeFromOtherProcess = () =>
      otherProcess
        .prepare("insert into store_meta (key, value) values (?, ?)")
        .run(crypto.randomUUID(), "x");

    let duringWrite: unknown = null;
    await internalsOf(store)
      .db.transaction()
      .execute(async (trx) => {
        await trx.selectFrom("datasets").select("id").execute();
        try {
          writeFromOtherProcess();
        } catch (error) {
          duringWrite = error;
        }
      });
    let duringRead: unknown = null;
    await internalsOf(store)
      .db.transaction()
      .setAccessMode("read only")
      .execute(async (trx) => {
        await trx.selectFrom("datasets").select("id").execute();
        try {
          writeFromOtherProcess();
        } catch (error) {
          duringRead = error;
        }
      });
    otherProcess.close();

    expect(duringWrite).toMatchObject({ code: "SQLITE_BUSY" });
    expect(duringRead).toBeNull();
  });

  it("creates a missing data folder", async () => {
    const database = await createTestDatabase("sqlite");
    const dataDir = path.join(database.dataDir ?? "", "nested", "data");

    const store = await openStore({ databaseUrl: null, dataDir });
    await store.close();

    expect(existsSync(path.join(dataDir, "seed.db"))).toBe(true);
  });

  // Generated variants: each looser mode a folder or file may already have before the first open.
  it.each([0o755, 0o775, 0o777, 0o750])(
    "makes the data folder 0700 and every file in it 0600 when it already exists as %o",
    async (looseMode) => {
      const database = await createTestDatabase("sqlite");
      const dataDir = path.join(database.dataDir ?? "", "existing");
      mkdirSync(dataDir, { mode: looseMode });
      chmodSync(dataDir, looseMode);
      const stray = path.join(dataDir, "auth-secret");
      writeFileSync(stray, "x".repeat(40), { mode: looseMode & 0o666 });
      chmodSync(stray, looseMode & 0o666);

      const store = await openStore({ databaseUrl: null, dataDir });
      await store.createDataset(salesInput(), editor);
      const files = readdirSync(dataDir);
      const modes = Object.fromEntries(
        files.map((name) => [name, statSync(path.join(dataDir, name)).mode & 0o777]),
      );
      await store.close();

      expect(statSync(dataDir).mode & 0o777).toBe(0o700);
      expect(files).toEqual(expect.arrayContaining(["seed.db", "seed.db-wal", "seed.db-shm"]));
      for (const name of files) expect({ name, mode: modes[name] }).toEqual({ name, mode: 0o600 });
    },
  );

  it("creates a missing data folder 0700 and the database 0600", async () => {
    const database = await createTestDatabase("sqlite");
    const dataDir = path.join(database.dataDir ?? "", "fresh", "data");

    const store = await openStore({ databaseUrl: null, dataDir });
    await store.close();

    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    expect(statSync(path.join(dataDir, "seed.db")).mode & 0o777).toBe(0o600);
  });

  it("names the PostgreSQL server it could not reach, without the password", async () => {
    const error = await errorOf(
      openStore({ databaseUrl: "postgresql://seed:s3cret-pass@127.0.0.1:1/seed" }),
    );

    expect((error as Error).message).toMatch(
      /^Could not open the PostgreSQL database at postgresql:\/\/seed@127\.0\.0\.1:1\/seed: /,
    );
    expect((error as Error).message).not.toContain("s3cret-pass");
  });

  it("rejects a DATABASE_URL that is not a postgres URL", async () => {
    await expect(openStore({ databaseUrl: "mysql://localhost/seed" })).rejects.toThrow(
      /postgres:\/\/ or postgresql:\/\//,
    );
  });
});
