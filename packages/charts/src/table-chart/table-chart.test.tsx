import { fireEvent, render, screen, within } from "@testing-library/react";
import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { exportChartCsv } from "../export/export-chart";
import type { CsvSourceTable } from "../parts/data-table";
import { assertSeeded } from "../testing/property";
import { vegaCars } from "../testing/vega-cars";
import { prepareTableFrame, sortTableRows } from "./prepare";
import { TableChart } from "./table-chart";

const regions = [
  { region: "North", revenue: 1200.5, growth: -0.04, opened: "2021-03-01" },
  { region: "South", revenue: 950, growth: 0.12, opened: "2019-11-15" },
  { region: "East", revenue: 1800, growth: 0.02, opened: "2023-06-30" },
];

function bodyRows(table: HTMLElement): string[][] {
  return within(table)
    .getAllByRole("row")
    .slice(1)
    .map((row) => [...row.children].map((cell) => cell.textContent ?? ""));
}

function csvOf(container: HTMLElement) {
  return exportChartCsv(container.querySelector(".seed-chart"));
}

describe("TableChart", () => {
  it("formats each column for its kind and tones cells by the first rule they meet", () => {
    render(
      <TableChart
        data={regions}
        title="Regions"
        locale="en-US"
        columns={[
          "region",
          {
            key: "revenue",
            label: "Revenue",
            numberFormat: { style: "currency", currency: "EUR" },
          },
          {
            key: "growth",
            label: "Growth",
            numberFormat: { style: "percent", maximumFractionDigits: 1 },
            rules: [
              { when: "below", value: 0, tone: "bad", label: "shrinking" },
              { when: "at_or_above", value: 0.1, tone: "good" },
            ],
          },
          { key: "opened", label: "Opened" },
        ]}
      />,
    );
    const table = screen.getByRole("table");
    expect(bodyRows(table)).toEqual([
      ["North", "€1,200.50", "✕-4% (shrinking)", "Mar 1, 2021"],
      ["South", "€950.00", "✓12% (good)", "Nov 15, 2019"],
      ["East", "€1,800.00", "2%", "Jun 30, 2023"],
    ]);
    const growth = within(table)
      .getAllByRole("cell")
      .filter((cell) => cell.dataset.tone);
    expect(growth.map((cell) => cell.dataset.tone)).toEqual(["bad", "good"]);
    // The row header is the first column; numbers are right-aligned by their kind.
    expect(
      within(table)
        .getAllByRole("rowheader")
        .map((cell) => cell.textContent),
    ).toEqual(["North", "South", "East"]);
    expect(within(table).getAllByRole("columnheader")[1]?.dataset.kind).toBe("number");
    expect(screen.getByRole("group", { name: "Regions" })).toHaveAttribute("tabindex", "0");
  });

  it("sorts by a pressed header, then the other way, with missing values last both ways", () => {
    const { container } = render(
      <TableChart data={vegaCars()} title="Cars" columns={["Name", "Horsepower"]} pageSize={0} />,
    );
    const header = screen.getByRole("columnheader", { name: /Horsepower/ });
    expect(header).not.toHaveAttribute("aria-sort");
    for (const direction of ["ascending", "descending"] as const) {
      fireEvent.click(within(header).getByRole("button"));
      expect(header).toHaveAttribute("aria-sort", direction);
      const table = container.querySelector("table") as CsvSourceTable;
      const values = (table.seedCsv?.() ?? []).slice(1).map((row) => row[1] ?? null);
      const present = values.filter((value) => value !== null).map(Number);
      expect(present.length).toBeLessThan(values.length);
      // every missing value after every present one
      expect(values.slice(present.length).every((value) => value === null)).toBe(true);
      const sorted = [...present].sort((a, b) => (direction === "ascending" ? a - b : b - a));
      expect(present).toEqual(sorted);
    }
    expect(screen.getByRole("table")).toHaveAccessibleName(
      "Cars: 406 rows, sorted by Horsepower descending.",
    );
  });

  it("pages the rows, says which are shown, and goes back to the first page on a new sort", () => {
    const cars = vegaCars();
    render(<TableChart data={cars} title="Cars" columns={["Name", "Year"]} locale="en-US" />);
    const table = screen.getByRole("table");
    expect(bodyRows(table)).toHaveLength(10);
    expect(screen.getByText("Rows 1–10 of 406")).toBeInTheDocument();
    const previous = screen.getByRole("button", { name: "Previous page" });
    const next = screen.getByRole("button", { name: "Next page" });
    expect(previous).toBeDisabled();
    fireEvent.click(next);
    expect(screen.getByText("Rows 11–20 of 406")).toBeInTheDocument();
    expect(bodyRows(table)[0]?.[0]).toBe(cars[10]?.Name);
    for (let page = 0; page < 45; page++) fireEvent.click(next);
    expect(screen.getByText("Rows 401–406 of 406")).toBeInTheDocument();
    expect(next).toBeDisabled();
    fireEvent.click(within(table).getByRole("button", { name: /Name/ }));
    expect(screen.getByText("Rows 1–10 of 406")).toBeInTheDocument();
  });

  it("exports every row, not only the page, with raw values under the columns' labels", () => {
    const { container } = render(
      <TableChart
        data={regions}
        columns={["region", { key: "revenue", label: "Revenue (€)" }]}
        pageSize={2}
      />,
    );
    expect(csvOf(container)).toBe(
      "region,Revenue (€)\r\nNorth,1200.5\r\nSouth,950\r\nEast,1800\r\n",
    );
  });

  it("calls onValueChange with the caller's row when its row header is pressed", () => {
    const onValueChange = vi.fn();
    render(
      <TableChart data={regions} columns={["region", "revenue"]} onValueChange={onValueChange} />,
    );
    fireEvent.click(screen.getByRole("button", { name: "South" }));
    expect(onValueChange).toHaveBeenCalledWith({ row: regions[1], rowIndex: 1 });
  });

  it("shows an empty state with a reason, and reports every value it could not read", () => {
    const onDataIssues = vi.fn();
    const { rerender } = render(
      <TableChart
        data={[{ n: "twelve" }, 7 as unknown as { n: number }, { n: 3 }]}
        columns={[{ key: "n", kind: "number" }]}
        onDataIssues={onDataIssues}
      />,
    );
    expect(onDataIssues).toHaveBeenCalledWith([
      { row: 0, key: "n", reason: '"twelve" is not a finite number; shown as missing' },
      { row: 1, key: null, reason: "7 is not a row object" },
    ]);
    expect(bodyRows(screen.getByRole("table"))).toEqual([["–"], ["3"]]);
    rerender(<TableChart data={[5, "x"] as unknown as { n: number }[]} columns={["n"]} />);
    expect(screen.getByTestId("seed-chart-empty")).toHaveTextContent("No row could be read");
  });
});

const anyValue = fc.oneof(
  fc.double(),
  fc.integer(),
  fc.string(),
  fc.constantFrom(null, undefined, "", "2024-02-30", "2024-01-31", "1970-01-01T00:00:00Z"),
  fc.date({ noInvalidDate: false }),
  fc.boolean(),
  fc.anything(),
);

describe("TableChart on any data", () => {
  it("never throws, keeps every row object, and sorts any column in order", () => {
    assertSeeded(
      "TableChart never crashes and sorts",
      fc.property(
        fc.array(
          fc.oneof(
            { weight: 8, arbitrary: fc.dictionary(fc.constantFrom("a", "b", "c"), anyValue) },
            { weight: 1, arbitrary: anyValue },
          ),
          { maxLength: 40 },
        ),
        fc.array(
          fc.oneof(
            fc.constantFrom("a", "b", "c", "missing"),
            fc.record({
              key: fc.constantFrom("a", "b", "c"),
              kind: fc.constantFrom("number", "date", "text", undefined),
              label: fc.string({ maxLength: 300 }),
              rules: fc.array(
                fc.record({
                  when: fc.constantFrom("below", "at_or_below", "above", "at_or_above", "equal"),
                  value: fc.double(),
                  tone: fc.constantFrom("good", "warning", "bad"),
                }),
                { maxLength: 3 },
              ),
            }),
          ),
          { maxLength: 4 },
        ),
        fc.integer({ min: -2, max: 50 }),
        fc.constantFrom("en-US", "de-DE", "not a locale!", undefined),
        (data, columns, pageSize, locale) => {
          const { container, unmount } = render(
            <TableChart
              data={data as Record<string, unknown>[]}
              columns={columns as never}
              pageSize={pageSize}
              locale={locale}
              title="Any"
            />,
          );
          try {
            expect(container.querySelector("[data-chart='TableChart']")).not.toBeNull();
            const objects = data.filter((row) => typeof row === "object" && row !== null).length;
            const table = container.querySelector("table");
            if (!table) return;
            const buttons = within(table).getAllByRole("button");
            const sortButton = buttons[0];
            if (!sortButton) return;
            fireEvent.click(sortButton);
            const source = (table as CsvSourceTable).seedCsv?.() ?? [];
            expect(source.length - 1).toBe(objects);
          } finally {
            unmount();
          }
        },
      ),
      150,
    );
  });
});

describe("sortTableRows", () => {
  it("orders any column's values, missing last, ties in the data's order, losing no row", () => {
    assertSeeded(
      "TableChart sort order",
      fc.property(
        fc.array(fc.record({ a: anyValue, b: anyValue }), { maxLength: 60 }),
        fc.constantFrom("number", "date", "text"),
        fc.constantFrom("asc", "desc"),
        (data, kind, direction) => {
          const frame = prepareTableFrame(data, [{ key: "a", kind }, "b"], { locale: "en-US" });
          const sorted = sortTableRows(frame, { key: "a", direction }, "en-US");
          expect(sorted.map((row) => row.index).sort((x, y) => x - y)).toEqual(
            frame.rows.map((row) => row.index),
          );
          const collator = new Intl.Collator("en-US", { numeric: true });
          const sign = direction === "asc" ? 1 : -1;
          for (let at = 1; at < sorted.length; at++) {
            const before = sorted[at - 1];
            const after = sorted[at];
            if (!before || !after) continue;
            const x = before.cells[0]?.value ?? null;
            const y = after.cells[0]?.value ?? null;
            if (x === null) {
              expect(y).toBeNull();
              expect(before.index).toBeLessThan(after.index);
              continue;
            }
            if (y === null) continue;
            const by =
              typeof x === "number" && typeof y === "number"
                ? Math.sign(x - y)
                : collator.compare(String(x), String(y));
            expect(sign * by).toBeLessThanOrEqual(0);
            if (by === 0) expect(before.index).toBeLessThan(after.index);
          }
        },
      ),
      300,
    );
  });
});
