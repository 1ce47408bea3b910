import "server-only";
import type { AlertTarget } from "@seed/model";
import type { Actor, Store } from "@seed/store";
import type { AlertTargetGroups } from "@/features/alerts/alert-form";

/** The target select's value for a target (the form's action reads it back). */
export function targetValue(target: AlertTarget): string {
  return target.kind === "stat"
    ? `stat:${target.dashboardId}:${target.tileId}`
    : `chart:${target.chartId}:${target.series}`;
}

/** What an alert can watch, as the form's two groups of options. */
export async function alertTargetGroups(store: Store, actor: Actor): Promise<AlertTargetGroups> {
  const choices = await store.alertTargetChoices(actor);
  return {
    statTiles: choices.statTiles.map((tile) => ({
      value: targetValue({ kind: "stat", dashboardId: tile.dashboardId, tileId: tile.tileId }),
      label: `${tile.dashboardTitle}: ${tile.label}`,
    })),
    chartMeasures: choices.chartMeasures.map((measure) => ({
      value: targetValue({ kind: "chart", chartId: measure.chartId, series: measure.series }),
      label: `${measure.chartTitle}: ${measure.label}`,
    })),
  };
}
