// Issue 27, charts rendered on the server: the server's drawing reads as the chart that replaces
// it. For any data, its value axis writes the same tick labels as the React chart's.
import { cleanup, render } from "@testing-library/react";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { AreaChart } from "../area-chart/area-chart";
import { BarChart } from "../bar-chart/bar-chart";
import { LineChart } from "../line-chart/line-chart";
import { assertSeeded } from "../testing/property";
import { tickTexts } from "../testing/ticks";
import { chartSvg } from "./chart-svg";

afterEach(cleanup);

const charts = { line: LineChart, area: AreaChart, bar: BarChart };

describe("chartSvg and the chart it stands for", () => {
  // a React render per run: minutes on a busy 2-core machine, not the default 20 s
  it("write the same value-axis ticks for any values", { timeout: 180_000 }, () => {
    assertSeeded(
      "server drawing's value ticks",
      fc.property(
        fc.constantFrom("line", "area", "bar") as fc.Arbitrary<"line" | "area" | "bar">,
        fc.array(
          fc.oneof(
            fc.double({ min: -1e6, max: 1e6, noNaN: true }),
            fc.integer({ min: 0, max: 5000 }),
            fc.constantFrom(0, 1, 1050, 99.5),
          ),
          { minLength: 1, maxLength: 30 },
        ),
        (type, values) => {
          const data = values.map((v, i) => ({ x: `c${i}`, v }));
          const Chart = charts[type];
          const { container } = render(
            <Chart
              data={data}
              index="x"
              series={["v"]}
              width={600}
              height={300}
              locale="en-US"
              animate={false}
            />,
          );
          const drawn = tickTexts(container, "yAxis");
          cleanup();
          const svg = new DOMParser().parseFromString(
            chartSvg({
              type,
              data,
              index: "x",
              series: ["v"],
              width: 600,
              height: 300,
              locale: "en-US",
            }),
            "image/svg+xml",
          );
          const server = [...svg.querySelectorAll("text[text-anchor=end]")].map(
            (text) => text.textContent ?? "",
          );
          expect(server).toEqual(drawn);
        },
      ),
      150,
    );
  });
});
