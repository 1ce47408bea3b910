import { describe, expect, it } from "vitest";
import { createResultCache } from "../src/engine/result-cache.js";
import { openStore, type QueryTiming, type Store } from "../src/index.js";
import { editor } from "./actors.js";
import { createTestDatabase, engines, openTestStore, salesInput, textStream } from "./helpers.js";

const byRegion = {
  x: { column: "region" },
  measures: [{ column: "revenue", aggregate: "sum" as const }],
};

async function appendRow(store: Store, datasetId: string, line: string) {
  const dataset = await store.getDataset(datasetId);
  if (!dataset) throw new Error("no dataset");
  await store.importIntoDataset(
    {
      datasetId,
      expectedVersion: dataset.version,
      mode: "append",
      source: textStream(`month,region,revenue,orders\n${line}\n`),
    },
    editor,
  );
}

describe.each(engines)("query results cached per dataset version on %s", (dialect) => {
  it("answers a repeated query from the cache, and a write makes it ask the database again", async () => {
    const timings: QueryTiming[] = [];
    const store = await openTestStore(dialect, {
      seedDemo: false,
      observeQuery: (timing) => timings.push(timing),
    });
    const dataset = await store.createDataset(salesInput(), editor);

    const first = await store.runChartQuery(dataset.id, byRegion);
    const second = await store.runChartQuery(dataset.id, byRegion);
    expect(second).toEqual(first);
    expect(timings.map((timing) => timing.cached ?? false)).toEqual([false, true]);

    await appendRow(store, dataset.id, "2025-04-01,North,5,1");
    const third = await store.runChartQuery(dataset.id, byRegion);
    expect(timings.at(-1)?.cached).toBeUndefined();
    expect(third.rows).toEqual([
      { x: "North", m0: 225 },
      { x: "South", m0: 150 },
    ]);
  });

  it("keeps two stat tiles apart that differ only in what they compare with", async () => {
    const store = await openTestStore(dialect, {
      seedDemo: false,
      now: () => new Date("2026-03-15T12:00:00Z"),
    });
    const dataset = await store.createDataset(
      {
        ...salesInput(),
        rows: [
          { month: "2025-03-01", region: "North", revenue: 100, orders: 4 },
          { month: "2026-02-01", region: "North", revenue: 50, orders: 2 },
          { month: "2026-03-01", region: "North", revenue: 200, orders: 8 },
        ],
      },
      editor,
    );
    const thisMonth = {
      kind: "stat" as const,
      datasetId: dataset.id,
      column: "revenue",
      aggregation: "sum" as const,
      filters: [
        {
          column: "month",
          op: "relative" as const,
          unit: "month" as const,
          which: "this" as const,
        },
      ],
      compare: true,
    };
    await store.createDashboard(
      {
        title: "Comparisons",
        slug: "comparisons",
        published: true,
        tiles: [
          { ...thisMonth, label: "Against February" },
          { ...thisMonth, label: "Against March 2025", compareWith: "previous_year" },
        ],
      },
      editor,
    );
    const [february, lastYear] = (await store.getDashboardBySlug("comparisons"))?.tiles ?? [];
    // March 2026 (200) against February 2026 (50), and against March 2025 (100).
    expect(february).toMatchObject({ value: 200, delta: 3, deltaLabel: "vs previous period" });
    expect(lastYear).toMatchObject({
      value: 200,
      delta: 1,
      deltaLabel: "vs same period last year",
    });
  });

  it("asks again on a new local day when a filter is relative to today", async () => {
    let now = new Date("2025-03-31T12:00:00Z");
    const store = await openTestStore(dialect, { seedDemo: false, now: () => now });
    const dataset = await store.createDataset(salesInput(), editor);
    const thisMonth = {
      ...byRegion,
      filters: [
        {
          column: "month",
          op: "relative" as const,
          unit: "month" as const,
          which: "this" as const,
        },
      ],
    };
    const march = await store.runChartQuery(dataset.id, thisMonth);
    expect(march.rows).toEqual([{ x: "North", m0: 120 }]);
    now = new Date("2025-04-01T12:00:00Z");
    const april = await store.runChartQuery(dataset.id, thisMonth);
    expect(april.rows).toEqual([]);
  });

  it("keeps no errors: a failing query fails again", async () => {
    const timings: QueryTiming[] = [];
    const store = await openTestStore(dialect, {
      seedDemo: false,
      observeQuery: (timing) => timings.push(timing),
    });
    const dataset = await store.createDataset(salesInput(), editor);
    const bad = {
      x: { column: "region" },
      measures: [{ column: "gone", aggregate: "sum" as const }],
    };
    await expect(store.runChartQuery(dataset.id, bad)).rejects.toThrow();
    await expect(store.runChartQuery(dataset.id, bad)).rejects.toThrow();
    expect(timings.map((timing) => [timing.ok, timing.cached ?? false])).toEqual([
      [false, false],
      [false, false],
    ]);
  });

  it("a write through one instance is seen by another instance's next query", async () => {
    const database = await createTestDatabase(dialect);
    const a = await openStore({ ...database.options, seedDemo: false });
    database.openStores.push(a);
    const b = await openStore({ ...database.options, seedDemo: false });
    database.openStores.push(b);
    const dataset = await a.createDataset(salesInput(), editor);

    expect((await a.runChartQuery(dataset.id, byRegion)).rows[1]).toEqual({ x: "South", m0: 150 });
    await appendRow(b, dataset.id, "2025-04-01,South,50,1");
    expect((await a.runChartQuery(dataset.id, byRegion)).rows[1]).toEqual({ x: "South", m0: 200 });
  });
});

describe("the result cache", () => {
  it("stays within its byte bound, dropping the least recently used", async () => {
    const cache = createResultCache(10_000);
    const big = { rows: Array.from({ length: 100 }, (_, index) => ({ x: index, m0: index })) };
    for (let index = 0; index < 50; index++) {
      await cache.through(`k${index}`, async () => big);
    }
    const stats = cache.stats();
    expect(stats.bytes).toBeLessThanOrEqual(10_000);
    expect(stats.entries).toBeGreaterThan(0);
    expect(stats.entries).toBeLessThan(50);
    expect((await cache.through("k49", async () => ({ rows: [] }))).hit).toBe(true);
    expect((await cache.through("k0", async () => ({ rows: [] }))).hit).toBe(false);
  });

  it("runs one query for concurrent asks of the same key", async () => {
    const cache = createResultCache();
    let runs = 0;
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const work = async () => {
      runs++;
      await gate;
      return { rows: [1] };
    };
    const asks = [cache.through("k", work), cache.through("k", work), cache.through("k", work)];
    release();
    const answers = await Promise.all(asks);
    expect(runs).toBe(1);
    expect(answers.map((answer) => answer.hit)).toEqual([false, true, true]);
  });
});
