/** What export functions accept: a ref or element that is, or contains, one chart. */
export type ChartTarget = { current: Element | null } | Element | null;

/** The chart's <figure class="seed-chart"> behind a ref, or a clear error. */
export function findChart(target: ChartTarget): HTMLElement {
  const element = target && "current" in target ? target.current : target;
  if (!element) throw new Error("exportChart: the ref is not attached to an element yet.");
  const chart =
    element.closest<HTMLElement>(".seed-chart") ??
    element.querySelector<HTMLElement>(".seed-chart");
  if (!chart) throw new Error("exportChart: no @seed/charts chart in or around this element.");
  return chart;
}
