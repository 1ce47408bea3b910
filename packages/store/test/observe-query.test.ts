import { describe, expect, it } from "vitest";
import { demoDashboardSlug, type QueryTiming } from "../src/index.js";
import { engines, errorOf, openTestStore } from "./helpers.js";

describe.each(engines)("observeQuery on %s", (dialect) => {
  it("is told the duration and outcome of every chart and stat query", async () => {
    const timings: QueryTiming[] = [];
    const store = await openTestStore(dialect, { observeQuery: (timing) => timings.push(timing) });

    const dashboard = await store.getDashboardBySlug(demoDashboardSlug);
    const chartTiles = dashboard?.tiles.filter((tile) => tile.kind === "chart").length ?? 0;
    const statTiles = dashboard?.tiles.filter((tile) => tile.kind === "stat").length ?? 0;
    expect(chartTiles).toBeGreaterThan(0);
    expect(statTiles).toBeGreaterThan(0);
    expect(timings.filter((timing) => timing.kind === "chart")).toHaveLength(chartTiles);
    expect(timings.filter((timing) => timing.kind === "stat")).toHaveLength(statTiles);
    for (const timing of timings) {
      expect(timing.ok).toBe(true);
      expect(timing.seconds).toBeGreaterThanOrEqual(0);
      expect(timing.seconds).toBeLessThan(60);
    }

    const [dataset] = await store.listDatasets();
    if (!dataset) throw new Error("the demo has datasets");
    timings.length = 0;
    await errorOf(
      store.runChartQuery(dataset.id, { x: { column: "no such column" }, measures: [] }),
    );
    expect(timings).toEqual([{ kind: "chart", seconds: expect.any(Number), ok: false }]);
  });

  it("renders only the tiles asked for, running only their queries", async () => {
    const timings: QueryTiming[] = [];
    const store = await openTestStore(dialect, { observeQuery: (timing) => timings.push(timing) });
    const whole = await store.getDashboardBySlug(demoDashboardSlug);
    const chart = whole?.tiles.find((tile) => tile.kind === "chart");
    if (!whole || !chart) throw new Error("the demo has a chart tile");
    timings.length = 0;

    const one = await store.getDashboardBySlug(demoDashboardSlug, { tileIds: [chart.id] });

    expect(one?.tiles).toEqual([chart]);
    expect(timings.filter((timing) => timing.kind !== "chart")).toEqual([]);
    expect(timings.filter((timing) => timing.kind === "chart")).toHaveLength(1);
    // A tile that is not on the dashboard renders nothing and reads nothing.
    timings.length = 0;
    const none = await store.getDashboardBySlug(demoDashboardSlug, { tileIds: ["no-such-tile"] });
    expect(none?.tiles).toEqual([]);
    expect(timings).toEqual([]);
  });
});
