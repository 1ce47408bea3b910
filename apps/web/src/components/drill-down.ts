import {
  type AppliedDashboardFilters,
  categoryValueOf,
  describeAllPeriods,
  describeAllValues,
  describePeriod,
  emptyValueLabel,
  filteredHref,
  nextDrillGrain,
  periodOf,
  withDrill,
} from "@seed/model";
import type { QueryResult, TileDrill } from "@seed/store";

// Drill-down: a click on a period of a chart's time axis leads to the dashboard's own link with
// that chart drilled into the period (the model's withDrill), so the view is shareable, cached and
// works in embeds; a breadcrumb leads back. The one home of which link a click or crumb is.

/** What a drillable chart on a page needs to turn clicks into links (all of it serialisable). */
export interface DrillLink {
  /** The dashboard's own path (the filter bar's action). */
  action: string;
  /** The filters (and drills) the page shows now. */
  applied: AppliedDashboardFilters;
  tileId: string;
  drill: TileDrill;
}

/**
 * Where a click on the row leads: its period (or, through a category hierarchy, its value)
 * drilled into; null at the last level or off a period or value (Other, a value too long).
 */
export function drillClickHref(
  link: DrillLink,
  result: Pick<QueryResult, "rows">,
  rowIndex: number,
): string | null {
  const drill = link.drill;
  const to = (target: Parameters<typeof withDrill>[2]) =>
    filteredHref(link.action, withDrill(link.applied, link.tileId, target));
  if (drill.kind === "category") {
    if (drill.next === null) return null;
    const value = categoryValueOf(result.rows, rowIndex, drill.otherRow);
    return value === undefined ? null : to([...drill.trail, value]);
  }
  const grain = drill.drillsInto;
  if (grain === null) return null;
  const period = periodOf(grain, result.rows[rowIndex]?.x);
  return period ? to(period) : null;
}

/** Where pressing a pie's legend entry (a slice, by its x value) drills; null when none does. */
export function drillLegendHref(
  link: DrillLink,
  result: Pick<QueryResult, "rows">,
  key: string,
): string | null {
  const rowIndex = result.rows.findIndex((row) => row.x === key);
  return rowIndex < 0 ? null : drillClickHref(link, result, rowIndex);
}

export interface DrillCrumb {
  label: string;
  /** Null for the period or value shown now (the last crumb). */
  href: string | null;
}

/**
 * The breadcrumb of a drilled chart ("All years", "2016", "Q2 2016"; "All region", "Europe");
 * empty when not drilled.
 */
export function drillCrumbs(link: DrillLink): DrillCrumb[] {
  const drill = link.drill;
  if (drill.trail.length === 0) return [];
  const to = (target: Parameters<typeof withDrill>[2]) =>
    filteredHref(link.action, withDrill(link.applied, link.tileId, target));
  const last = drill.trail.length - 1;
  if (drill.kind === "category") {
    return [
      { label: describeAllValues(drill.levels[0] ?? ""), href: to(null) },
      ...drill.trail.map((value, index) => ({
        label: value ?? emptyValueLabel,
        href: index === last ? null : to(drill.trail.slice(0, index + 1)),
      })),
    ];
  }
  return [
    { label: describeAllPeriods(drill.base), href: to(null) },
    ...drill.trail.map((period, index) => ({
      label: describePeriod(period),
      href: index === last ? null : to(period),
    })),
  ];
}

const plural = { quarter: "quarters", month: "months", week: "weeks", day: "days" } as const;

/**
 * What a click on a period or value shows, as a hint reads it after "see" ("its quarters", "it by
 * country"); null when clicks drill no further.
 */
export function drillTarget(drill: TileDrill | null | undefined): string | null {
  if (drill?.kind === "category") return drill.next === null ? null : `it by ${drill.next}`;
  const next = drill?.drillsInto ? nextDrillGrain(drill.drillsInto) : null;
  return next && next !== "year" ? `its ${plural[next]}` : null;
}

/** Whether a click drills (rather than filters the dashboard). */
export function clickDrills(drill: TileDrill | null | undefined): boolean {
  return drillTarget(drill) !== null;
}
