import type { ChartInput, DashboardInput, DatasetInput, DatasetRow } from "@seed/model";
import { randomWalk, seededRandom } from "@seed/sample-data";
import { type Actor, authorize } from "../access/policy.js";
import type { Executor, StoreContext } from "../context.js";
import { createChartIn } from "../repo/charts.js";
import { createDashboardIn } from "../repo/dashboards/dashboards.js";
import { createDatasetIn } from "../repo/datasets/datasets.js";

/** The actor recorded for changes the store makes by itself; the demo is content, so an editor. */
export const systemActor: Actor = {
  id: "system",
  email: "system@seed-charts.invalid",
  role: "editor",
};

export const demoDashboardSlug = "demo";
export const draftDemoDashboardSlug = "marketing-funnel";

// Fixed figures (no randomness) so every fresh database shows the same demo.
const months = [
  "2025-01-01",
  "2025-02-01",
  "2025-03-01",
  "2025-04-01",
  "2025-05-01",
  "2025-06-01",
  "2025-07-01",
  "2025-08-01",
  "2025-09-01",
  "2025-10-01",
  "2025-11-01",
  "2025-12-01",
];
const online = [42100, 39800, 45600, 47200, 51900, 53400, 50800, 55200, 58700, 61300, 72400, 84900];
const retail = [31500, 29700, 32800, 33100, 34900, 35600, 33800, 34200, 36500, 37900, 44100, 52300];
const marketplace = [
  12800, 12100, 13900, 14700, 15800, 16900, 16200, 17400, 18800, 19600, 23700, 27900,
];
const orders = [1184, 1109, 1262, 1301, 1398, 1442, 1379, 1467, 1536, 1590, 1872, 2195];
const satisfaction = [0.87, 0.88, 0.88, 0.89, 0.9, 0.9, 0.89, 0.91, 0.91, 0.92, 0.9, 0.93];

function monthlySalesRows(): DatasetRow[] {
  return months.map((month, index) => {
    const channels = {
      online: online[index] ?? 0,
      retail: retail[index] ?? 0,
      marketplace: marketplace[index] ?? 0,
    };
    return {
      month,
      ...channels,
      revenue: channels.online + channels.retail + channels.marketplace,
      orders: orders[index] ?? 0,
      satisfaction: satisfaction[index] ?? 0,
    };
  });
}

const trafficRows: DatasetRow[] = [
  { source: "Organic search", visits: 48200, conversions: 1530 },
  { source: "Direct", visits: 31900, conversions: 1210 },
  { source: "Social", visits: 22400, conversions: 512 },
  { source: "Email", visits: 14800, conversions: 890 },
  { source: "Referral", visits: 9600, conversions: 301 },
  { source: "Paid search", visits: 17300, conversions: 744 },
];

const regions = ["North", "South", "East", "West", "Islands"] as const;
// Skewed like real sales: a few regions carry most of the revenue.
const regionShare = [0.38, 0.27, 0.17, 0.11, 0.07];

/**
 * Two years of daily revenue per region, ending the day before `today`, so "last month" always
 * has data: a random walk from a fixed seed, so the figures depend only on the seed day.
 */
export function dailyRegionRows(today: Date): DatasetRow[] {
  const random = seededRandom(20_250_101);
  const days = 730;
  const end = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate());
  const level = regions.map(() => randomWalk(random, { start: 1, step: 0.04, min: 0.6, max: 1.4 }));
  const rows: DatasetRow[] = [];
  for (let index = days; index >= 1; index--) {
    const day = new Date(end - index * 86_400_000).toISOString().slice(0, 10);
    const growth = 1 + (days - index) / days / 2;
    for (const [position, region] of regions.entries()) {
      const revenue = Math.round(
        9_000 * (regionShare[position] ?? 0) * growth * (level[position]?.() ?? 1),
      );
      rows.push({ day, region, revenue, orders: Math.max(1, Math.round(revenue / 48)) });
    }
  }
  return rows;
}

/** Creates the demo datasets, charts and dashboards on the caller's transaction. */
export async function seedDemo(trx: Executor, ctx: StoreContext): Promise<void> {
  const actor = authorize(systemActor, "content.write");
  const dataset = (input: DatasetInput) => createDatasetIn(trx, ctx, input, actor);
  const chart = (input: ChartInput) => createChartIn(trx, ctx, input, actor);
  const dashboard = (input: DashboardInput) => createDashboardIn(trx, ctx, input, actor);
  const sales = await dataset({
    name: "Monthly sales by channel",
    description: "Revenue (USD) per sales channel, orders and customer satisfaction, 2025.",
    columns: [
      { name: "month", type: "date" },
      { name: "online", type: "number" },
      { name: "retail", type: "number" },
      { name: "marketplace", type: "number" },
      { name: "revenue", type: "number" },
      { name: "orders", type: "number" },
      { name: "satisfaction", type: "number" },
    ],
    rows: monthlySalesRows(),
  });
  const traffic = await dataset({
    name: "Traffic by source",
    description: "Site visits and conversions per acquisition source, 2025.",
    columns: [
      { name: "source", type: "string" },
      { name: "visits", type: "number" },
      { name: "conversions", type: "number" },
    ],
    rows: trafficRows,
  });
  const usd = { style: "currency", currency: "USD", notation: "compact" } as const;
  const daily = await dataset({
    name: "Daily revenue by region",
    description: "Two years of daily revenue and orders for five sales regions.",
    columns: [
      { name: "day", type: "date" },
      { name: "region", type: "string" },
      { name: "revenue", type: "number" },
      { name: "orders", type: "number" },
    ],
    rows: dailyRegionRows(ctx.now()),
  });
  const regionChart = await chart({
    title: "Revenue per month by region",
    type: "bar",
    datasetId: daily.id,
    query: {
      x: { column: "day", grain: "month" },
      measures: [{ column: "revenue", aggregate: "sum", label: "Revenue" }],
      breakdown: { column: "region", top: 3 },
      filters: [{ column: "day", op: "relative", unit: "month", which: "last_n", n: 12 }],
    },
    options: { stack: "stacked", numberFormat: usd, showLegend: true },
  });
  const ordersChart = await chart({
    title: "Orders per month",
    type: "line",
    datasetId: sales.id,
    indexColumn: "month",
    seriesColumns: ["orders"],
    options: { curve: "monotone", numberFormat: { style: "decimal" } },
  });
  const revenueChart = await chart({
    title: "Revenue by channel",
    type: "area",
    datasetId: sales.id,
    indexColumn: "month",
    seriesColumns: ["online", "retail", "marketplace"],
    options: { stack: "stacked", curve: "monotone", numberFormat: usd, showLegend: true },
  });
  const trafficChart = await chart({
    title: "Visits and conversions by source",
    type: "bar",
    datasetId: traffic.id,
    indexColumn: "source",
    seriesColumns: ["visits", "conversions"],
    options: { numberFormat: { notation: "compact" }, showLegend: true },
  });
  const shareChart = await chart({
    title: "Traffic share by source",
    type: "pie",
    datasetId: traffic.id,
    indexColumn: "source",
    seriesColumns: ["visits"],
    options: { donut: true, showLegend: true },
  });
  await dashboard({
    title: "Store performance",
    slug: demoDashboardSlug,
    description: "Sales, orders and traffic of the demo store across 2025.",
    icon: "shopping-cart",
    published: true,
    tiles: [
      {
        kind: "stat",
        label: "Revenue in 2025",
        datasetId: sales.id,
        column: "revenue",
        aggregation: "sum",
        format: usd,
        icon: "crown",
      },
      {
        kind: "stat",
        label: "Orders in December",
        datasetId: sales.id,
        column: "orders",
        aggregation: "last",
        format: { style: "decimal" },
        icon: "shopping-cart",
      },
      {
        kind: "stat",
        label: "Customer satisfaction",
        datasetId: sales.id,
        column: "satisfaction",
        aggregation: "last",
        format: { style: "percent", maximumFractionDigits: 0 },
        icon: "thumbs-up",
      },
      {
        kind: "stat",
        label: "Revenue last month",
        datasetId: daily.id,
        column: "revenue",
        aggregation: "sum",
        filters: [{ column: "day", op: "relative", unit: "month", which: "previous" }],
        compare: true,
        format: usd,
        icon: "building",
      },
      {
        kind: "stat",
        label: "Tracked visits",
        datasetId: traffic.id,
        column: "visits",
        aggregation: "sum",
        format: { notation: "compact" },
        icon: "database",
      },
      { kind: "chart", chartId: revenueChart.id },
      { kind: "chart", chartId: regionChart.id },
      { kind: "chart", chartId: ordersChart.id },
      { kind: "chart", chartId: trafficChart.id },
      { kind: "chart", chartId: shareChart.id },
    ],
  });
  await dashboard({
    title: "Marketing funnel",
    slug: draftDemoDashboardSlug,
    description: "Work in progress: where visitors come from and how many convert.",
    icon: "bookmark",
    published: false,
    tiles: [
      {
        kind: "stat",
        label: "Conversions",
        datasetId: traffic.id,
        column: "conversions",
        aggregation: "sum",
        format: { style: "decimal" },
        icon: "handshake",
      },
      { kind: "chart", chartId: trafficChart.id },
    ],
  });
}

/** Seeds once per database: the marker row and the demo commit together or not at all. */
export async function seedDemoOnce(ctx: StoreContext): Promise<boolean> {
  return ctx.db.transaction().execute(async (trx) => {
    const marker = await trx
      .insertInto("store_meta")
      .values({ key: "demo_seeded_at", value: ctx.now().toISOString() })
      .onConflict((oc) => oc.column("key").doNothing())
      .executeTakeFirst();
    if (Number(marker.numInsertedOrUpdatedRows ?? 0) === 0) return false;
    await seedDemo(trx, ctx);
    return true;
  });
}
