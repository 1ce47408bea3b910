import { readFileSync } from "node:fs";
import { expect, type Page, request, test } from "@playwright/test";
import fc from "fast-check";
import Papa from "papaparse";
import { expectAxeClean, openAs } from "./content-support";
import { apiTokenOf, checkedApi } from "./openapi-client";
import { appBaseURL, horizontalOverflow, vegaDataPath } from "./support";
import { publishCsvBoard } from "./weather-board";

// Drill-down through a dataset's category hierarchy, on real data (vega-datasets' airports: a
// row per US airport with its city, state and country). An editor names the hierarchy country
// -> state -> city on the dataset's page; a published chart of airports by country then drills
// into the states of a country and a state into its cities, by mouse and keyboard, with a
// breadcrumb back, on the public page and in an embed.

const airportsCsv = readFileSync(vegaDataPath("airports.csv"), "utf8");
const airports = Papa.parse<Record<string, string>>(airportsCsv.trim(), { header: true }).data;

/** Distinct values of `column` among the airports that `where` keeps. */
function distinct(column: string, where: (row: Record<string, string>) => boolean): Set<string> {
  return new Set(airports.filter(where).map((row) => row[column] ?? ""));
}

function rowsOf(page: Page, title: string) {
  return page
    .getByRole("figure", { name: title })
    .getByTestId("seed-chart-table")
    .locator("tbody tr");
}

/** The category path a page's address drills its one chart into, or null when none. */
function pathOf(page: Page): unknown[] | null {
  const drill = new URL(page.url()).searchParams.get("drill");
  return drill === null ? null : (JSON.parse(drill.slice(drill.indexOf(".") + 1)) as unknown[]);
}

async function waitForPath(page: Page, path: string, values: string[] | null) {
  await page.waitForURL((url) => {
    if (url.pathname !== path) return false;
    const drill = url.searchParams.get("drill");
    if (values === null) return drill === null;
    return drill !== null && drill.slice(drill.indexOf(".") + 1) === JSON.stringify(values);
  });
}

test("an editor names a hierarchy; a chart of countries drills into states, a state into its cities, and back", async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const title = "Airports by country";
  const { board, datasetId, datasetSlug } = await publishCsvBoard(
    browser,
    "Airports",
    "category-drill",
    airportsCsv,
    (dataset) => [
      `title: Airports ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`,
      "published: true",
      "tiles:",
      "  - key: countries",
      "    kind: chart",
      "    chart:",
      `      title: ${title}`,
      "      type: bar",
      `      dataset: ${dataset}`,
      "      query:",
      "        x: { column: country }",
      "        measures: [{ aggregate: count }]",
      "        sort: { by: value, direction: desc }",
      "layout:",
      "  countries: { x: 0, y: 0, w: 12, h: 5 }",
    ],
  );
  const home = `/d/${board}`;

  // Without a hierarchy the chart does not drill.
  const visitor = await browser.newContext();
  const page = await visitor.newPage();
  await page.goto(home);
  await expect(rowsOf(page, title)).toHaveCount(distinct("country", () => true).size);
  await expect(page.getByText(/Select a bar to see/)).toHaveCount(0);

  // The editor names it on the dataset's page: only text columns are offered, a column twice is
  // refused at its level and nothing is saved, then country -> state -> city is saved.
  const editor = await openAs(browser, "editor", `/admin/datasets/${datasetId}`);
  const form = editor.getByRole("form", { name: "Drill-down hierarchies" });
  await expect(form.getByText("No hierarchies yet.")).toBeVisible();
  await form.getByRole("button", { name: "Add a hierarchy" }).click();
  const first = form.getByRole("group", { name: "Hierarchy 1" });
  const level = (n: number) => first.getByRole("combobox", { name: `Level ${n}`, exact: true });
  await expect(level(1).locator("option")).toHaveText([
    "Choose a column",
    "iata",
    "name",
    "city",
    "state",
    "country",
  ]);
  await level(1).selectOption("country");
  await level(2).selectOption("country");
  await form.getByRole("button", { name: "Save hierarchies" }).click();
  await expect(
    first.getByText('"country" is in a hierarchy already; a column drills one way.'),
  ).toBeVisible();
  await expect(level(2)).toHaveAccessibleDescription(/in a hierarchy already/);
  await level(2).selectOption("state");
  await first.getByRole("button", { name: "Add a level to hierarchy 1" }).click();
  await level(3).selectOption("city");
  await form.getByRole("button", { name: "Save hierarchies" }).click();
  await expect(editor.getByRole("status").filter({ hasText: "Hierarchies saved." })).toBeVisible();
  await expect(level(3)).toHaveValue("city");
  await expectAxeClean(editor);
  // The API tells a program the hierarchy (its answer checked against the OpenAPI document).
  const token = await apiTokenOf(browser, "editor", "read");
  await token.context.close();
  const meta = await (await checkedApi(token.secret)).get(`/datasets/${datasetSlug}`);
  expect((await meta.json()).hierarchies).toEqual([["country", "state", "city"]]);
  // On a phone the form fits the width.
  await editor.setViewportSize({ width: 375, height: 800 });
  expect(await horizontalOverflow(editor)).toBeLessThanOrEqual(0);
  await editor.context().close();

  // The chart now drills: a click on the USA shows its states, each with its airports.
  await page.goto(home);
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  await expect(page.getByText("Select a bar to see it by state.")).toBeVisible();
  const figure = page.getByRole("figure", { name: title });
  await figure.locator(".recharts-bar-rectangle").first().click();
  await waitForPath(page, home, ["USA"]);
  const drillParam = new URL(page.url()).searchParams.get("drill") ?? "";
  const tileId = drillParam.slice(0, drillParam.indexOf("."));
  const states = distinct("state", (row) => row.country === "USA");
  await expect(rowsOf(page, title)).toHaveCount(states.size);
  const crumbs = page.getByRole("navigation", { name: `Levels of ${title}` });
  await expect(crumbs.getByRole("listitem")).toHaveText(["All country", "USA"]);
  await expect(page.getByText("Select a bar to see it by city.")).toBeVisible();
  await expect(figure.getByTestId("seed-chart-table").locator("thead")).toContainText("state");
  await expectAxeClean(page);

  // By keyboard: the arrow keys move to the second state, Enter drills into its cities.
  const second = (await rowsOf(page, title).nth(1).getByRole("rowheader").textContent()) ?? "";
  await figure.locator("svg.recharts-surface").focus();
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("Enter");
  await waitForPath(page, home, ["USA", second]);
  const cities = distinct("city", (row) => row.country === "USA" && row.state === second);
  await expect(rowsOf(page, title)).toHaveCount(cities.size);
  await expect(crumbs.getByRole("listitem")).toHaveText(["All country", "USA", second]);
  // Cities are the last level: no hint, and a click drills no further.
  await expect(page.getByText(/Select a bar to see/)).toHaveCount(0);
  await figure.locator(".recharts-bar-rectangle").first().click();
  expect(pathOf(page)).toEqual(["USA", second]);

  // The breadcrumb leads back a level, then to every country.
  await crumbs.getByRole("link", { name: "USA", exact: true }).click();
  await waitForPath(page, home, ["USA"]);
  await expect(rowsOf(page, title)).toHaveCount(states.size);
  await crumbs.getByRole("link", { name: "All country" }).click();
  await waitForPath(page, home, null);
  await expect(crumbs).toHaveCount(0);

  // An embed drills in its own address too, and on a phone fits the width.
  const embed = `/embed/d/${board}`;
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto(embed);
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  await figure.locator(".recharts-bar-rectangle").first().click();
  await waitForPath(page, embed, ["USA"]);
  await expect(rowsOf(page, title)).toHaveCount(states.size);
  expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
  await visitor.close();

  // Any path can be named in a link; one of no data renders for that request alone (never a
  // cached page), one a chart cannot take is named and ignored.
  const client = await request.newContext({ baseURL: appBaseURL() });
  const seed = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31);
  console.log(`[category drill links] fast-check seed ${seed} (FC_SEED=${seed} repeats this run)`);
  // No country of the file (nor the empty one): a path of no data.
  const countries = distinct("country", () => true) as Set<unknown>;
  const madeUp = fc
    .array(fc.oneof(fc.string({ maxLength: 20 }), fc.constant(null)), {
      minLength: 1,
      maxLength: 2,
    })
    .filter((path) => path[0] !== null && !countries.has(path[0]));
  await fc.assert(
    fc.asyncProperty(madeUp, fc.boolean(), async (path, embedded) => {
      const query = new URLSearchParams({ drill: `${tileId}.${JSON.stringify(path)}` });
      const at = `${embedded ? "/embed" : ""}/d/${board}?${query}`;
      for (let attempt = 0; attempt < 2; attempt++) {
        const response = await client.get(at);
        expect(response.status()).toBe(200);
        expect(response.headers()["x-nextjs-cache"], at).not.toBe("HIT");
      }
    }),
    { seed, numRuns: 10 },
  );
  // The control: a path the chart shows is cached (served again as a HIT).
  const offered = `/d/${board}?${new URLSearchParams({ drill: `${tileId}.["USA"]` })}`;
  expect((await client.get(offered)).status()).toBe(200);
  await expect
    .poll(async () => (await client.get(offered)).headers()["x-nextjs-cache"])
    .toBe("HIT");
  // The USA in another letter case shows the USA's states, and is not one more page to keep.
  const lower = `/d/${board}?${new URLSearchParams({ drill: `${tileId}.["usa"]` })}`;
  for (let attempt = 0; attempt < 2; attempt++) {
    const response = await client.get(lower);
    expect(await response.text()).toMatch(/aria-current="page"[^>]*>USA</);
    expect(response.headers()["x-nextjs-cache"]).not.toBe("HIT");
  }
  const deep = new URLSearchParams({ drill: `${tileId}.["USA","CA","Oakland"]` });
  const refused = await (await client.get(`/d/${board}?${deep}`)).text();
  expect(refused).toContain("cannot be drilled into");
  await client.dispose();
});
