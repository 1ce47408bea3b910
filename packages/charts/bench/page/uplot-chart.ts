import type uPlotType from "uplot";
import type { Walks } from "./walks";

/**
 * The benchmark's uPlot tooltip: a small box beside the cursor with `text` of the hovered index,
 * as two hooks (it is added to the plot at init and moved on every cursor move).
 */
export function tooltipHooks(
  text: (u: uPlotType, idx: number) => string,
): Pick<uPlotType.Hooks.Arrays, "init" | "setCursor"> {
  const tooltip = document.createElement("div");
  tooltip.className = "bench-uplot-tooltip";
  tooltip.style.cssText =
    "position:absolute;display:none;pointer-events:none;background:#fff;border:1px solid #ccc;padding:4px 6px;font:12px sans-serif;z-index:10";
  return {
    init: [(u) => u.over.appendChild(tooltip)],
    setCursor: [
      (u) => {
        const { idx, left, top } = u.cursor;
        if (idx === null || idx === undefined || left === undefined || left < 0) {
          tooltip.style.display = "none";
          return;
        }
        tooltip.textContent = text(u, idx);
        tooltip.style.display = "block";
        tooltip.style.transform = `translate(${left + 12}px, ${top ?? 0}px)`;
      },
    ],
  };
}

/** uPlot as the anchor: the same chart (axes, grid, legend, crosshair, a small tooltip) on canvas. */
export function mountUplot(
  uPlot: typeof uPlotType,
  target: HTMLElement,
  walks: Walks,
  options: { width: number; height: number; colors: readonly string[] },
): uPlotType {
  const seconds = walks.t.map((ms) => ms / 1000);
  return new uPlot(
    {
      width: options.width,
      height: options.height,
      series: [
        {},
        ...walks.keys.map((key, i) => ({ label: key, stroke: options.colors[i], width: 2 })),
      ],
      axes: [{ grid: { show: true } }, { grid: { show: true } }],
      hooks: tooltipHooks((u, idx) => {
        const values = walks.keys.map(
          (key, s) => `${key} ${((u.data[s + 1] as ArrayLike<number>)[idx] ?? 0).toFixed(2)}`,
        );
        return `${new Date((u.data[0][idx] ?? 0) * 1000).toISOString()} ${values.join(" ")}`;
      }),
    },
    [seconds, ...walks.columns],
    target,
  );
}
