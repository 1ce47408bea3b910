import { TableChart } from "@seed/charts/table-chart";
import "@seed/charts/styles.css";
import type { StoryObj } from "@storybook/react-vite";
import { expect, userEvent, waitFor, within } from "storybook/test";
import { monthlySales, regionSales } from "./data";

const meta = { title: "Charts/TableChart" };
export default meta;

const WAIT = { timeout: 5000 };

/** The body rows' cell texts, as shown. */
function shownRows(canvasElement: HTMLElement): string[][] {
  return [...canvasElement.querySelectorAll("tbody tr")].map((row) =>
    [...row.children].map((cell) => cell.textContent ?? ""),
  );
}

/**
 * Regions with their channels: currency by Intl, a total column toned by rules (the tone also
 * a mark and words, never colour alone), sorted by any header from the keyboard.
 */
export const SortedAndToned: StoryObj = {
  render: () => (
    <TableChart
      data={regionSales().map((row) => ({ ...row, total: row.online + row.retail + row.partners }))}
      title="Sales by region"
      locale="en-US"
      columns={[
        { key: "region", label: "Region" },
        {
          key: "online",
          label: "Online",
          numberFormat: { style: "currency", currency: "USD", maximumFractionDigits: 0 },
        },
        {
          key: "retail",
          label: "Retail",
          numberFormat: { style: "currency", currency: "USD", maximumFractionDigits: 0 },
        },
        {
          key: "total",
          label: "Total",
          rules: [
            { when: "below", value: 850, tone: "bad", label: "below target" },
            { when: "at_or_above", value: 900, tone: "good", label: "on target" },
          ],
        },
      ]}
    />
  ),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const total = canvas.getByRole("columnheader", { name: /Total/ });
    await expect(shownRows(canvasElement)).toEqual([
      ["North", "$420", "$310", "850"],
      ["South", "$380", "$450", "✓920 (on target)"],
      ["East", "$510", "$220", "890"],
      ["West", "$290", "$380", "✕810 (below target)"],
      ["Central", "$350", "$300", "✕710 (below target)"],
    ]);
    // Keyboard: Tab to the Total header's button, Enter sorts ascending, again descending.
    within(total).getByRole("button").focus();
    await userEvent.keyboard("{Enter}");
    await waitFor(() => expect(total).toHaveAttribute("aria-sort", "ascending"), WAIT);
    await expect(shownRows(canvasElement).map((row) => row[0])).toEqual([
      "Central",
      "West",
      "North",
      "East",
      "South",
    ]);
    await userEvent.keyboard("{Enter}");
    await waitFor(() => expect(total).toHaveAttribute("aria-sort", "descending"), WAIT);
    await expect(shownRows(canvasElement)[0]).toEqual([
      "South",
      "$380",
      "$450",
      "✓920 (on target)",
    ]);
  },
};

/** Twelve months, five to a page: the pager says which rows are shown and stops at the ends. */
export const Paged: StoryObj = {
  render: () => (
    <TableChart
      data={monthlySales()}
      title="Monthly sales"
      locale="en-US"
      pageSize={5}
      columns={[
        { key: "month", label: "Month" },
        { key: "revenue", label: "Revenue" },
        { key: "cost", label: "Cost" },
      ]}
    />
  ),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByText("Rows 1–5 of 12")).toBeVisible();
    const next = canvas.getByRole("button", { name: "Next page" });
    await userEvent.click(next);
    await userEvent.click(next);
    await expect(canvas.getByText("Rows 11–12 of 12")).toBeVisible();
    await expect(next).toBeDisabled();
    await expect(shownRows(canvasElement)).toHaveLength(2);
  },
};

/**
 * On a phone (343 px in a 375 px window): a long name wraps, the wide table scrolls inside its
 * own box (reachable by keyboard), and the page does not scroll sideways.
 */
export const OnAPhone: StoryObj = {
  render: () => (
    <div style={{ width: 343 }}>
      <TableChart
        data={regionSales().map((row, i) => ({
          ...row,
          region:
            i === 0
              ? "North Atlantic Coastal Distribution Region of the Northern Hemisphere"
              : row.region,
        }))}
        title="Sales by region and channel"
        locale="en-US"
        columns={["region", "online", "retail", "partners"]}
      />
    </div>
  ),
  play: async ({ canvasElement }) => {
    const box = within(canvasElement).getByRole("group", { name: "Sales by region and channel" });
    await expect(box).toHaveAttribute("tabindex", "0");
    await expect(box.getBoundingClientRect().width).toBeLessThanOrEqual(343.5);
    await expect(canvasElement.scrollWidth).toBeLessThanOrEqual(canvasElement.clientWidth);
  },
};

/** No rows: the empty state with its reason, never an empty grid. */
export const Empty: StoryObj = {
  render: () => <TableChart data={[]} title="No sales yet" columns={["region", "online"]} />,
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText("No data to display")).toBeVisible();
  },
};
