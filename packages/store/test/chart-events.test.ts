import { createReadStream } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import {
  addDays,
  type ChartQueryInput,
  chartLimits,
  type Day,
  dayOf,
  formatDay,
  localDay,
  ValidationError,
} from "@seed/model";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { admin, editor } from "./actors.js";
import { errorOf, groupOf, openTestStore, type TestEngine } from "./helpers.js";

// Events from a dataset (issue 27's annotations "events from a dataset"): a chart reads the rows
// of another dataset whose day or span meets the days it shows, oldest first, at most 100, as its
// reader may see that dataset; on every engine that keeps rows.

const seed = Number(process.env.SEED_PROPERTY_SEED ?? Date.now() % 2_147_483_647);
console.log(`chart events seed: ${seed} (rerun with SEED_PROPERTY_SEED=${seed})`);

const engines: readonly TestEngine[] = ["sqlite", "postgres", "duckdb"];

// seattle-weather.csv: one row per day from 2012-01-01 to 2015-12-31.
const weatherFile = join(
  dirname(createRequire(import.meta.url).resolve("vega-datasets")),
  "..",
  "data",
  "seattle-weather.csv",
);
const firstDay = "2012-01-01";
const lastDay = "2015-12-31";

interface EventRow {
  day: string;
  until: string | null;
  stamp: string;
  what: string;
  desk: string;
}

const dayText = (ms: number) => formatDay(dayOf(ms));
const startMs = Date.parse("2010-06-01T00:00:00Z");
const spanDays = 8 * 365;

/** Texts at the extremes: blank, padded, long past the cut, any Unicode, quotes and commas. */
const label = fc.oneof(
  { weight: 4, arbitrary: fc.string({ minLength: 1, maxLength: 30 }) },
  fc.string({ unit: "grapheme", minLength: 0, maxLength: 40 }),
  fc.constantFrom("   ", "\t", ' "launch", v2 ', "é".repeat(201), "🎉".repeat(250)),
  fc.string({ minLength: 195, maxLength: 260 }),
);

const eventRow: fc.Arbitrary<EventRow> = fc
  .record({
    start: fc.integer({ min: 0, max: spanDays }),
    length: fc.option(fc.integer({ min: 0, max: 90 }), { nil: null }),
    minute: fc.integer({ min: 0, max: 24 * 60 - 1 }),
    what: label,
    desk: fc.constantFrom("north", "north", "south"),
  })
  .map(({ start, length, minute, what, desk }) => {
    const ms = startMs + start * 86_400_000;
    return {
      day: dayText(ms),
      until: length === null ? null : dayText(ms + length * 86_400_000),
      stamp: new Date(ms + minute * 60_000).toISOString(),
      what,
      desk,
    };
  });

const events = fc.sample(fc.array(eventRow, { minLength: 220, maxLength: 260 }), {
  seed,
  numRuns: 1,
})[0] as EventRow[];

const utf8 = (text: string) => Buffer.from(text, "utf8");

/** What the chart should draw, computed here: rows meeting [from, to), oldest first, cut at 100. */
function expected(
  rows: readonly EventRow[],
  shown: { from: string; to: string },
  at: "day" | "stamp",
  withUntil: boolean,
  timeZone: string,
) {
  const dayOfRow = (row: EventRow) =>
    at === "day" ? row.day : formatDay(localDay(timeZone, Date.parse(row.stamp)));
  // a blank text is no value (the store keeps it as null): no event
  const meets = rows.filter((row) => {
    if (row.what.trim() === "") return false;
    const first = dayOfRow(row);
    const endsAfter =
      first >= shown.from || (withUntil && row.until !== null && row.until >= shown.from);
    return first < shown.to && endsAfter;
  });
  const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  // by day (instant), text in byte order, then last day (none last)
  const sorted = [...meets].sort((a, b) => {
    const byInstant =
      at === "day" ? compare(a.day, b.day) : Date.parse(a.stamp) - Date.parse(b.stamp);
    if (byInstant !== 0) return byInstant;
    const byText = Buffer.compare(utf8(a.what), utf8(b.what));
    if (byText !== 0 || !withUntil) return byText;
    if (a.until === b.until) return 0;
    if (a.until === null) return 1;
    if (b.until === null) return -1;
    return compare(a.until, b.until);
  });
  const kept = sorted.slice(0, chartLimits.maxSourcedAnnotations).flatMap((row) => {
    const text = row.what.trim();
    if (text === "") return [];
    const chars = [...text];
    return [
      {
        at: dayOfRow(row),
        ...(withUntil && row.until !== null ? { to: row.until } : {}),
        label: chars.length > 200 ? `${chars.slice(0, 199).join("")}…` : text,
      },
    ];
  });
  return { total: meets.length, kept };
}

async function setUp(engine: TestEngine) {
  const store = await openTestStore(engine, { seedDemo: false });
  const weather = await store.importNewDataset(
    { name: "Seattle weather", source: createReadStream(weatherFile) },
    admin,
  );
  const eventsSet = await store.createDataset(
    {
      name: "Events",
      columns: [
        { name: "day", type: "date" },
        { name: "until", type: "date" },
        { name: "stamp", type: "timestamp" },
        { name: "what", type: "string" },
        { name: "desk", type: "string" },
      ],
      rows: events.map((row) => ({ ...row })),
    },
    admin,
  );
  return { store, weatherId: weather.datasetId, eventsId: eventsSet.id };
}

const lineOf = (grain: "day" | "month", from: string, to: string): ChartQueryInput => ({
  x: { column: "date", grain },
  measures: [{ column: "temp_max", aggregate: "max" }],
  filters: [{ column: "date", op: "between", from, to }],
});

/** The days a line of `grain` over [from, to] of the weather shows: [first bucket, day after the last). */
function shownDays(grain: "day" | "month", from: string, to: string) {
  const low = from < firstDay ? firstDay : from;
  const high = to > lastDay ? lastDay : to;
  if (grain === "day") {
    return { from: low, to: formatDay(addDays(dayOf(Date.parse(`${high}T00:00:00Z`)), 1)) };
  }
  const end: Day = dayOf(Date.parse(`${high.slice(0, 7)}-01T00:00:00Z`));
  const next =
    end.month === 12 ? { year: end.year + 1, month: 1, day: 1 } : { ...end, month: end.month + 1 };
  return { from: `${low.slice(0, 7)}-01`, to: formatDay(next) };
}

async function fieldErrorsOf(promise: Promise<unknown>) {
  const error = await errorOf(promise);
  expect(error).toBeInstanceOf(ValidationError);
  return (error as ValidationError).fieldErrors;
}

describe.each(engines)("chart events on %s", (engine) => {
  it("reads exactly the events that meet the days shown, oldest first, at most 100, with their texts whole or cut and said", async () => {
    const { store, weatherId, eventsId } = await setUp(engine);
    const day = fc
      .integer({ min: 0, max: 6 * 365 })
      .map((n) => dayText(Date.parse("2011-03-01T00:00:00Z") + n * 86_400_000));
    await fc.assert(
      fc.asyncProperty(
        day,
        day,
        fc.constantFrom("day" as const, "month" as const),
        fc.constantFrom("day" as const, "stamp" as const),
        fc.boolean(),
        fc.constantFrom("UTC", "America/New_York", "Pacific/Kiritimati"),
        async (a, b, grain, at, withUntil, timeZone) => {
          const [from, to] = a <= b ? [a, b] : [b, a];
          const result = await store.runChartQuery(weatherId, lineOf(grain, from, to), {
            timeZone,
            annotationSource: {
              datasetId: eventsId,
              at,
              ...(withUntil ? { to: "until" } : {}),
              label: "what",
            },
          });
          if (to < firstDay || from > lastDay) {
            // nothing shown, nothing read
            expect(result.rows).toEqual([]);
            expect(result.annotations).toBeUndefined();
            return;
          }
          const want = expected(events, shownDays(grain, from, to), at, withUntil, timeZone);
          expect(result.annotations).toEqual(want.kept);
          const over = result.notes.find((note) => note.includes("events in this range"));
          if (want.total > chartLimits.maxSourcedAnnotations) {
            expect(over).toBe(
              `Showing the first 100 of ${want.total.toLocaleString("en-US")} events in this range.`,
            );
          } else {
            expect(over).toBeUndefined();
          }
          const cut = want.kept.filter((event) => event.label.endsWith("…")).length;
          expect(result.notes.some((note) => note.includes("cut to 200 characters"))).toBe(cut > 0);
        },
      ),
      { seed, numRuns: engine === "sqlite" ? 40 : 15 },
    );
  });

  it("reads events as the reader may: row limits narrow them, a dataset out of sight is named, not read", async () => {
    const { store, weatherId, eventsId } = await setUp(engine);
    const source = { datasetId: eventsId, at: "day", label: "what" };
    const query = lineOf("month", firstDay, lastDay);
    const all = expected(events, shownDays("month", firstDay, lastDay), "day", false, "UTC");
    // A group limited to the north desk's events reads only those.
    const room = await store.createCollection(admin, { name: "Events room" });
    await store.moveToCollection(admin, { entityType: "dataset", id: eventsId }, room.id);
    const north = await groupOf(store, "North desk", [editor]);
    await store.setCollectionGrants(admin, room.id, {
      grants: [{ groupId: north, level: "edit" }],
    });
    await store.setRowLimit(admin, {
      datasetId: eventsId,
      groupId: north,
      conditions: [{ column: "desk", op: "eq", value: "north" }],
    });
    const seen = await store.runChartQuery(weatherId, query, {
      seenBy: editor,
      annotationSource: source,
    });
    const norths = expected(
      events.filter((row) => row.desk === "north"),
      shownDays("month", firstDay, lastDay),
      "day",
      false,
      "UTC",
    );
    expect(seen.annotations).toEqual(norths.kept);
    expect(norths.total).toBeLessThan(all.total);
    // The whole dataset for an account without the limit.
    const whole = await store.runChartQuery(weatherId, query, { annotationSource: source });
    expect(whole.annotations).toEqual(all.kept);

    // Out of the editor's sight: no events, and the chart says why.
    await store.setCollectionGrants(admin, room.id, { grants: [] });
    const hidden = await store.runChartQuery(weatherId, query, {
      seenBy: editor,
      annotationSource: source,
    });
    expect(hidden.annotations).toBeUndefined();
    expect(hidden.rows.length).toBeGreaterThan(0);
    expect(hidden.notes).toContain(
      "This chart's events come from a dataset you cannot see; they are not drawn.",
    );
    // Nor can the editor save a chart that reads them: it is "not there" for them.
    const errors = await fieldErrorsOf(
      store.createChart(
        {
          title: "Highs",
          type: "line",
          datasetId: weatherId,
          query,
          options: { annotationSource: source },
        },
        editor,
      ),
    );
    expect(errors["options.annotationSource.datasetId"]).toEqual([
      "Choose an existing dataset of events.",
    ]);
  });

  it("checks the events' columns on save, draws them on published pages and embeds, and guards the dataset they come from", async () => {
    const { store, weatherId, eventsId } = await setUp(engine);
    const query = lineOf("month", "2013-01-01", "2013-12-31");
    const draft = (annotationSource: Record<string, string>) => ({
      title: "Highs in 2013",
      type: "line" as const,
      datasetId: weatherId,
      query,
      options: { annotationSource: annotationSource as never },
    });
    const bad = await fieldErrorsOf(
      store.createChart(
        draft({ datasetId: eventsId, at: "what", to: "nowhere", label: "day" }),
        admin,
      ),
    );
    expect(bad).toEqual({
      "options.annotationSource.at": [
        `"what" holds text; the events' days come from a date or timestamp column.`,
      ],
      "options.annotationSource.to": [`The dataset of events has no column "nowhere".`],
      "options.annotationSource.label": [
        `"day" holds a date (yyyy-mm-dd); the events' texts come from a text column.`,
      ],
    });
    // Events on a category axis are not drawn, so not kept.
    const byWeather = await store.createChart(
      {
        ...draft({ datasetId: eventsId, at: "day", label: "what" }),
        query: { x: { column: "weather" }, measures: [{ aggregate: "count" }] },
        type: "bar",
      },
      admin,
    );
    expect(byWeather.options.annotationSource).toBeUndefined();

    const chart = await store.createChart(
      draft({ datasetId: eventsId, at: "day", to: "until", label: "what" }),
      admin,
    );
    const board = await store.createDashboard(
      { title: "Weather", slug: "weather", tiles: [{ kind: "chart", chartId: chart.id }] },
      admin,
    );
    await store.publishDashboard(board.id, board.version, admin);
    const want = expected(events, { from: "2013-01-01", to: "2014-01-01" }, "day", true, "UTC");
    const page = await store.getDashboardBySlug("weather");
    const tile = page?.tiles[0];
    expect(tile?.kind === "chart" ? tile.result?.annotations : null).toEqual(want.kept);
    const embed = await store.getChartEmbed(chart.id);
    expect(embed?.result?.annotations).toEqual(want.kept);

    // The events' dataset cannot lose a column the chart reads, nor be deleted under it.
    const current = await store.getDataset(eventsId);
    const renamed = await fieldErrorsOf(
      store.updateDataset(
        eventsId,
        current?.version ?? 0,
        {
          columns: [
            { name: "day", type: "date" },
            { name: "until", type: "date" },
            { name: "stamp", type: "timestamp" },
            { name: "desk", type: "string" },
          ],
          rows: (current?.rows ?? []).map(({ what: _what, ...row }) => row),
        },
        admin,
      ),
    );
    expect(Object.values(renamed).flat()).toContain(
      `Chart "Highs in 2013" would break (its events): The dataset of events has no column "what".`,
    );
    const deleting = await errorOf(store.deleteDataset(eventsId, current?.version ?? 0, admin));
    expect(String((deleting as Error).message)).toContain("Highs in 2013");
  });
});
