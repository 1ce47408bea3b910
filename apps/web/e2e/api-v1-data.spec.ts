import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { importCsvAsEditor, uniqueName } from "./content-support";
import { apiTokenOf, type CheckedApi, checkedApi } from "./openapi-client";
import { vegaDataPath } from "./support";

// /api/v1 over datasets (metadata and rows), charts, chart queries and history (issue 30), with
// real data: Seattle's weather from vega-datasets. The file itself is the oracle for rows and
// sums; every answer is checked against the served OpenAPI document (openapi-client.ts).

const weatherCsv = readFileSync(vegaDataPath("seattle-weather.csv"), "utf8");
const [, ...weatherLines] = weatherCsv.trim().split("\n");
const weatherRows = weatherLines.map((line) => {
  const [date, precipitation, tempMax, tempMin, wind, weather] = line.split(",");
  return {
    date,
    precipitation: Number(precipitation),
    temp_max: Number(tempMax),
    temp_min: Number(tempMin),
    wind: Number(wind),
    weather,
  };
});

/** Rain by kind of weather, summed from the file. */
function rainByWeather(): Map<string, number> {
  const sums = new Map<string, number>();
  for (const row of weatherRows) {
    sums.set(row.weather as string, (sums.get(row.weather as string) ?? 0) + row.precipitation);
  }
  return sums;
}

/** Every item of a cursor-paged list, following nextCursor to the end. */
async function everyItem<T>(api: CheckedApi, path: string, limit: number): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | null = null;
  do {
    const join = path.includes("?") ? "&" : "?";
    const page = await api.get(
      `${path}${join}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
    );
    expect(page.status()).toBe(200);
    const body = (await page.json()) as { items?: T[]; rows?: T[]; nextCursor: string | null };
    items.push(...((body.items ?? body.rows) as T[]));
    cursor = body.nextCursor;
  } while (cursor !== null);
  return items;
}

const rainQuery = {
  x: { column: "weather" },
  measures: [{ column: "precipitation", aggregate: "sum" }],
};

test("datasets, rows, queries, charts and history over /api/v1 agree with the file", async ({
  browser,
}) => {
  const datasetName = uniqueName("Seattle weather API");
  const imported = await importCsvAsEditor(
    `/api/datasets/import?name=${encodeURIComponent(datasetName)}`,
    weatherCsv,
  );
  const viewerToken = await apiTokenOf(browser, "viewer", "read");
  const reader = await checkedApi(viewerToken.secret);

  // The dataset by slug, in a list of pages in slug order, each dataset once.
  const datasets = await everyItem<{ slug: string; name: string }>(reader, "/datasets", 3);
  const slugs = datasets.map((dataset) => dataset.slug);
  expect(slugs).toEqual([...new Set(slugs)].sort());
  const slug = datasets.find((dataset) => dataset.name === datasetName)?.slug as string;
  expect(slug).toMatch(/^seattle_weather_api_/);

  const meta = await reader.get(`/datasets/${slug}`);
  expect(await meta.json()).toMatchObject({
    slug,
    name: datasetName,
    kind: "stored",
    rowCount: weatherRows.length,
    version: imported.version,
    columns: [
      { name: "date", type: "date" },
      { name: "precipitation", type: "number" },
      { name: "temp_max", type: "number" },
      { name: "temp_min", type: "number" },
      { name: "wind", type: "number" },
      { name: "weather", type: "string" },
    ],
  });
  const etag = meta.headers().etag as string;
  expect((await reader.get(`/datasets/${slug}`, { "If-None-Match": etag })).status()).toBe(304);

  // Rows: every row of the file once, in its order, over pages of 500.
  const rows = await everyItem<Record<string, unknown>>(reader, `/datasets/${slug}/rows`, 500);
  expect(rows).toEqual(weatherRows);

  // A query runs in the database: rain by weather, equal to the file's sums.
  const ran = await reader.post(`/datasets/${slug}/query`, rainQuery);
  expect(ran.status()).toBe(200);
  const result = (await ran.json()) as {
    x: { key: string };
    series: { key: string }[];
    rows: Record<string, string | number | null>[];
  };
  const sums = rainByWeather();
  expect(result.rows.map((row) => row[result.x.key]).sort()).toEqual([...sums.keys()].sort());
  for (const row of result.rows) {
    const kind = row[result.x.key] as string;
    expect(row[result.series[0]?.key as string]).toBeCloseTo(sums.get(kind) as number, 6);
  }

  // Bad queries and bodies: each its own problem, naming the field where there is one.
  const unknownColumn = await reader.post(`/datasets/${slug}/query`, {
    x: { column: "snowfall" },
    measures: [{ column: "precipitation", aggregate: "sum" }],
  });
  expect(unknownColumn.status()).toBe(422);
  const problem = (await unknownColumn.json()) as { errors: { path: string; message: string }[] };
  expect(problem.errors.map((error) => error.path)).toContain("x.column");
  expect((await reader.post(`/datasets/${slug}/query`, "{not json")).status()).toBe(400);
  expect(
    (
      await reader.post(`/datasets/${slug}/query`, rainQuery, { "Content-Type": "text/plain" })
    ).status(),
  ).toBe(415);
  const huge = { ...rainQuery, label: "x".repeat(40_000) };
  expect((await reader.post(`/datasets/${slug}/query`, huge)).status()).toBe(413);
  expect((await reader.post("/datasets/no_such_dataset/query", rainQuery)).status()).toBe(404);
  expect((await reader.get("/datasets/no_such_dataset")).status()).toBe(404);
  expect((await reader.get("/datasets?limit=0")).status()).toBe(400);
  expect((await reader.get("/datasets?cursor=%%%")).status()).toBe(400);

  // A cursor of an older version is refused once the dataset changes, never a skewed page.
  const first = await reader.get(`/datasets/${slug}/rows?limit=10`);
  const { nextCursor } = (await first.json()) as { nextCursor: string };
  await importCsvAsEditor(
    `/api/datasets/import?datasetId=${imported.datasetId}&version=${imported.version}&mode=append`,
    `${weatherCsv.split("\n")[0]}\n2016-01-01,1.5,9.0,4.0,3.1,rain\n`,
  );
  const stale = await reader.get(`/datasets/${slug}/rows?limit=10&cursor=${nextCursor}`);
  expect(stale.status()).toBe(409);

  // A dashboard file with a chart over the dataset, pushed by an editor's write token.
  const editorToken = await apiTokenOf(browser, "editor", "write");
  const writer = await checkedApi(editorToken.secret);
  const board = `weather-api-${Date.now().toString(36)}`;
  const chartTitle = uniqueName("Rain by weather");
  const file = (title: string) =>
    [
      "format: seed.dashboard/v1",
      `slug: ${board}`,
      "title: Weather over the API",
      "tiles:",
      "  - key: rain",
      "    kind: chart",
      "    chart:",
      `      title: ${title}`,
      "      type: bar",
      `      dataset: ${slug}`,
      "      query:",
      "        x: { column: weather }",
      "        measures: [{ column: precipitation, aggregate: sum }]",
      "layout:",
      "  rain: { x: 0, y: 0, w: 6, h: 4 }",
      "",
    ].join("\n");
  expect((await writer.put(`/dashboards/${board}`, file(chartTitle))).status()).toBe(201);

  const charts = await everyItem<{ id: string; title: string; dataset: string }>(
    reader,
    "/charts",
    25,
  );
  const ids = charts.map((chart) => chart.id);
  expect(ids).toEqual([...new Set(ids)].sort());
  const listed = charts.find((chart) => chart.title === chartTitle);
  expect(listed).toMatchObject({ dataset: slug });
  const chartId = listed?.id as string;
  const chart = await reader.get(`/charts/${chartId}`);
  expect(await chart.json()).toMatchObject({
    id: chartId,
    title: chartTitle,
    type: "bar",
    dataset: slug,
    version: 1,
    query: { x: { column: "weather" }, measures: [{ column: "precipitation", aggregate: "sum" }] },
  });
  expect(chart.headers().etag).toBe('"v1"');

  // The chart's results are the query's, now with the appended day of rain.
  const results = (await (await reader.get(`/charts/${chartId}/results`)).json()) as typeof result;
  const rainRow = results.rows.find((row) => row[results.x.key] === "rain");
  expect(rainRow?.[results.series[0]?.key as string]).toBeCloseTo(
    (sums.get("rain") as number) + 1.5,
    6,
  );

  // History: the chart and the dashboard each gain a version per change, newest first.
  expect((await writer.put(`/dashboards/${board}`, file(`${chartTitle} (edited)`))).status()).toBe(
    200,
  );
  const chartVersions = await everyItem<{ version: number; action: string }>(
    reader,
    `/charts/${chartId}/history`,
    1,
  );
  expect(chartVersions.map(({ version, action }) => [version, action])).toEqual([
    [2, "chart.update"],
    [1, "chart.create"],
  ]);
  const boardVersions = await everyItem<{ version: number; actor: { email: string } }>(
    reader,
    `/dashboards/${board}/history`,
    1,
  );
  expect(boardVersions.map((entry) => entry.version)).toEqual([2, 1]);
  expect((await reader.get("/dashboards/no-such-board/history")).status()).toBe(404);

  // A chart replaced over the API: If-Match guards it, an unchanged body writes nothing, a bad
  // one names its fields, and a read token may not write at all.
  const chartBody = (title: string, extra: Record<string, unknown> = {}) =>
    JSON.stringify({ title, type: "bar", dataset: slug, query: rainQuery, ...extra });
  const putChart = (api: CheckedApi, body: string, headers: Record<string, string> = {}) =>
    api.put(`/charts/${chartId}`, body, { "Content-Type": "application/json", ...headers });
  const renamed = await putChart(writer, chartBody("Rain, by weather"), { "If-Match": '"v2"' });
  expect(renamed.status()).toBe(200);
  expect(await renamed.json()).toMatchObject({ title: "Rain, by weather", version: 3 });
  expect(renamed.headers().etag).toBe('"v3"');
  const again = await putChart(writer, chartBody("Rain, by weather"));
  expect(((await again.json()) as { version: number }).version).toBe(3);
  expect((await putChart(writer, chartBody("Lost"), { "If-Match": '"v2"' })).status()).toBe(412);
  const badChart = await putChart(writer, chartBody("Bad", { type: "gauge", dataset: "nope" }));
  expect(badChart.status()).toBe(422);
  expect(
    ((await badChart.json()) as { errors: { path: string }[] }).errors.map((e) => e.path),
  ).toContain("type");
  const noDataset = await putChart(writer, chartBody("Bad", { dataset: "no_such_dataset" }));
  expect(((await noDataset.json()) as { errors: { path: string }[] }).errors[0]?.path).toBe(
    "dataset",
  );
  expect((await putChart(reader, chartBody("Not mine"))).status()).toBe(403);
  expect(
    ((await (await reader.get(`/charts/${chartId}`)).json()) as { version: number }).version,
  ).toBe(3);

  // A kept version, read and restored: one new version each, guarded by If-Match.
  const firstChart = await reader.get(`/charts/${chartId}/history/1`);
  expect(await firstChart.json()).toMatchObject({
    version: 1,
    action: "chart.create",
    snapshot: { title: chartTitle },
  });
  expect((await reader.get(`/charts/${chartId}/history/99`)).status()).toBe(404);
  const restore = (api: CheckedApi, path: string, ifMatch: string) =>
    api.post(path, "", { "If-Match": ifMatch });
  expect((await restore(writer, `/charts/${chartId}/history/1/restore`, '"v2"')).status()).toBe(
    412,
  );
  expect((await restore(reader, `/charts/${chartId}/history/1/restore`, '"v3"')).status()).toBe(
    403,
  );
  const restoredChart = await restore(writer, `/charts/${chartId}/history/1/restore`, '"v3"');
  expect(await restoredChart.json()).toMatchObject({ title: chartTitle, version: 4 });
  expect((await reader.get(`/dashboards/${board}/history/1`)).status()).toBe(200);
  const restoredBoard = await restore(writer, `/dashboards/${board}/history/1/restore`, '"v2"');
  expect(await restoredBoard.json()).toEqual({ outcome: "updated", slug: board, version: 3 });

  // Deleting the dashboard: a stale If-Match deletes nothing; the current one does.
  expect((await writer.delete(`/dashboards/${board}`, { "If-Match": '"v2"' })).status()).toBe(412);
  expect((await reader.delete(`/dashboards/${board}`)).status()).toBe(403);
  expect((await writer.delete(`/dashboards/${board}`, { "If-Match": '"v3"' })).status()).toBe(204);
  expect((await reader.get(`/dashboards/${board}`)).status()).toBe(404);
  expect((await reader.get("/charts/no-such-chart")).status()).toBe(404);
  expect((await reader.get("/charts/no-such-chart/results")).status()).toBe(404);

  for (const client of [reader, writer]) await client.dispose();
  for (const made of [viewerToken, editorToken]) await made.context.close();
});
