// The dashboard records as the store hands them out, and their rendered forms.
import type {
  Aggregation,
  AppliedDashboardFilters,
  DashboardFilterConfig,
  DrillGrain,
  DrillPeriod,
  IconName,
  NumberFormat,
  QueryFilter,
  RefreshSeconds,
  StatComparison,
  ThresholdRule,
  ThresholdStatus,
  TileLayout,
  TimeGrain,
} from "@seed/model";
import type { QueryResult } from "../../engine/result.js";
import type { Chart } from "../charts.js";

export type DashboardStatus = "draft" | "published";

export interface Dashboard {
  id: string;
  title: string;
  slug: string;
  description: string;
  icon: IconName | null;
  /** IANA zone for day and coarser buckets and relative dates; null is UTC. */
  timeZone: string | null;
  status: DashboardStatus;
  publishedAt: string | null;
  /** Origins allowed to frame this dashboard's embeds (CSP frame-ancestors); empty allows none. */
  embedOrigins: string[];
  /** Seconds between the public page's own refreshes; null is off. */
  refreshSeconds: RefreshSeconds | null;
  /** The columns its filter bar filters by. */
  filters: DashboardFilterConfig;
  /** The provisioning folder's file it is kept from (then read-only in the app), or null. */
  managedFile: string | null;
  version: number;
  createdAt: string;
  updatedAt: string;
}

export interface DashboardSummary extends Dashboard {
  tileCount: number;
  /** The latest change to the dashboard, its charts or the data they draw (ISO 8601). */
  lastUpdatedAt: string;
}

export interface ChartTile {
  kind: "chart";
  id: string;
  /** Its name in the dashboard's file (set by a file or kept from one); null: derived on export. */
  key: string | null;
  /** Reading order: by row, then column. */
  position: number;
  layout: TileLayout;
  chartId: string;
}

export interface TextTile {
  kind: "text";
  id: string;
  /** Its name in the dashboard's file (set by a file or kept from one); null: derived on export. */
  key: string | null;
  position: number;
  layout: TileLayout;
  /** Markdown as the editor wrote it; pages render it without raw HTML or unsafe links. */
  markdown: string;
}

export interface StatTile {
  kind: "stat";
  id: string;
  /** Its name in the dashboard's file (set by a file or kept from one); null: derived on export. */
  key: string | null;
  position: number;
  layout: TileLayout;
  label: string;
  datasetId: string;
  column: string;
  aggregation: Aggregation;
  format: NumberFormat | null;
  icon: IconName | null;
  filters: QueryFilter[];
  compare: boolean;
  /** With compare: the period just before (the default) or the same dates a year before. */
  compareWith: StatComparison;
  thresholds: ThresholdRule[];
}

export type DashboardTile = ChartTile | StatTile | TextTile;

export interface DashboardWithTiles extends Dashboard {
  tiles: DashboardTile[];
}

export interface RenderedChartTile {
  kind: "chart";
  id: string;
  position: number;
  layout: TileLayout;
  chart: Chart;
  /** The chart's query result: all a page gets of the dataset. Null when `error` says why. */
  result: QueryResult | null;
  /** Why the chart cannot be drawn, e.g. a column it uses was deleted (names the column). */
  error: string | null;
  /** Applied dashboard filters that do not reach this chart's dataset (column names). */
  notFilteredBy: string[];
  /** What a click on the chart filters the dashboard by; null when it filters nothing. */
  crossFilter: TileCrossFilter | null;
  /** Drill-down through periods or a category hierarchy; null when the chart has none. */
  drill: TileDrill | null;
}

/** Drill-down of a chart: through time periods or through a dataset's category hierarchy. */
export type TileDrill = TimeDrill | CategoryDrill;

/**
 * Drill-down on a time axis: the chart's own grain, the periods it was drilled into (from its own
 * grain down to the period it shows; empty when not drilled) and whether a click on a period
 * drills further.
 */
export interface TimeDrill {
  kind: "time";
  base: DrillGrain;
  trail: DrillPeriod[];
  /** The grain the chart shows now. */
  shown: TimeGrain;
  /** The grain of the period a click drills into (the shown one); null at days, the last level. */
  drillsInto: DrillGrain | null;
}

/**
 * Drill-down through a category hierarchy: its levels from the chart's own x down, the values
 * chosen so far (empty when not drilled), the column shown now and the one a click shows.
 */
export interface CategoryDrill {
  kind: "category";
  levels: string[];
  trail: Array<string | null>;
  shown: string;
  /** The column a click on a value shows; null at the hierarchy's last level. */
  next: string | null;
  /** The row that measures the rest together ("Other"): it stands for no value. */
  otherRow: number | null;
}

/**
 * Cross-filter: the dashboard's category filters a chart's values stand for, so a click on a
 * point, bar or slice (or its series) becomes that filter's link.
 */
export interface TileCrossFilter {
  /** The category filter whose values the chart's x values are, or null. */
  x: {
    column: string;
    /** The row past the limit that measures the rest together ("Other"): it stands for no value. */
    otherRow: number | null;
  } | null;
  /** The category filter the chart's series split by, and each series key's value, or null. */
  series: { column: string; values: Record<string, string> } | null;
}

/** A stat tile with what a page shows of it: the dataset's name, the value and its status. */
export interface RenderedStatTile extends StatTile {
  datasetName: string;
  value: number | null;
  /** The threshold rule the value meets, as a tone and words; null when none applies. */
  status: ThresholdStatus | null;
  /** Fraction (-0.12 = -12%) against the previous period, or the previous value for "last". */
  delta: number | null;
  deltaLabel: string | null;
  /** Why there is no value though the query ran (no rows in the period, and which). */
  empty: string | null;
  /** Why the value cannot be computed (a column it uses was deleted or retyped). */
  error: string | null;
  /** Applied dashboard filters that do not reach this tile's dataset (column names). */
  notFilteredBy: string[];
}

export type RenderedTile = RenderedChartTile | RenderedStatTile | TextTile;

/** One category filter of the bar: its column, its name in the URL and the values it offers. */
export interface DashboardCategoryFilter {
  column: string;
  param: string;
  /** The most common values across the dashboard's datasets, most common first (bounded). */
  values: string[];
}

/** Everything a page needs to draw a dashboard, read in one consistent transaction. */
export interface RenderedDashboard {
  dashboard: Dashboard;
  tiles: RenderedTile[];
  /** The shortest cache time-to-live of the live sources its tiles read; null when none. */
  liveCacheSeconds: number | null;
  /** The filter bar: what it offers and what is applied. */
  filterBar: {
    dateColumn: string | null;
    categories: DashboardCategoryFilter[];
    /** The filters the link asked for, as written (a value in any letter case). */
    asked: AppliedDashboardFilters;
    /** The filters that apply: values as the data writes them, those matching nothing left out. */
    applied: AppliedDashboardFilters;
    /** What was ignored of the filters asked for (an unknown name, a bad date), one sentence each. */
    problems: string[];
  };
}

/** How a stat tile's settings are stored (config_json). */
export type StatTileConfig = Pick<
  StatTile,
  "label" | "column" | "aggregation" | "format" | "icon"
> &
  Partial<Pick<StatTile, "filters" | "compare" | "compareWith" | "thresholds">> &
  TileKeyConfig;
/** How a text tile's settings are stored (config_json). */
export type TextTileConfig = Pick<TextTile, "markdown"> & TileKeyConfig;
/** Every tile's config_json may keep its file key (a chart tile's holds only that). */
export interface TileKeyConfig {
  key?: string;
}
