import { readFileSync } from "node:fs";
import { type Browser, expect } from "@playwright/test";
import { importCsvAsEditor, uniqueName } from "./content-support";
import { apiTokenOf, type CheckedApi, checkedApi } from "./openapi-client";
import { vegaDataPath } from "./support";

// Published dashboards on real data: vega-datasets' Seattle weather (a row per day, 2012-2015),
// imported as the editor and laid out by a dashboard file through the API.

export const weatherCsv = readFileSync(vegaDataPath("seattle-weather.csv"), "utf8");

/** A day of the file, as the specs read it. */
export interface WeatherDay {
  /** yyyy-mm-dd */
  date: string;
  /** Rain, mm. */
  precipitation: number;
  /** The day's highest temperature, °C. */
  tempMax: number;
  weather: string;
}

/** Every day of the file, in the file's order (by date). */
export function weatherDays(): WeatherDay[] {
  const [header = "", ...lines] = weatherCsv.trim().split("\n");
  const names = header.split(",");
  const at = (name: string) => names.indexOf(name);
  return lines.map((line) => {
    const cells = line.split(",");
    return {
      date: cells[at("date")] as string,
      precipitation: Number(cells[at("precipitation")]),
      tempMax: Number(cells[at("temp_max")]),
      weather: cells[at("weather")] as string,
    };
  });
}

/** Days and total precipitation (mm) per kind of weather, counted from the CSV itself. */
export function weatherTotals(): Map<string, { days: number; rain: number }> {
  const [header = "", ...lines] = weatherCsv.trim().split("\n");
  const names = header.split(",");
  const weather = names.indexOf("weather");
  const precipitation = names.indexOf("precipitation");
  const totals = new Map<string, { days: number; rain: number }>();
  for (const line of lines) {
    const cells = line.split(",");
    const kind = cells[weather] as string;
    const entry = totals.get(kind) ?? { days: 0, rain: 0 };
    entry.days += 1;
    entry.rain += Number(cells[precipitation]);
    totals.set(kind, entry);
  }
  return totals;
}

/** The dataset's slug, from the API's pages of datasets. */
async function slugOfDataset(api: CheckedApi, name: string): Promise<string> {
  let cursor: string | null = null;
  do {
    const after: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : "";
    const page = (await (await api.get(`/datasets?limit=100${after}`)).json()) as {
      items: { slug: string; name: string }[];
      nextCursor: string | null;
    };
    const found = page.items.find((item) => item.name === name);
    if (found) return found.slug;
    cursor = page.nextCursor;
  } while (cursor !== null);
  throw new Error(`No dataset named ${name}`);
}

/**
 * Imports the weather as a new dataset and publishes a dashboard file on it: `body` gives the
 * file's lines after its slug (title, filters, tiles, layout) for the dataset's slug.
 */
export async function publishWeatherBoard(
  browser: Browser,
  prefix: string,
  body: (dataset: string) => string[],
): Promise<string> {
  return (await publishCsvBoard(browser, `${prefix} weather`, prefix, weatherCsv, body)).board;
}

/**
 * Imports a CSV file as a new dataset named `name` (made unique) and publishes a dashboard file
 * on it, its slug starting with `prefix`: `body` gives the file's lines after its slug.
 */
export async function publishCsvBoard(
  browser: Browser,
  name: string,
  prefix: string,
  csv: string,
  body: (dataset: string) => string[],
): Promise<{ board: string; datasetId: string; datasetSlug: string }> {
  const datasetName = uniqueName(name);
  const imported = await importCsvAsEditor(
    `/api/datasets/import?name=${encodeURIComponent(datasetName)}`,
    csv,
  );
  const token = await apiTokenOf(browser, "editor", "write");
  await token.context.close();
  const api = await checkedApi(token.secret);
  const dataset = await slugOfDataset(api, datasetName);
  const board = `${prefix}-${Date.now().toString(36)}`;
  const file = ["format: seed.dashboard/v1", `slug: ${board}`, ...body(dataset), ""].join("\n");
  expect((await api.put(`/dashboards/${board}`, file)).status()).toBe(201);
  return { board, datasetId: imported.datasetId, datasetSlug: dataset };
}
