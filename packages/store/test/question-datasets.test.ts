import { ValidationError } from "@seed/model";
import { describe, expect, it } from "vitest";
import type { RenderedChartTile, Store } from "../src/index.js";
import { admin, editor } from "./actors.js";
import { engines, errorOf, openTestStore, salesInput, textStream } from "./helpers.js";

// Saved SQL questions as datasets (issue 26): charts and stat tiles read a question like any
// dataset, its rows being its answer when they ask; a dashboard's date range reaches the question
// as {{from}} and {{to}}; nothing writes rows into a question; a question that can no longer run
// says why. On every engine.

const question = `select region, sum(revenue) as revenue, min(month) as month
  from sales where month between {{from}} and {{to}} group by region`;

async function salesQuestion(store: Store) {
  await store.createDataset(salesInput(), editor);
  const { id } = await store.createQuestionDataset(editor, {
    name: "Revenue by region (SQL)",
    sql: question,
  });
  return id;
}

function valuesOf(rows: readonly Record<string, unknown>[] | undefined) {
  return Object.fromEntries((rows ?? []).map((row) => [String(row.x), row.m0]));
}

describe.each(engines)("question datasets on %s", (engine) => {
  it("are datasets whose columns are the answer's, with no rows of their own", async () => {
    const store = await openTestStore(engine, { seedDemo: false });
    const id = await salesQuestion(store);
    const dataset = await store.getDataset(id);
    expect(dataset).toMatchObject({
      name: "Revenue by region (SQL)",
      question: { sql: question },
      live: null,
      rowCount: 0,
      rows: [],
      version: 1,
    });
    expect(dataset?.columns).toEqual([
      { name: "region", type: "string" },
      { name: "revenue", type: "number" },
      { name: "month", type: "date" },
    ]);
    const events = await store.listAuditEvents({ action: "dataset.create", limit: 10 });
    expect(events.events.find((event) => event.entityId === id)?.detail).toMatchObject({
      question: question.slice(0, 500),
    });
  });

  it("answer chart queries, with {{from}} and {{to}} from the options or the widest days", async () => {
    const store = await openTestStore(engine, { seedDemo: false });
    const id = await salesQuestion(store);
    const query = { x: { column: "region" }, measures: [{ column: "revenue", aggregate: "sum" }] };
    const all = await store.runChartQuery(id, query as never);
    expect(valuesOf(all.rows as never)).toEqual({ North: 220, South: 150 });
    const spring = await store.runChartQuery(id, query as never, {
      parameters: { from: "2025-02-01", to: "2025-03-31" },
    });
    expect(valuesOf(spring.rows as never)).toEqual({ North: 120, South: 150 });
  });

  it("bind a dashboard's date range to the question on its page", async () => {
    const store = await openTestStore(engine, { seedDemo: false });
    const id = await salesQuestion(store);
    const chart = await store.createChart(
      {
        title: "Revenue by region",
        type: "bar",
        datasetId: id,
        query: { x: { column: "region" }, measures: [{ column: "revenue", aggregate: "sum" }] },
      },
      editor,
    );
    await store.createDashboard(
      {
        title: "Regions",
        slug: "regions",
        published: true,
        filters: { dateColumn: "month", categories: [] },
        tiles: [{ kind: "chart", chartId: chart.id }],
      },
      editor,
    );
    const tile = async (filterQuery?: string) => {
      const page = await store.getDashboardBySlug("regions", { filterQuery });
      const first = page?.tiles[0] as RenderedChartTile | undefined;
      expect(first?.error ?? null).toBeNull();
      return valuesOf(first?.result?.rows as never);
    };
    expect(await tile()).toEqual({ North: 220, South: 150 });
    expect(await tile("from=2025-02-01&to=2025-03-31")).toEqual({ North: 120, South: 150 });
    expect(await tile("from=2025-03-01")).toEqual({ North: 120 });
  });

  it("change their text when the new answer still serves their charts, versioned", async () => {
    const store = await openTestStore(engine, { seedDemo: false });
    const id = await salesQuestion(store);
    await store.createChart(
      {
        title: "Revenue by region",
        type: "bar",
        datasetId: id,
        query: { x: { column: "region" }, measures: [{ column: "revenue", aggregate: "sum" }] },
      },
      editor,
    );
    const dropped = await errorOf(
      store.updateQuestionDataset(editor, id, 1, {
        sql: "select region, count(*) as orders from sales group by region",
      }),
    );
    expect((dropped as ValidationError).fieldErrors.sql?.join(" ")).toMatch(
      /Revenue by region.*revenue/,
    );
    const changed = await store.updateQuestionDataset(editor, id, 1, {
      sql: "select region, sum(revenue) as revenue, count(*) as orders from sales group by region",
    });
    expect(changed.version).toBe(2);
    expect(changed.columns.map((column) => column.name)).toEqual(["region", "revenue", "orders"]);
    expect((await store.getDataset(id))?.question?.sql).toMatch(/count\(\*\) as orders/);
    const stale = await errorOf(
      store.updateQuestionDataset(editor, id, 1, { sql: "select 1 as x" }),
    );
    expect(stale).toMatchObject({ kind: "conflict" });
  });

  it("keep their drill-down hierarchies: an answer without a level's column is refused, naming the hierarchy", async () => {
    const store = await openTestStore(engine, { seedDemo: false });
    await store.createDataset(salesInput(), editor);
    const { id } = await store.createQuestionDataset(editor, {
      name: "Regions and offices (SQL)",
      sql: "select region, region || ' office' as office, sum(revenue) as revenue from sales group by region",
    });
    const defined = await store.updateDataset(
      id,
      1,
      { hierarchies: [["region", "office"]] },
      editor,
    );
    expect(defined.hierarchies).toEqual([["region", "office"]]);
    const dropped = await errorOf(
      store.updateQuestionDataset(editor, id, 2, {
        sql: "select region, sum(revenue) as revenue from sales group by region",
      }),
    );
    expect((dropped as ValidationError).fieldErrors.sql).toEqual([
      'Hierarchy region → office would break: The dataset has no column "office". Change the hierarchy first.',
    ]);
    expect((await store.getDataset(id))?.hierarchies).toEqual([["region", "office"]]);
  });

  it("refuse rows written into them, saying why", async () => {
    const store = await openTestStore(engine, { seedDemo: false });
    const id = await salesQuestion(store);
    const error = await errorOf(
      store.importIntoDataset(
        {
          datasetId: id,
          expectedVersion: 1,
          mode: "append",
          source: textStream("region,revenue,month\nEast,1,2025-01-01\n"),
        },
        editor,
      ),
    );
    expect((error as ValidationError).formError).toMatch(/is a SQL question/);
    const edit = await errorOf(store.editDatasetRows(id, 1, { append: [{}] } as never, editor));
    expect((edit as ValidationError).formError).toMatch(/is a SQL question/);
  });

  it("refuse an answer whose columns cannot be a dataset's", async () => {
    const store = await openTestStore(engine, { seedDemo: false });
    await store.createDataset(salesInput(), editor);
    const error = await errorOf(
      store.createQuestionDataset(editor, {
        name: "Twice",
        sql: "select region as a, revenue as a from sales",
      }),
    );
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).fieldErrors.sql?.[0]).toMatch(/comes twice/);
    expect(await store.listDatasets()).toHaveLength(1);
  });

  it("say why when they can no longer run: SQL turned off, a table gone", async () => {
    const store = await openTestStore(engine, { seedDemo: false });
    const id = await salesQuestion(store);
    const query = { x: { column: "region" }, measures: [{ column: "revenue", aggregate: "sum" }] };
    await store.setSqlQuestionsEnabled(admin, { enabled: false });
    const off = await errorOf(store.runChartQuery(id, query as never));
    expect((off as ValidationError).formError).toBe("An admin has turned SQL questions off.");
    await store.setSqlQuestionsEnabled(admin, { enabled: true });
    const sales = (await store.listDatasets()).find((dataset) => dataset.name === "Sales");
    await store.updateDataset(sales?.id ?? "", sales?.version ?? 0, { name: "Renamed" }, editor);
    const gone = await errorOf(store.runChartQuery(id, query as never));
    expect((gone as ValidationError).fieldErrors.sql?.[0]).toMatch(/sales/);
  });
});
