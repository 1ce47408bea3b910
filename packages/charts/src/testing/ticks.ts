// Test helper (not part of any build entry): reads what a drawn chart shows on its axes.

/** The text of each tick label on the chart's x or y axis, in drawing order. */
export function tickTexts(container: ParentNode, axis: "xAxis" | "yAxis"): string[] {
  return Array.from(
    container.querySelectorAll(`.recharts-${axis}-tick-labels .recharts-cartesian-axis-tick-value`),
  ).map((node) => node.textContent ?? "");
}
