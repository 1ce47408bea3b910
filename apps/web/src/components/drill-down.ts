import {
  type AppliedDashboardFilters,
  describeAllPeriods,
  describePeriod,
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

/** Where a click on the row's period leads; null at days (the last level) or off a period. */
export function drillClickHref(
  link: DrillLink,
  result: Pick<QueryResult, "rows">,
  rowIndex: number,
): string | null {
  const grain = link.drill.drillsInto;
  if (grain === null) return null;
  const period = periodOf(grain, result.rows[rowIndex]?.x);
  return period ? filteredHref(link.action, withDrill(link.applied, link.tileId, period)) : null;
}

export interface DrillCrumb {
  label: string;
  /** Null for the period shown now (the last crumb). */
  href: string | null;
}

/** The breadcrumb of a drilled chart ("All years", "2016", "Q2 2016"); empty when not drilled. */
export function drillCrumbs(link: DrillLink): DrillCrumb[] {
  const { trail, base } = link.drill;
  if (trail.length === 0) return [];
  const to = (period: (typeof trail)[number] | null) =>
    filteredHref(link.action, withDrill(link.applied, link.tileId, period));
  return [
    { label: describeAllPeriods(base), href: to(null) },
    ...trail.map((period, index) => ({
      label: describePeriod(period),
      href: index === trail.length - 1 ? null : to(period),
    })),
  ];
}

const plural = { quarter: "quarters", month: "months", week: "weeks", day: "days" } as const;

/** What a click on a period shows, as a hint reads it ("quarters"); null when clicks drill no further. */
export function drillTarget(drill: TileDrill | null | undefined): string | null {
  const next = drill?.drillsInto ? nextDrillGrain(drill.drillsInto) : null;
  return next && next !== "year" ? plural[next] : null;
}
