import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { expect, type Page, test } from "@playwright/test";
import {
  createDatasetThroughForm,
  expectAxeClean,
  openNewChart,
  publishDashboard,
  signedInPage,
  uniqueName,
} from "./content-support";
import { apiTokenOf, checkedApi } from "./openapi-client";
import { horizontalOverflow } from "./support";

// Annotations from a dataset (issue 27): a chart draws the rows of another dataset (a day, a
// last day, words) on its time axis, in the editor's preview, on the published page and in the
// page's HTML before any script runs; only those within the range it shows.

// vega-datasets' seattle-weather.csv: a row per day of 2012-2015; the chart shows 2013 by month.
const weatherCsv = readFileSync(
  join(
    dirname(createRequire(import.meta.url).resolve("vega-datasets")),
    "..",
    "data",
    "seattle-weather.csv",
  ),
  "utf8",
);

// Events: in 2013 (two days and one span), and before and after it.
const eventsCsv = [
  "day,until,headline,desk",
  '2013-02-14,,"Storm ""Nemo"", the coast",north',
  "2013-06-01,2013-08-31,Dry summer,south",
  "2013-11-20,,First snow,north",
  "2012-05-01,,Before the range,north",
  "2014-03-01,,After the range,south",
].join("\n");

async function createChart(page: Page) {
  await page.getByRole("button", { name: "Create chart" }).click();
  await page.waitForURL(/\/admin\/charts\/[^/?]+\?saved=1$/);
}

test("events from a dataset are chosen in the editor and drawn in the preview, on the page and before scripts", async ({
  browser,
}) => {
  const { context, page } = await signedInPage(browser, "editor");
  const weather = uniqueName("Weather for events");
  const events = uniqueName("Weather events");
  await createDatasetThroughForm(page, weather, weatherCsv);
  await createDatasetThroughForm(page, events, eventsCsv);
  const title = uniqueName("Highs with events");
  await openNewChart(page, weather, title);
  await page.getByLabel("Type").selectOption({ label: "Line" });
  await page.getByLabel("Index column (x axis)").selectOption("date");
  await page.getByRole("checkbox", { name: "temp_max" }).check();
  await page.getByLabel("Combine rows with").selectOption({ label: "Maximum" });
  await page.getByLabel("Group dates by").selectOption("month");
  // only 2013: a filter on the date
  await page.getByRole("button", { name: "Add a filter" }).click();
  const filter = page.getByRole("group", { name: "Filter 1" });
  await filter.getByLabel("Column").selectOption("date");
  await filter.getByLabel("Condition").selectOption({ label: "is between" });
  await filter.getByLabel("From", { exact: true }).fill("2013-01-01");
  await filter.getByLabel("To", { exact: true }).fill("2013-12-31");

  const source = page.getByRole("group", { name: "Events from a dataset" });
  await source.getByLabel("Read events from").selectOption({ label: events });
  // the first date column and the first text column, chosen for the editor
  await expect(source.getByLabel("Events' days")).toHaveValue("day");
  await expect(source.getByLabel("What each event says")).toHaveValue("headline");
  await source.getByLabel("Events' last days (optional)").selectOption("until");

  const preview = page.getByTestId("chart-preview");
  await expect(preview.locator(".seed-chart-annotation")).toHaveCount(3);
  await expect(
    preview.getByRole("rowheader", { name: /— Storm "Nemo", the coast$/ }),
  ).toBeAttached();
  await expect(preview.getByRole("rowheader", { name: /— Dry summer$/ })).toHaveCount(3);
  await expect(preview.getByText("Before the range")).toHaveCount(0);
  await expectAxeClean(page);
  await page.setViewportSize({ width: 375, height: 800 });
  expect(await horizontalOverflow(page)).toBe(0);
  await page.setViewportSize({ width: 1280, height: 800 });

  // The keyboard reaches the choice: Tab from the dataset's select to the days' select.
  await source.getByLabel("Read events from").focus();
  await page.keyboard.press("Tab");
  await expect(source.getByLabel("Events' days")).toBeFocused();

  await createChart(page);
  const chartId = new URL(page.url()).pathname.split("/").pop() ?? "";
  // Saved: the editor opens with the source as chosen.
  await expect(source.getByLabel("Read events from")).toHaveValue(/.+/);
  await expect(source.getByLabel("Events' last days (optional)")).toHaveValue("until");

  // The REST API names the events' dataset by its slug, as files do, and answers the events.
  const token = await apiTokenOf(browser, "editor", "write");
  const api = await checkedApi(token.secret);
  const answer = (await (await api.get(`/charts/${chartId}`)).json()) as Record<string, unknown> & {
    options: Record<string, unknown>;
  };
  const named = answer.options.annotationSource as { dataset: string };
  expect(named).toEqual({ dataset: expect.any(String), at: "day", to: "until", label: "headline" });
  const eventsSet = (await (await api.get(`/datasets/${named.dataset}`)).json()) as {
    name: string;
  };
  expect(eventsSet.name).toBe(events);
  const results = (await (await api.get(`/charts/${chartId}/results`)).json()) as {
    annotations?: { label: string }[];
  };
  expect(results.annotations?.map((event) => event.label)).toEqual([
    'Storm "Nemo", the coast',
    "Dry summer",
    "First snow",
  ]);
  // A slug no dataset has is named at its field, and nothing is written.
  const { id: _id, version: _version, createdAt: _c, updatedAt: _u, ...written } = answer;
  const refused = await api.put(
    `/charts/${chartId}`,
    JSON.stringify({
      ...written,
      options: {
        ...answer.options,
        annotationSource: { dataset: "no_such_events", at: "day", label: "headline" },
      },
    }),
    { "Content-Type": "application/json" },
  );
  expect(refused.status()).toBe(422);
  expect(((await refused.json()) as { errors: { path: string }[] }).errors).toEqual([
    expect.objectContaining({ path: "options.annotationSource.dataset" }),
  ]);
  await api.dispose();
  await token.context.close();

  const slug = await publishDashboard(page, [title], "Events board");
  await context.close();

  const visiting = await browser.newContext();
  const visitor = await visiting.newPage();
  expect((await visitor.goto(`/d/${slug}`))?.status()).toBe(200);
  const chart = visitor.getByRole("figure", { name: title });
  const drawn = chart.locator(".recharts-wrapper");
  await expect(drawn.locator(".seed-chart-annotation")).toHaveCount(3);
  await expect(drawn.locator(".seed-chart-annotation rect")).toHaveCount(1);
  await expect(chart.getByRole("rowheader", { name: /— First snow$/ })).toBeAttached();
  await expectAxeClean(visitor);
  await visiting.close();

  // Before any script runs, the server's drawing has them too.
  const scriptless = await browser.newContext({ javaScriptEnabled: false });
  const reader = await scriptless.newPage();
  await reader.goto(`/d/${slug}`);
  const fallback = reader.getByRole("figure", { name: title }).locator(".seed-chart-fallback");
  await expect(fallback.locator(".seed-chart-annotation title")).toHaveText([
    'Storm "Nemo", the coast',
    "Dry summer",
    "First snow",
  ]);
  await scriptless.close();
});
