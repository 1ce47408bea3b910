import { BarChart } from "@seed/charts";
import "@seed/charts/styles.css";
import type { Meta, StoryObj } from "@storybook/react-vite";
import { expect, fn, userEvent, waitFor, within } from "storybook/test";
import { badRows, monthlySales, type RegionRow, regionSales } from "./data";
import { arrowThroughPoints, hoverPlot, toggleLegendItem } from "./play-helpers";

const meta = {
  title: "Charts/BarChart",
  component: BarChart<RegionRow>,
  args: {
    data: regionSales(),
    index: "region",
    series: [
      { key: "online", label: "Online" },
      { key: "retail", label: "Retail" },
      { key: "partners", label: "Partners" },
    ],
    title: "Sales by region and channel",
    locale: "en-US",
  },
  argTypes: {
    stack: { control: "inline-radio", options: ["none", "stacked", "percent"] },
    horizontal: { control: "boolean" },
    data: { control: false },
  },
} satisfies Meta<typeof BarChart<RegionRow>>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Grouped: Story = {
  play: async ({ canvasElement }) => {
    const tooltip = await hoverPlot(canvasElement, 0.5);
    await expect(tooltip).toHaveTextContent(/Online/);
  },
};

export const Stacked: Story = {
  args: { stack: "stacked" },
  play: async ({ canvasElement }) => {
    await toggleLegendItem(canvasElement, "Partners", ".recharts-bar-rectangle");
  },
};

export const PercentStacked: Story = { args: { stack: "percent" } };

export const Horizontal: Story = { args: { horizontal: true } };

export const HorizontalStacked: Story = { args: { horizontal: true, stack: "stacked" } };

/** Each bar's value at its end, in the chart's locale (German digits here), formatted like the tooltip. */
export const ValueLabels: Story = {
  args: {
    data: regionSales().map((row) => ({ ...row, online: row.online * 10 + 0.5 })),
    valueLabels: true,
    locale: "de-DE",
    animate: false,
    series: [{ key: "online", label: "Online" }],
  },
  argTypes: { valueLabels: { control: "boolean" } },
  play: async ({ canvasElement }) => {
    await waitFor(() =>
      expect(canvasElement.querySelectorAll(".seed-chart-value-label").length).toBeGreaterThan(0),
    );
    const first = canvasElement.querySelector(".seed-chart-value-label")?.textContent ?? "";
    await expect(first).toBe("4.200,5");
  },
};

export const ValueLabelsStacked: Story = {
  args: { valueLabels: true, stack: "stacked", animate: false },
};

export const KeyboardNavigation: Story = {
  play: async ({ canvasElement }) => {
    await arrowThroughPoints(canvasElement);
  },
};

export const ClickReportsRow: Story = {
  args: { onValueChange: fn(), animate: false },
  play: async ({ canvasElement, args }) => {
    const bar = canvasElement.querySelector(".recharts-bar-rectangle path") as Element;
    await userEvent.click(bar);
    await waitFor(() =>
      expect(args.onValueChange).toHaveBeenCalledWith(
        expect.objectContaining({ rowIndex: 0, seriesKey: "online" }),
      ),
    );
  },
};

/** A dashboard's cross-filter: pressing a legend entry selects its series instead of hiding it. */
export const LegendSelects: Story = {
  args: { onLegendSelect: fn(), animate: false },
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    await expect(
      canvas.getByRole("list", { name: "Legend: press a series to select it" }),
    ).toBeInTheDocument();
    const [first] = canvas.getAllByRole("listitem");
    const button = within(first as HTMLElement).getByRole("button");
    await userEvent.click(button);
    await expect(args.onLegendSelect).toHaveBeenCalledTimes(1);
    await expect(button).not.toHaveAttribute("aria-pressed");
  },
};

export const MonthlyDates = {
  render: () => (
    <BarChart
      data={monthlySales()}
      index="month"
      series={[{ key: "profit", label: "Profit", color: "var(--seed-chart-3)" }]}
      title="Profit per month"
      locale="fr-FR"
    />
  ),
} satisfies StoryObj;

export const Empty: Story = {
  args: { data: [] },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText("No data to display")).toBeInTheDocument();
  },
};

export const Loading: Story = { args: { loading: true } };

/** Bad rows are skipped, and the reasons are on screen under the plot. */
export const BadData = {
  render: () => (
    <BarChart
      data={badRows()}
      index="month"
      series={["revenue", "cost"]}
      title="Bars from bad rows"
    />
  ),
  play: async ({ canvasElement }: { canvasElement: HTMLElement }) => {
    const summary = await within(canvasElement).findByText(/data issues?: skipped or changed/);
    await expect(summary).toBeVisible();
    await userEvent.click(summary);
    const note = canvasElement.querySelector(".seed-chart-issues") as HTMLDetailsElement;
    await expect(note.open).toBe(true);
    await expect(note.querySelector("p")).toBeVisible();
  },
} satisfies StoryObj;

const longRegions = [
  { region: "North", revenue: 48_250.5 },
  { region: "The Southern Territories and Outlying Islands", revenue: 52_000 },
  { region: "East", revenue: 31_900.25 },
  { region: "West Coast Metropolitan Area", revenue: 40_120 },
];

/** A currency value axis as wide as "$52,000.00"; long region names cut, full name in a title. */
export const CurrencyAxisAndLongLabels = {
  render: () => (
    <div style={{ maxWidth: 480 }}>
      <BarChart
        data={longRegions}
        index="region"
        series={[{ key: "revenue", label: "Revenue" }]}
        title="Revenue by region"
        locale="en-US"
        valueFormatter={(v) =>
          v.toLocaleString("en-US", {
            style: "currency",
            currency: "USD",
            minimumFractionDigits: 2,
          })
        }
        yAxis={{ min: 0, max: 52_000 }}
        animate={false}
      />
    </div>
  ),
  play: async ({ canvasElement }: { canvasElement: HTMLElement }) => {
    const svg = await waitFor(() => {
      const surface = canvasElement.querySelector("svg.recharts-surface");
      if (!surface) throw new Error("not drawn yet");
      return surface;
    });
    // the widest label is drawn whole, inside the chart
    const top = await waitFor(() => {
      const labels = [
        ...svg.querySelectorAll(".recharts-yAxis-tick-labels .recharts-cartesian-axis-tick-value"),
      ];
      const found = labels.find((label) => label.textContent === "$52,000.00");
      if (!found) throw new Error("no $52,000.00 tick yet");
      return found;
    });
    await waitFor(() =>
      expect(top.getBoundingClientRect().left).toBeGreaterThanOrEqual(
        svg.getBoundingClientRect().left,
      ),
    );
    // first and last categories keep their labels; a long one is cut and titled in full
    const xLabels = [
      ...svg.querySelectorAll(".recharts-xAxis-tick-labels .recharts-cartesian-axis-tick-value"),
    ].map((label) => label.textContent ?? "");
    await expect(xLabels[0]).toBe("North");
    await expect(xLabels[xLabels.length - 1]).toMatch(/^West.*…$|^West Coast Metropolitan Area$/);
    const titles = [...svg.querySelectorAll(".recharts-xAxis-tick-labels title")].map(
      (title) => title.textContent,
    );
    await expect(titles).toContain("The Southern Territories and Outlying Islands");
  },
} satisfies StoryObj;
