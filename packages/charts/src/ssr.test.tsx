import { act } from "@testing-library/react";
import type { ReactElement } from "react";
import { hydrateRoot } from "react-dom/client";
import { renderToString } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import { AreaChart } from "./area-chart";
import { BarChart } from "./bar-chart";
import { CalendarHeatmap } from "./calendar-heatmap";
import { ComboChart } from "./combo-chart";
import { LineChart } from "./line-chart";
import { PieChart } from "./pie-chart";
import { ScatterChart } from "./scatter-chart";
import { calendarSvg } from "./svg";
import { TableChart } from "./table-chart";

function rows() {
  return [
    { day: "2024-01-01", a: 3, b: 5 },
    { day: "2024-01-02", a: 4, b: 2 },
    { day: "2024-01-03", a: 6, b: 4 },
  ];
}

function charts() {
  return (
    <>
      <LineChart data={rows()} index="day" series={["a", "b"]} height={220} />
      <AreaChart data={rows()} index="day" series={["a", "b"]} stack="stacked" height={220} />
      <BarChart data={rows()} index="day" series={["a"]} height={220} />
      <PieChart data={rows()} index="day" value="a" variant="donut" height={220} />
      <ScatterChart data={rows()} x="a" y="b" size="a" color="day" height={220} />
      <ComboChart
        data={rows()}
        index="day"
        series={["a", { key: "b", axis: "right" }]}
        height={220}
      />
    </>
  );
}

/**
 * Renders `element` on the server, hydrates that markup in the DOM, and checks React neither
 * recovered from a mismatch nor logged an error; `then` checks the hydrated DOM.
 */
async function expectHydrates(element: () => ReactElement, then: (container: HTMLElement) => void) {
  const container = document.createElement("div");
  container.innerHTML = renderToString(element());
  document.body.append(container);
  const error = vi.spyOn(console, "error");
  const recoverable = vi.fn();
  let root: ReturnType<typeof hydrateRoot> | undefined;
  await act(async () => {
    root = hydrateRoot(container, element(), { onRecoverableError: recoverable });
  });
  expect(recoverable).not.toHaveBeenCalled();
  expect(error).not.toHaveBeenCalled();
  then(container);
  error.mockRestore();
  // Unmount so no scheduled React work (animations, effects) outlives the test environment.
  act(() => root?.unmount());
  container.remove();
}

describe("server rendering", () => {
  it("renders every chart at the initial width and final height, without warnings", () => {
    const warn = vi.spyOn(console, "warn");
    const error = vi.spyOn(console, "error");

    const html = renderToString(charts());

    // Recharts draws its SVG after layout; the box it will fill already has its final size
    expect(
      html.match(/class="recharts-wrapper" style="[^"]*width:640px;height:220px"/g),
    ).toHaveLength(6);
    expect(html.match(/class="seed-chart-plot" style="height:220px"/g)).toHaveLength(6);
    expect(warn).not.toHaveBeenCalled();
    expect(error).not.toHaveBeenCalled();
    warn.mockRestore();
    error.mockRestore();
  });

  it("hydrates the server markup without mismatch warnings", async () => {
    await expectHydrates(charts, (container) =>
      expect(container.querySelectorAll("svg.recharts-surface")).toHaveLength(6),
    );
  });

  it("renders a TableChart's rows in the server HTML and hydrates it without mismatch", async () => {
    const table = () => (
      <TableChart
        data={rows()}
        title="Days"
        locale="en-US"
        columns={["day", { key: "a", rules: [{ when: "above", value: 5, tone: "good" }] }, "b"]}
      />
    );
    const html = renderToString(table());
    expect(html).toContain("<table");
    expect(html).toContain("Jan 1, 2024");
    expect(html.match(/<tr>/g)).toHaveLength(4);
    await expectHydrates(table, (container) =>
      expect(container.querySelectorAll("tbody tr")).toHaveLength(3),
    );
  });

  it("renders a CalendarHeatmap's days and its server SVG fallback, and hydrates it", async () => {
    const days = [
      { day: "2024-01-01", rain: 3 },
      { day: "2024-01-02", rain: 0 },
      { day: "2024-01-05", rain: 8 },
    ];
    const heatmap = () => (
      <CalendarHeatmap
        data={days}
        date="day"
        value="rain"
        title="Rain"
        locale="en-US"
        fallback={
          <div
            className="seed-chart-fallback"
            // biome-ignore lint/security/noDangerouslySetInnerHtml: the kit's own SVG string
            dangerouslySetInnerHTML={{
              __html: calendarSvg({ data: days, date: "day", value: "rain", width: 640 }),
            }}
          />
        }
      />
    );
    const error = vi.spyOn(console, "error");
    const html = renderToString(heatmap());
    expect(error).not.toHaveBeenCalled();
    error.mockRestore();
    // the fallback and the chart draw the same cells: each bin's path twice
    expect(html.match(/class="seed-calendar-cells"/g)?.length).toBe(8);
    expect(html).toContain("Calendar heatmap of rain, 3 days from Jan 1, 2024 to Jan 5, 2024");
    await expectHydrates(heatmap, (container) => {
      expect(container.querySelectorAll("svg.seed-calendar")).toHaveLength(1);
      expect(container.querySelectorAll("[data-testid=seed-chart-table] tbody tr")).toHaveLength(3);
    });
  });
});
