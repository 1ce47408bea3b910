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
