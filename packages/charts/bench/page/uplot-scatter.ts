import type uPlotType from "uplot";
import { CLOUD_GROUPS, type Cloud } from "./clouds";
import { tooltipHooks } from "./uplot-chart";

/**
 * uPlot as the scatter anchor: one points-only series per group on canvas, with axes, grid,
 * legend and a small tooltip of the nearest point. uPlot needs ascending x, so the points are
 * sorted once before the clock starts (`prepare`).
 */
export function prepareUplotScatter(cloud: Cloud): { xs: Float64Array; series: Float64Array[] } {
  const order = Array.from(cloud.x.keys()).sort(
    (a, b) => (cloud.x[a] as number) - (cloud.x[b] as number),
  );
  const xs = Float64Array.from(order, (i) => cloud.x[i] as number);
  const series = CLOUD_GROUPS.map((name) =>
    Float64Array.from(order, (i) =>
      cloud.group[i] === name ? (cloud.y[i] as number) : Number.NaN,
    ),
  );
  return { xs, series };
}

export function mountUplotScatter(
  uPlot: typeof uPlotType,
  target: HTMLElement,
  data: { xs: Float64Array; series: Float64Array[] },
  options: { width: number; height: number; colors: readonly string[] },
): uPlotType {
  return new uPlot(
    {
      width: options.width,
      height: options.height,
      scales: { x: { time: false } },
      series: [
        {},
        ...CLOUD_GROUPS.map((name, i) => ({
          label: name,
          stroke: options.colors[i % options.colors.length],
          fill: options.colors[i % options.colors.length],
          paths: () => null,
          points: { show: true, size: 4, space: 0 },
        })),
      ],
      axes: [{ grid: { show: true } }, { grid: { show: true } }],
      hooks: tooltipHooks((u, idx) => `x ${(u.data[0][idx] ?? 0).toFixed(2)}`),
    },
    [data.xs, ...data.series],
    target,
  );
}
