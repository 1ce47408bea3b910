// Issue 27, "tick values never rounded into a misleading label" (1050 was written "1.1K"): for
// every tick set a value axis draws, distinct ticks get distinct labels and each label, read back
// as a number, is its tick's value (within the tick step's precision), over domains from 1e-9 to
// 1e15, negative, fractional, tiny spans of huge values and the drawable extremes (1e±300).
import { cleanup, render } from "@testing-library/react";
import fc from "fast-check";
import { getNiceTickValues } from "recharts";
import { afterEach, describe, expect, it } from "vitest";
import { LineChart } from "../line-chart/line-chart";
import { assertSeeded } from "../testing/property";
import { tickTexts } from "../testing/ticks";
import { collapsedSpanTicks } from "./domain";
import { createTickFormatter } from "./format";

afterEach(cleanup);

const SUFFIX: Record<string, number> = { K: 3, M: 6, B: 9, T: 12 };

/** An en-US tick label read back: "1.05K" -> 1050, "-2.5E-7" -> -2.5e-7, "1,000T" -> 1e15. */
function readLabel(label: string): number {
  const plain = label.replace(/,/g, "").replace("\u2212", "-");
  const compact = plain.match(/^(-?[\d.]+)([KMBT])$/);
  if (compact) return Number(`${compact[1]}e${SUFFIX[compact[2] as string]}`);
  return Number(plain.replace("E", "e"));
}

/** A domain [low, high]: any magnitude from 1e-9 to 1e15, the extremes, and narrow spans. */
const domain = fc
  .tuple(
    fc.oneof(
      fc.double({ min: -1e15, max: 1e15, noNaN: true }),
      fc
        .integer({ min: -9, max: 15 })
        .chain((e) => fc.double({ min: -(10 ** e), max: 10 ** e, noNaN: true })),
      fc.constantFrom(0, 1050, 1e-9, 1e15, -1e15, 1e300, -1e300, 1e-300, 0.1 + 0.2),
    ),
    fc.oneof(
      fc.double({ min: 0, max: 1e15, noNaN: true }),
      fc.integer({ min: -12, max: 15 }).map((e) => 10 ** e),
      fc.constantFrom(0, 1, 50, 1e-9, 2.5e-7, 1e300),
    ),
  )
  .map(([low, span]) => [low, low + span] as const)
  .filter(([low, high]) => Number.isFinite(high) && high >= low);

/** The ticks the kit's value axis draws for an extent: ours for collapsed spans, else Recharts'. */
function ticksOf(low: number, high: number): number[] {
  return collapsedSpanTicks(low, high) ?? getNiceTickValues([low, high], 5);
}

describe("value tick labels name their ticks (issue 27)", () => {
  it("writes 1050 as 1.05K, not 1.1K", () => {
    const format = createTickFormatter("en-US");
    expect([1000, 1050, 1100].map(format)).toEqual(["1K", "1.05K", "1.1K"]);
    expect(format(2.5e-7)).toBe("2.5E-7");
    expect(format(1.5e20)).toBe("1.5E20");
  });

  it("gives distinct ticks distinct labels that read back as their values", () => {
    const formats = ["en-US", "de-DE", "fr-FR", "ja-JP", "hi-IN", "ar-EG"].map((locale) =>
      createTickFormatter(locale),
    );
    assertSeeded(
      "value tick labels",
      fc.property(domain, ([low, high]) => {
        const ticks = [...new Set(ticksOf(low, high))];
        for (const format of formats) {
          const labels = ticks.map(format);
          expect(new Set(labels).size, `${ticks} -> ${labels}`).toBe(ticks.length);
        }
        const en = formats[0] as (v: number) => string;
        const step = ticks.length > 1 ? Math.abs((ticks[1] as number) - (ticks[0] as number)) : 0;
        for (const tick of ticks) {
          const read = readLabel(en(tick));
          // within the step's precision; in fact every label is exact
          expect(Math.abs(read - tick), `${tick} -> ${en(tick)}`).toBeLessThanOrEqual(step / 1e6);
          expect(read).toBe(tick);
        }
      }),
      3000,
    );
    // 3,000 domains through six locales' formatters: seconds alone, longer on a busy machine.
  }, 120_000);

  it("draws axes whose labels are distinct and evenly spaced", () => {
    assertSeeded(
      "drawn value axis labels",
      fc.property(domain, ([low, high]) => {
        const { container } = render(
          <LineChart
            data={[
              { x: 0, v: low },
              { x: 1, v: high },
            ]}
            index="x"
            series={["v"]}
            width={500}
            height={300}
            locale="en-US"
            animate={false}
          />,
        );
        const labels = tickTexts(container, "yAxis");
        expect(new Set(labels).size, labels.join(" | ")).toBe(labels.length);
        const values = labels.map(readLabel);
        for (const v of values) expect(Number.isFinite(v), labels.join(" | ")).toBe(true);
        if (values.length > 2) {
          const step = (values[1] as number) - (values[0] as number);
          for (let i = 2; i < values.length; i++) {
            const gap = (values[i] as number) - (values[i - 1] as number);
            expect(Math.abs(gap - step), labels.join(" | ")).toBeLessThanOrEqual(
              Math.abs(step) * 1e-9,
            );
          }
        }
        cleanup();
      }),
      40,
    );
  });
});
