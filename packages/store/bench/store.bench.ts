// Prints timings for the store's heavy paths; run with `pnpm --filter @seed/store bench`.
import type { DatasetRow } from "@seed/model";
import { afterAll, bench, describe } from "vitest";
import { parseCsvDataset, type Store, type StoreDialect } from "../src/index.js";
import { dialects, openSuiteStore, sumStat } from "../test/helpers.js";

const actor = { id: "bench", email: "bench@example.com", role: "editor" } as const;
const options = { time: 1_000, iterations: 3, warmupIterations: 1 };

function bigRows(count: number): DatasetRow[] {
  return Array.from({ length: count }, (_, index) => ({
    day: new Date(Date.UTC(2000, 0, 1) + index * 86_400_000).toISOString().slice(0, 10),
    revenue: (index * 7919) % 10_000,
    orders: (index * 104_729) % 500,
  }));
}

const columns = [
  { name: "day", type: "date" },
  { name: "revenue", type: "number" },
  { name: "orders", type: "number" },
] as const;

/** A store (with the demo) on a fresh database, closed and removed after the benches. */
async function openBenchStore(dialect: StoreDialect): Promise<Store> {
  const { store, close } = await openSuiteStore(dialect);
  afterAll(close);
  return store;
}

describe("parseCsvDataset", () => {
  const csv = `day,revenue,orders\n${bigRows(50_000)
    .map((row) => `${row.day},${row.revenue},${row.orders}`)
    .join("\n")}\n`;

  bench(
    `50,000 rows x 3 columns (${(csv.length / 1024 / 1024).toFixed(1)} MB)`,
    () => {
      const result = parseCsvDataset(csv);
      if (!result.ok) throw new Error(result.message);
    },
    options,
  );
});

for (const dialect of dialects) {
  describe(`store on ${dialect}`, async () => {
    const store = await openBenchStore(dialect);
    const rows = bigRows(50_000);
    const big = await store.createDataset({ name: "Big", columns: [...columns], rows }, actor);
    const chart = await store.createChart(
      {
        title: "Big line",
        type: "line",
        datasetId: big.id,
        indexColumn: "day",
        seriesColumns: ["revenue", "orders"],
      },
      actor,
    );
    await store.createDashboard(
      {
        title: "Big",
        slug: "big",
        published: true,
        tiles: [{ kind: "chart", chartId: chart.id }, sumStat(big.id)],
      },
      actor,
    );

    bench(
      "getDashboardBySlug(demo)",
      async () => {
        await store.getDashboardBySlug("demo");
      },
      options,
    );

    bench(
      "getDashboardBySlug with a 50,000-row dataset",
      async () => {
        await store.getDashboardBySlug("big");
      },
      options,
    );

    bench(
      "createDataset with 50,000 rows",
      async () => {
        await store.createDataset({ name: "Copy", columns: [...columns], rows }, actor);
      },
      options,
    );

    bench(
      "listAuditEvents (50 newest)",
      async () => {
        await store.listAuditEvents({ limit: 50 });
      },
      options,
    );
  });
}
