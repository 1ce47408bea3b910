import { createReadStream } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import {
  acceptedOptions,
  type ChartQueryInput,
  type ChartType,
  type DashboardFile,
  type DashboardFileTile,
  dashboardFileJsonSchema,
  type FileChartOptions,
  flowLayout,
  queryShape,
  unsafeMarkdownLink,
} from "@seed/model";
import { printDashboardFile, readDashboardFile } from "@seed/model/file";
import { Ajv2020 } from "ajv/dist/2020.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Store } from "../src/index.js";
import { editor, viewer } from "./actors.js";
import { dialects, errorOf, openTestStore, salesInput } from "./helpers.js";

// Dashboards as files (issue 30): any valid file, imported and exported again, is the same file;
// importing it again changes nothing; a bad file changes nothing and says where it is wrong.

const seed = Number(process.env.SEED_PROPERTY_SEED ?? Date.now() % 2_147_483_647);
console.log(`dashboard-file seed: ${seed} (rerun with SEED_PROPERTY_SEED=${seed})`);

// The package exports only its script (build/index.js); the data files sit beside build/.
const vegaDir = join(
  dirname(createRequire(import.meta.url).resolve("vega-datasets")),
  "..",
  "data",
);

/** The datasets files name: a real public table and a generated one, by slug. */
const datasets = [
  {
    slug: "seattle_weather",
    date: "date",
    category: "weather",
    numbers: ["precipitation", "temp_max", "wind"],
    columns: [
      { name: "date", type: "date" },
      { name: "precipitation", type: "number" },
      { name: "temp_max", type: "number" },
      { name: "temp_min", type: "number" },
      { name: "wind", type: "number" },
      { name: "weather", type: "string" },
    ],
  },
  {
    slug: "store_sales",
    date: "month",
    category: "region",
    numbers: ["revenue", "orders"],
    columns: [
      { name: "month", type: "date" },
      { name: "region", type: "string" },
      { name: "revenue", type: "number" },
      { name: "orders", type: "number" },
    ],
  },
] as const;
type Dataset = (typeof datasets)[number];

async function storeWithDatasets(dialect: (typeof dialects)[number]): Promise<Store> {
  const store = await openTestStore(dialect, { seedDemo: false });
  await store.importNewDataset(
    {
      name: "Seattle weather",
      source: createReadStream(join(vegaDir, "seattle-weather.csv")),
    },
    editor,
  );
  await store.createDataset(salesInput("Store sales"), editor);
  return store;
}

// Text that YAML must quote or keep exactly: words it would read as null, booleans or numbers,
// its own punctuation, leading and trailing spaces inside, other scripts and emoji.
const awkward = fc.constantFrom(
  "null",
  "~",
  "yes",
  "No",
  "1e3",
  "0x1F",
  "- item",
  "#hash",
  "a: b",
  "@at",
  "'single'",
  '"double"',
  "Ünïcödé – 収益 😀",
  "tab\tinside",
  "&anchor *alias",
  "%percent",
);
const text = (max: number) =>
  fc
    .oneof(
      awkward,
      fc.string({ unit: "grapheme", minLength: 1, maxLength: max }),
      fc.constant("x".repeat(max)),
    )
    .map((value) => value.trim().slice(0, max))
    .filter((value) => value.length > 0);

const markdown = fc
  .oneof(
    fc
      .array(fc.oneof(text(60), fc.constantFrom("## Heading", "- a  ", "  indented", "")), {
        minLength: 1,
        maxLength: 8,
      })
      .map((lines) => lines.join("\n")),
    fc.constant(`## Notes\n\n${"word ".repeat(400)}`.slice(0, 1_999).concat("!")),
  )
  .map((value) => value.trim())
  .filter((value) => value.length > 0 && unsafeMarkdownLink(value) === null);

const tileKey = fc.oneof(
  fc.stringMatching(/^[a-z0-9]{1,10}(-[a-z0-9]{1,8}){0,2}$/),
  fc.constant(`k${"-k".repeat(31)}k`.slice(0, 64)),
);

type FileChart = Extract<DashboardFileTile, { kind: "chart" }>["chart"];

function chartOf(dataset: Dataset): fc.Arbitrary<FileChart> {
  const measure = fc.oneof(
    fc.record({
      column: fc.constantFrom(...dataset.numbers),
      aggregate: fc.constantFrom("sum", "avg", "min", "max"),
    }),
    fc.constant({ column: null, aggregate: "count" as const }),
  );
  const overTime = fc.record({
    column: fc.constant(dataset.date as string),
    grain: fc.constantFrom("day", "week", "month", "quarter", "year"),
  });
  const byCategory = fc.constant({ column: dataset.category as string });
  return fc
    .constantFrom<ChartType>("line", "area", "bar", "pie")
    .chain((type) =>
      fc.record({
        title: text(120),
        type: fc.constant(type),
        dataset: fc.constant(dataset.slug as string),
        query: fc.record(
          {
            x:
              type === "pie"
                ? byCategory
                : type === "bar"
                  ? fc.oneof(overTime, byCategory)
                  : overTime,
            measures:
              type === "pie"
                ? measure.map((one) => [one])
                : fc.uniqueArray(measure, {
                    minLength: 1,
                    maxLength: 3,
                    selector: (m) => `${m.column}:${m.aggregate}`,
                  }),
            breakdown: fc.record({
              column: fc.constant(dataset.category as string),
              top: fc.integer({ min: 1, max: 50 }),
            }),
          },
          { requiredKeys: ["x", "measures"] },
        ),
        options: fc.record(
          {
            showLegend: fc.boolean(),
            legendPosition: fc.constantFrom("bottom", "top", "left", "right"),
            curve: fc.constantFrom("linear", "monotone", "step"),
            stack: fc.constantFrom("none", "stacked", "percent"),
            horizontal: fc.boolean(),
            donut: fc.boolean(),
            valueLabels: fc.constantFrom("none", "value", "percent", "name"),
            gaps: fc.constantFrom("break", "connect"),
            // events from either dataset, by slug (kept on a time axis only)
            annotationSource: fc
              .constantFrom(...datasets)
              .map((events) => ({ dataset: events.slug, at: events.date, label: events.category })),
          },
          { requiredKeys: [] },
        ),
      }),
    )
    .map((chart) => {
      // Pie charts take no breakdown, a breakdown splits one measure by another column than x;
      // options kept are those this chart draws.
      const query: ChartQueryInput =
        chart.type === "pie" ||
        chart.query.breakdown === undefined ||
        chart.query.x.column === chart.query.breakdown.column
          ? { x: chart.query.x, measures: chart.query.measures }
          : { ...chart.query, measures: chart.query.measures.slice(0, 1) };
      const shape = queryShape(chart.type, query as never, dataset.columns);
      const options = acceptedOptions(chart.type, chart.options as FileChartOptions, shape);
      return { ...chart, query: query as never, options };
    });
}

const tileOf = (key: string): fc.Arbitrary<DashboardFileTile> =>
  fc.constantFrom(...datasets).chain((dataset) =>
    fc.oneof(
      chartOf(dataset).map((chart) => ({ key, kind: "chart" as const, chart })),
      fc.record(
        {
          key: fc.constant(key),
          kind: fc.constant("stat" as const),
          label: text(80),
          dataset: fc.constant(dataset.slug as string),
          column: fc.constantFrom(...dataset.numbers),
          aggregation: fc.constantFrom("sum", "avg", "min", "max", "count"),
          icon: fc.constantFrom("database", "folder", "crown"),
          thresholds: fc.uniqueArray(
            fc.record({
              when: fc.constantFrom("below", "at_or_above"),
              value: fc.integer({ min: -1_000_000, max: 1_000_000 }),
              tone: fc.constantFrom("good", "warning", "bad"),
            }),
            { minLength: 1, maxLength: 4, selector: (rule) => `${rule.when}:${rule.value}` },
          ),
        },
        { requiredKeys: ["key", "kind", "label", "dataset", "column", "aggregation"] },
      ) as fc.Arbitrary<DashboardFileTile>,
      markdown.map((value) => ({ key, kind: "text" as const, markdown: value })),
    ),
  );

function usedDatasets(tiles: readonly DashboardFileTile[]): Dataset[] {
  const slugs = new Set(
    tiles.flatMap((tile) =>
      tile.kind === "chart" ? [tile.chart.dataset] : tile.kind === "stat" ? [tile.dataset] : [],
    ),
  );
  return datasets.filter((dataset) => slugs.has(dataset.slug));
}

const dashboardFile = (slug: string): fc.Arbitrary<DashboardFile> =>
  fc
    .uniqueArray(tileKey, { maxLength: 8 })
    .chain(
      (keys): fc.Arbitrary<DashboardFileTile[]> =>
        keys.length === 0 ? fc.constant([]) : fc.tuple(...keys.map(tileOf)),
    )
    .chain((tiles) => {
      const used = usedDatasets(tiles);
      return fc.record({
        format: fc.constant("seed.dashboard/v1" as const),
        slug: fc.constant(slug),
        title: text(120),
        description: fc.oneof(fc.constant(""), text(500)),
        icon: fc.constantFrom(null, "bookmark", "building"),
        timeZone: fc.constantFrom(null, "UTC", "Europe/Paris", "America/New_York"),
        refreshSeconds: fc.constantFrom(null, 30, 60, 300, 900),
        published: fc.boolean(),
        embedOrigins: fc.subarray(["https://example.com", "https://*.example.org:8443"]),
        filters: fc.record({
          dateColumn:
            used.length === 0
              ? fc.constant(null)
              : fc.constantFrom(null, ...used.map((d) => d.date)),
          categories: fc.subarray(used.map((dataset) => dataset.category as string)),
        }),
        tiles: fc.constant(tiles),
        layout: fc.constant(
          Object.fromEntries(
            flowLayout(tiles.map((tile) => tile.kind)).map((place, index) => [
              tiles[index]?.key,
              place,
            ]),
          ),
        ),
      }) as fc.Arbitrary<DashboardFile>;
    });

// The JSON Schema editors complete with, checked by a well-kept validator: it must accept
// every file the format accepts.
const validatesSchema = new Ajv2020({ allErrors: true, strict: false }).compile(
  dashboardFileJsonSchema(),
);

/** The file as the format reads it back (so generated and exported files compare alike). */
function canonical(file: DashboardFile): string {
  const reading = readDashboardFile(printDashboardFile(file));
  if (!reading.ok) throw new Error(JSON.stringify(reading.problems));
  if (!validatesSchema(JSON.parse(JSON.stringify(reading.file)))) {
    throw new Error(`JSON Schema refused a valid file: ${JSON.stringify(validatesSchema.errors)}`);
  }
  return printDashboardFile(reading.file);
}

describe.each(dialects)("dashboard files on %s", (dialect) => {
  const runs = dialect === "sqlite" ? 30 : 12;

  it("file -> import -> export gives the same file, and importing it again changes nothing", async () => {
    const store = await storeWithDatasets(dialect);
    let n = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constant(null).chain(() => {
          n += 1;
          return fc.tuple(dashboardFile(`file-${n}`), dashboardFile(`file-${n}`));
        }),
        async ([first, second]) => {
          const text = canonical(first);
          const created = await store.importDashboardFile(text, editor);
          expect(created.outcome).toBe("created");
          const exported = await store.exportDashboardFile(first.slug, editor);
          expect(exported?.text).toBe(text);
          // The same file again: no write, no new version.
          const again = await store.importDashboardFile(exported?.text ?? "", editor);
          expect(again.outcome).toBe("unchanged");
          expect(again.dashboard.version).toBe(created.dashboard.version);
          // Another file for the same slug: one new version, exported as written.
          const nextText = canonical(second);
          const updated = await store.importDashboardFile(nextText, editor);
          expect(updated.dashboard.id).toBe(created.dashboard.id);
          expect(updated.dashboard.version).toBe(
            created.dashboard.version + (nextText === text ? 0 : 1),
          );
          expect((await store.exportDashboardFile(first.slug, editor))?.text).toBe(nextText);
          // A file without a layout block: tiles get places once, and keep them on each import.
          const bare = canonical({ ...second, slug: `${second.slug}-bare`, layout: {} });
          expect((await store.importDashboardFile(bare, editor)).outcome).toBe("created");
          expect((await store.importDashboardFile(bare, editor)).outcome).toBe("unchanged");
          const bareExport = await store.exportDashboardFile(`${second.slug}-bare`, editor);
          expect(Object.keys(bareExport?.file.layout ?? {}).sort()).toEqual(
            second.tiles.map((tile) => tile.key).sort(),
          );
        },
      ),
      { seed, numRuns: runs, endOnFailure: true },
    );
  }, 240_000);
});

const okFile = `format: seed.dashboard/v1
slug: weather
title: Weather
tiles:
  - key: rain
    kind: chart
    chart:
      title: Rain by month
      type: bar
      dataset: seattle_weather
      query:
        x: { column: date, grain: month }
        measures: [{ column: precipitation, aggregate: sum }]
  - key: windiest
    kind: stat
    label: Windiest day
    dataset: seattle_weather
    column: wind
    aggregation: max
layout:
  rain: { x: 0, y: 0, w: 6, h: 4 }
  windiest: { x: 6, y: 0, w: 3, h: 2 }
`;

describe("dashboard files", () => {
  it("keeps a chart tile's chart by key: a changed title is one new chart version, nothing else moves", async () => {
    const store = await storeWithDatasets("sqlite");
    const created = await store.importDashboardFile(okFile, editor);
    const chartId = created.dashboard.tiles.find((tile) => tile.kind === "chart")?.chartId ?? "";
    const statId = created.dashboard.tiles.find((tile) => tile.kind === "stat")?.id;
    const updated = await store.importDashboardFile(
      okFile.replace("Rain by month", "Rainfall by month"),
      editor,
    );
    expect(updated.outcome).toBe("updated");
    expect(updated.dashboard.version).toBe(2);
    expect(updated.dashboard.tiles.find((tile) => tile.kind === "chart")?.chartId).toBe(chartId);
    expect(updated.dashboard.tiles.find((tile) => tile.kind === "stat")?.id).toBe(statId);
    const chart = await store.getChart(chartId);
    expect(chart).toMatchObject({ title: "Rainfall by month", version: 2 });
    expect((await store.listCharts()).length).toBe(1);
  });

  it("exports a dashboard made in the editor with dataset slugs and keys from titles", async () => {
    const store = await storeWithDatasets("sqlite");
    const sales = (await store.listDatasets()).find((dataset) => dataset.name === "Store sales");
    const chart = await store.createChart(
      {
        title: "Revenue",
        type: "line",
        datasetId: sales?.id ?? "",
        indexColumn: "month",
        seriesColumns: ["revenue"],
      },
      editor,
    );
    await store.createDashboard(
      {
        title: "Sales",
        slug: "sales",
        tiles: [
          { kind: "chart", chartId: chart.id },
          { kind: "chart", chartId: chart.id },
          { kind: "text", markdown: "## Store notes\nSee the team page." },
        ],
      },
      editor,
    );
    const exported = await store.exportDashboardFile("sales", viewer);
    expect(exported?.file.tiles.map((tile) => tile.key)).toEqual([
      "revenue",
      "revenue-2",
      "store-notes-see-the-team",
    ]);
    expect(exported?.text).toContain("dataset: store_sales");
    expect(exported?.text).not.toContain(sales?.id ?? "no id");
    // Its own file, imported, changes nothing; the keys are kept from then on.
    expect((await store.importDashboardFile(exported?.text ?? "", editor)).outcome).toBe(
      "unchanged",
    );
    expect(await store.exportDashboardFile("nope", viewer)).toBeNull();
  });

  it("refuses a bad file with every problem at its path, and writes nothing", async () => {
    const store = await storeWithDatasets("sqlite");
    const bad = okFile
      .replace("dataset: seattle_weather\n      query", "dataset: seattle_weathr\n      query")
      .replace("column: wind", "column: weather");
    const error = (await errorOf(store.importDashboardFile(bad, editor))) as {
      fieldErrors: Record<string, string[]>;
    };
    expect(error.fieldErrors).toEqual({
      "tiles.0.chart.dataset": ['No dataset has the slug "seattle_weathr".'],
      "tiles.1.column": ['"weather" is a string column; max needs a number column.'],
    });
    const yaml = (await errorOf(store.importDashboardFile("format: [\n", editor))) as {
      formError: string;
    };
    expect(yaml.formError).toMatch(/^This is not valid YAML: /);
    // The JSON Schema refuses what the format refuses at a glance: an unknown field or kind.
    const refused = readDashboardFile(okFile.replace("kind: stat", "kind: gauge"));
    expect(refused.ok).toBe(false);
    expect(validatesSchema({ format: "seed.dashboard/v1", slug: "x", title: "X", extra: 1 })).toBe(
      false,
    );
    expect(
      validatesSchema({
        format: "seed.dashboard/v1",
        slug: "x",
        title: "X",
        tiles: [{ key: "a", kind: "gauge" }],
      }),
    ).toBe(false);
    expect(await store.listDashboards()).toEqual([]);
    expect(await store.listCharts()).toEqual([]);
  });

  it("refuses a chart option the chart would not draw instead of dropping it", async () => {
    const store = await storeWithDatasets("sqlite");
    const error = (await errorOf(
      store.importDashboardFile(
        okFile.replace("      query:", "      options: { stack: percent }\n      query:"),
        editor,
      ),
    )) as { fieldErrors: Record<string, string[]> };
    expect(error.fieldErrors).toEqual({
      "tiles.0.chart.options.stack": [
        "This bar chart does not draw stack with this query; remove it.",
      ],
    });
    expect(await store.listCharts()).toEqual([]);
  });

  it("a write over a newer version is a conflict; viewers cannot import", async () => {
    const store = await storeWithDatasets("sqlite");
    await store.importDashboardFile(okFile, editor);
    await store.importDashboardFile(okFile.replace("title: Weather", "title: Weather 2"), editor);
    const stale = await errorOf(store.importDashboardFile(okFile, editor, { expectedVersion: 1 }));
    expect(stale).toMatchObject({ kind: "conflict", expectedVersion: 1, currentVersion: 2 });
    expect(await errorOf(store.importDashboardFile(okFile, viewer))).toMatchObject({
      kind: "forbidden",
    });
  });
});
