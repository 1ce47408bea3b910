import { expect, fireEvent, userEvent, waitFor, within } from "storybook/test";

// generous, because stories run on busy CI machines; a condition, never a fixed sleep
const WAIT = { timeout: 5000 };

/** Moves the mouse to a fraction of the plot's width and waits for the themed tooltip. */
export async function hoverPlot(canvasElement: HTMLElement, fraction = 0.5) {
  const wrapper = canvasElement.querySelector(".recharts-wrapper") as HTMLElement;
  const box = wrapper.getBoundingClientRect();
  const point = { clientX: box.left + box.width * fraction, clientY: box.top + box.height / 2 };
  fireEvent.mouseMove(wrapper, point);
  await waitFor(
    () => expect(canvasElement.querySelector(".seed-chart-tooltip")).toBeInTheDocument(),
    WAIT,
  );
  return canvasElement.querySelector(".seed-chart-tooltip") as HTMLElement;
}

/** Clicks a legend item and checks that its series is no longer drawn. */
export async function toggleLegendItem(
  canvasElement: HTMLElement,
  name: string,
  drawnSelector: string,
) {
  const before = canvasElement.querySelectorAll(drawnSelector).length;
  const button = within(canvasElement).getByRole("button", { name });
  await userEvent.click(button);
  await expect(button).toHaveAttribute("aria-pressed", "false");
  await waitFor(
    () => expect(canvasElement.querySelectorAll(drawnSelector).length).toBeLessThan(before),
    WAIT,
  );
  await userEvent.click(button);
  await expect(button).toHaveAttribute("aria-pressed", "true");
}

/** Tabs into the chart, presses ArrowRight twice and checks the live region follows. */
export async function arrowThroughPoints(canvasElement: HTMLElement) {
  const chart = within(canvasElement).getByRole("application");
  chart.focus();
  const live = canvasElement.querySelector("[aria-live=polite]") as HTMLElement;
  await userEvent.keyboard("{ArrowRight}");
  await waitFor(() => expect(live.textContent).not.toBe(""), WAIT);
  const first = live.textContent;
  await userEvent.keyboard("{ArrowRight}");
  await waitFor(() => expect(live.textContent).not.toBe(first), WAIT);
}
