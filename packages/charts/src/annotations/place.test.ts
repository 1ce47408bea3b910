import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ChartAnnotation } from "../parts/annotations";
import type { DrawnRow } from "../parts/plot-rows";
import { assertSeeded } from "../testing/property";
import { placeAnnotations } from "./place";

const DAY = 86_400_000;

/** Drawn rows at the given x values (one series, values 1, 2, ...). */
function rows(xs: readonly (number | string)[]): DrawnRow[] {
  return xs.map((x, i) => ({ __x: x, __row: i, s0: i + 1 }));
}

function notesOf(drawn: DrawnRow[], annotations: ChartAnnotation[], bandAxis = false) {
  const kind = typeof drawn[0]?.__x === "string" ? "category" : "time";
  const { notes } = placeAnnotations(drawn, annotations, kind, bandAxis);
  return drawn.map((row) => notes.get(row) ?? null);
}

const days = rows([0, 1, 2, 3, 4].map((d) => Date.UTC(2024, 0, 1) + d * DAY));

describe("placeAnnotations", () => {
  it("puts a marker on the row at its time, and a band on every row inside it", () => {
    expect(
      notesOf(days, [
        { at: "2024-01-02", label: "Launch" },
        { at: new Date(Date.UTC(2024, 0, 3)), to: "2024-01-04", label: "Sale" },
      ]),
    ).toEqual([null, "Launch", "Sale", "Sale", null]);
  });

  it("gives a marker between two drawn points (downsampled data) to the nearer one", () => {
    expect(notesOf(days, [{ at: Date.UTC(2024, 0, 3, 20), label: "Outage" }])).toEqual([
      null,
      null,
      null,
      "Outage",
      null,
    ]);
  });

  it("gives a band narrower than the gap between points to the point nearest its middle", () => {
    const placed = placeAnnotations(
      days,
      [{ at: Date.UTC(2024, 0, 1, 2), to: Date.UTC(2024, 0, 1, 4), label: "Deploy" }],
      "time",
      false,
    );
    expect([...placed.notes.values()]).toEqual(["Deploy"]);
    expect(placed.notes.get(days[0] as DrawnRow)).toBe("Deploy");
    // drawn where it is, not moved to the point
    expect(placed.placed[0]).toMatchObject({ from: Date.UTC(2024, 0, 1, 2), band: true });
  });

  it("joins the labels of annotations on one point, and swaps a band given backwards", () => {
    expect(
      notesOf(days, [
        { at: "2024-01-05", to: "2024-01-04", label: "Freeze" },
        { at: "2024-01-05", label: "Release" },
      ]),
    ).toEqual([null, null, null, "Freeze", "Freeze; Release"]);
  });

  it("leaves out annotations outside the drawn range, without a label or a readable time", () => {
    const outside = placeAnnotations(
      days,
      [
        { at: "2023-06-01", label: "Before" },
        { at: "2025-06-01", to: "2026-01-01", label: "After" },
        { at: "2024-01-02", label: "   " },
        { at: "next tuesday", label: "Unreadable" },
        null as unknown as ChartAnnotation,
        { at: "2024-01-02" } as unknown as ChartAnnotation,
      ],
      "time",
      false,
    );
    expect(outside.placed).toEqual([]);
    expect(outside.notes.size).toBe(0);
  });

  it("keeps a band that starts before the data and ends inside it", () => {
    expect(notesOf(days, [{ at: "2023-12-01", to: "2024-01-02", label: "Winter" }])).toEqual([
      "Winter",
      "Winter",
      null,
      null,
      null,
    ]);
  });

  it("matches names on a name axis, and a year given as a number to the name 2016", () => {
    const names = rows(["2015", "2016", "2017", "2018"]);
    expect(
      notesOf(names, [
        { at: 2016, label: "Election" },
        { at: "2017", to: "2018", label: "Term" },
        { at: "2030", label: "Nowhere" },
      ]),
    ).toEqual([null, "Election", "Term", "Term"]);
  });

  it("places a band on a band axis (bars) from its first to its last bar", () => {
    const placed = placeAnnotations(
      days,
      [{ at: Date.UTC(2024, 0, 1, 12), to: "2024-01-03", label: "Promo" }],
      "time",
      true,
    );
    expect(placed.placed).toEqual([
      {
        label: "Promo",
        color: undefined,
        from: Date.UTC(2024, 0, 2),
        to: Date.UTC(2024, 0, 3),
        band: true,
      },
    ]);
  });

  it("reads a number written as text on a number axis", () => {
    const years = rows([2000, 2005, 2010]);
    const { notes } = placeAnnotations(years, [{ at: "2005", label: "Merger" }], "number", false);
    expect(notes.get(years[1] as DrawnRow)).toBe("Merger");
  });

  it("every annotation inside the drawn range is on at least one row, and only rows it covers or the nearest", () => {
    assertSeeded(
      "annotations land on the rows they cover",
      fc.property(
        fc.uniqueArray(fc.integer({ min: -1e6, max: 1e6 }), { minLength: 1, maxLength: 60 }),
        fc.uniqueArray(
          fc.record({
            at: fc.oneof(fc.integer({ min: -2e6, max: 2e6 }), fc.constantFrom(-1e300, 1e300)),
            to: fc.option(fc.integer({ min: -2e6, max: 2e6 }), { nil: undefined }),
            label: fc.stringMatching(/^[a-z0-9]{1,8}$/),
          }),
          { maxLength: 12, selector: (annotation) => annotation.label },
        ),
        (xs, annotations) => {
          const sorted = [...xs].sort((a, b) => a - b);
          const drawn = rows(sorted);
          const { placed, notes } = placeAnnotations(drawn, annotations, "number", false);
          const first = sorted[0] as number;
          const last = sorted[sorted.length - 1] as number;
          for (const annotation of annotations) {
            const low = Math.min(annotation.at, annotation.to ?? annotation.at);
            const high = Math.max(annotation.at, annotation.to ?? annotation.at);
            const label = annotation.label;
            const carrying = drawn.filter((row) => notes.get(row)?.split("; ").includes(label));
            if (high < first || low > last) continue;
            expect(placed.some((p) => p.label === label)).toBe(true);
            expect(carrying.length).toBeGreaterThan(0);
            const inside = drawn.filter((row) => +row.__x >= low && +row.__x <= high);
            // exactly the rows inside carry it; a band with none inside goes to one nearest row
            if (inside.length > 0) expect(carrying).toEqual(inside);
            else {
              expect(carrying).toHaveLength(1);
              const middle = (low + high) / 2;
              const best = Math.min(...sorted.map((x) => Math.abs(x - middle)));
              expect(carrying.some((row) => Math.abs(+row.__x - middle) === best)).toBe(true);
            }
          }
        },
      ),
      300,
    );
  });
});
