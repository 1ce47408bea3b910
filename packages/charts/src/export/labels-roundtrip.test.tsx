// Issue 27, "exports and screen-reader text use the columns' names": for every chart type the
// CSV export is headed by the caller's labels (whatever characters they hold) and holds the raw
// numbers, read back by an RFC 4180 parser; the screen-reader summary names the same labels.
import { cleanup, render } from "@testing-library/react";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { AreaChart } from "../area-chart/area-chart";
import { BarChart } from "../bar-chart/bar-chart";
import { LineChart } from "../line-chart/line-chart";
import { PieChart } from "../pie-chart/pie-chart";
import { parseCsv, unguard } from "../testing/parse-csv";
import { assertSeeded } from "../testing/property";
import { exportChartCsv } from "./export-chart";

afterEach(cleanup);

/** Names with what breaks CSV and text: commas, quotes, line breaks, formula starts, any unicode. */
const label = fc
  .array(
    fc.oneof(
      fc.constantFrom(",", '"', "\n", "\r\n", "\r", "=", "-", "+", "@", "\t", " ", "é", "名", "🙂"),
      fc.string({ unit: "binary", maxLength: 3 }),
    ),
    { minLength: 1, maxLength: 6 },
  )
  .map((parts) => parts.join(""));

/** Any value the axes draw as it is (see data/domain.ts), -0 written as 0. */
const value = fc
  .oneof(
    fc.double({ min: -1e300, max: 1e300, noNaN: true }),
    fc.integer({ min: -1e6, max: 1e6 }),
    fc.constantFrom(0, 1e-300, -1e300, 0.1 + 0.2, 1e15 + 0.5),
  )
  .filter((v) => v === 0 || Math.abs(v) >= 1e-300)
  .map((v) => (v === 0 ? 0 : v));

const chartCase = fc.record({
  indexLabel: label,
  labels: fc.array(label, { minLength: 1, maxLength: 4 }),
  rows: fc.integer({ min: 1, max: 12 }),
  values: fc.array(value, { minLength: 48, maxLength: 48 }),
  names: fc.uniqueArray(label, { minLength: 12, maxLength: 12 }),
});

function summaryOf(container: HTMLElement): string {
  const figure = container.querySelector("figure") as HTMLElement;
  const id = figure.getAttribute("aria-describedby") as string;
  return container.ownerDocument.getElementById(id)?.textContent ?? "";
}

function readCsv(container: HTMLElement) {
  const [header = [], ...records] = parseCsv(exportChartCsv(container));
  return { header, records };
}

describe("CSV export and summary use the caller's labels and raw numbers (issue 27)", () => {
  for (const chart of ["LineChart", "AreaChart", "BarChart"] as const) {
    it(`${chart}: header = index label + series labels, cells = the values`, () => {
      assertSeeded(
        `${chart} labels round-trip`,
        fc.property(chartCase, ({ indexLabel, labels, rows, values, names }) => {
          const bar = chart === "BarChart";
          const data = Array.from({ length: rows }, (_, i) => {
            const row: Record<string, unknown> = { x: bar ? (names[i] as string) : i };
            labels.forEach((_, s) => {
              row[`k${s}`] = values[(i * labels.length + s) % values.length];
            });
            return row;
          });
          const series = labels.map((l, s) => ({ key: `k${s}`, label: l }));
          const props = { data, index: "x", indexLabel, series, width: 640, animate: false };
          const Chart =
            chart === "LineChart" ? LineChart : chart === "AreaChart" ? AreaChart : BarChart;
          const { container } = render(<Chart {...props} />);

          const { header, records } = readCsv(container);
          expect(
            header.map((cell, i) => unguard(cell, [indexLabel, ...labels][i] as string)),
          ).toEqual([indexLabel, ...labels]);
          expect(records).toHaveLength(rows);
          records.forEach((record, i) => {
            const x = bar ? unguard(record[0] as string, names[i] as string) : Number(record[0]);
            expect(x).toEqual(bar ? names[i] : i);
            expect(record.slice(1).map(Number)).toEqual(labels.map((_, s) => data[i]?.[`k${s}`]));
          });
          const summary = summaryOf(container);
          expect(summary).toContain(indexLabel);
          for (const l of labels) expect(summary).toContain(l);
          cleanup();
        }),
        60,
      );
      // 60 full renders: well inside 20 s alone, not always on a loaded 2-core runner.
    }, 120_000);
  }

  it("PieChart: header = index label + value label, cells = names and values", () => {
    assertSeeded(
      "PieChart labels round-trip",
      fc.property(chartCase, fc.boolean(), ({ indexLabel, labels, rows, values, names }, donut) => {
        const valueLabel = labels[0] as string;
        const amounts = values
          .slice(0, rows)
          .map((v, i) => (i === 0 ? 1 + Math.abs(v) : Math.abs(v)));
        const data = amounts.map((v, i) => ({ name: names[i] as string, v: v > 1e299 ? 1 : v }));
        const { container } = render(
          <PieChart
            data={data}
            index="name"
            indexLabel={indexLabel}
            value={{ key: "v", label: valueLabel }}
            variant={donut ? "donut" : "pie"}
            otherThreshold={0}
            width={400}
            animate={false}
          />,
        );

        const { header, records } = readCsv(container);
        expect(
          header.map((cell, i) => unguard(cell, [indexLabel, valueLabel][i] as string)),
        ).toEqual([indexLabel, valueLabel]);
        expect(
          records.map((r, i) => [unguard(r[0] as string, names[i] as string), Number(r[1])]),
        ).toEqual(data.map((row) => [row.name, row.v]));
        const summary = summaryOf(container);
        expect(summary).toContain(indexLabel);
        expect(summary).toContain(valueLabel);
        expect(summary).not.toMatch(/\bby name\b/);
        cleanup();
      }),
      80,
    );
  }, 120_000);
});
