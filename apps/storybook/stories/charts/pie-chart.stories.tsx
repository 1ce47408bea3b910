import { PieChart } from "@seed/charts";
import "@seed/charts/styles.css";
import type { Meta, StoryObj } from "@storybook/react-vite";
import { expect, userEvent, waitFor, within } from "storybook/test";
import { browserShare, type ShareRow } from "./data";

const meta = {
  title: "Charts/PieChart",
  component: PieChart<ShareRow>,
  args: {
    data: browserShare(),
    index: "browser",
    value: { key: "visits", label: "Visits" },
    title: "Visits by browser",
    locale: "en-US",
  },
  argTypes: {
    variant: { control: "inline-radio", options: ["pie", "donut"] },
    labels: { control: "inline-radio", options: ["percent", "value", "name", false] },
    otherThreshold: { control: { type: "range", min: 0, max: 0.2, step: 0.01 } },
    data: { control: false },
  },
} satisfies Meta<typeof PieChart<ShareRow>>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Pie: Story = {
  // a still pie, so the pointer lands on a sector that is not growing in
  args: { animate: false },
  play: async ({ canvasElement }) => {
    await waitFor(
      async () => {
        const sector = canvasElement.querySelector(".recharts-pie-sector path") as Element;
        await expect(sector).toBeInTheDocument();
        await userEvent.unhover(sector);
        await userEvent.hover(sector);
        await expect(canvasElement.querySelector(".seed-chart-tooltip")).toHaveTextContent(
          /Chrome/,
        );
      },
      { timeout: 5000 },
    );
  },
};

export const Donut: Story = {
  args: { variant: "donut" },
  play: async ({ canvasElement }) => {
    await expect(canvasElement.querySelector(".seed-chart-center-label")).toHaveTextContent(
      "10,370",
    );
  },
};

export const DonutCustomCentre: Story = {
  args: {
    variant: "donut",
    centerLabel: (_total, formatted) => `${formatted} visits`,
    labels: false,
  },
};

export const OtherGrouping: Story = {
  args: { otherThreshold: 0.05, otherLabel: "Everything else" },
  play: async ({ canvasElement }) => {
    await expect(
      within(canvasElement).getByRole("button", { name: "Everything else" }),
    ).toBeInTheDocument();
  },
};

export const LegendToggle: Story = {
  args: { variant: "donut" },
  play: async ({ canvasElement }) => {
    const button = within(canvasElement).getByRole("button", { name: "Chrome" });
    await userEvent.click(button);
    await waitFor(() =>
      expect(canvasElement.querySelector(".seed-chart-center-label")).toHaveTextContent("3,950"),
    );
    await userEvent.click(button);
  },
};

export const KeyboardNavigation: Story = {
  play: async ({ canvasElement }) => {
    const chart = within(canvasElement).getByRole("application");
    chart.focus();
    await userEvent.keyboard("{ArrowRight}");
    const live = canvasElement.querySelector("[aria-live=polite]") as HTMLElement;
    await waitFor(() => expect(live.textContent).toMatch(/Visits/));
  },
};

export const ValueLabels: Story = { args: { labels: "value", legend: "right" } };

export const ZeroTotal: Story = {
  args: { data: browserShare().map((row) => ({ ...row, visits: 0 })) },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText("All values are zero")).toBeInTheDocument();
  },
};

export const NegativeValues: Story = {
  args: { data: [...browserShare(), { browser: "Refunds", visits: -300 }] },
};

export const Loading: Story = { args: { loading: true } };

/** A small donut with a long total: the centre text is measured and scaled or shortened to fit the hole. */
export const DonutCentreFitsSmallHole: Story = {
  args: {
    variant: "donut",
    labels: false,
    legend: false,
    width: 140,
    height: 140,
    data: browserShare().map((row) => ({ ...row, visits: row.visits * 123_456.789 })),
  },
  play: async ({ canvasElement }) => {
    await waitFor(
      async () => {
        const pie = canvasElement.querySelector(".recharts-pie") as SVGGElement;
        const centre = canvasElement.querySelector(".seed-chart-center-label") as SVGTextElement;
        await expect(centre).toBeInTheDocument();
        // the hole is 62% of the ring's outer diameter
        const hole = pie.getBoundingClientRect().width * 0.62;
        await expect(centre.getBoundingClientRect().width).toBeLessThanOrEqual(hole);
      },
      { timeout: 5000 },
    );
  },
};

const centreSizes = [32, 48, 80, 140, 320];
const centreTotals = [7, 3_950, 1_234_567_890, 987_654_321_012_345];

/** Donuts from 32 to 320 px around totals up to 10^15: every centre label lies wholly inside its hole. */
export const DonutCentreFitsAnySize: Story = {
  render: (args) => (
    <div style={{ display: "flex", flexWrap: "wrap", alignItems: "end", gap: 8 }}>
      {centreTotals.flatMap((total) =>
        centreSizes.map((size) => (
          <PieChart
            key={`${total}-${size}`}
            {...args}
            data={[
              { browser: "A", visits: total * 0.6 },
              { browser: "B", visits: total * 0.4 },
            ]}
            title={`Donut of ${size} px, total ${total}`}
            variant="donut"
            labels={false}
            legend={false}
            width={size}
            height={size}
            animate={false}
          />
        )),
      )}
    </div>
  ),
  play: async ({ canvasElement }) => {
    const figures = [...canvasElement.querySelectorAll(".seed-chart")];
    await expect(figures).toHaveLength(centreSizes.length * centreTotals.length);
    await waitFor(
      async () => {
        for (const figure of figures) {
          const pie = figure.querySelector(".recharts-pie") as SVGGElement | null;
          const centre = figure.querySelector(".seed-chart-center-label") as SVGTextElement | null;
          if (!pie || !centre) throw new Error("not drawn yet");
          const ring = pie.getBoundingClientRect();
          const cx = ring.left + ring.width / 2;
          const cy = ring.top + ring.height / 2;
          // the hole is 62% of the ring's outer diameter; the ring fits its box
          const hole = (Math.max(ring.width, ring.height) * 0.62) / 2;
          const text = centre.getBoundingClientRect();
          const reach = Math.hypot(
            Math.max(Math.abs(text.left - cx), Math.abs(text.right - cx)),
            Math.max(Math.abs(text.top - cy), Math.abs(text.bottom - cy)),
          );
          await expect(reach, figure.getAttribute("aria-label") ?? "").toBeLessThanOrEqual(
            hole + 0.5,
          );
          const box = figure.querySelector(".seed-chart-plot")?.getBoundingClientRect();
          await expect(ring.width).toBeLessThanOrEqual((box?.width ?? 0) + 0.5);
        }
      },
      { timeout: 5000 },
    );
  },
};
