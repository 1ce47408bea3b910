import type { AppliedDashboardFilters, TileLayout } from "@seed/model";
import type { DashboardTile, RenderedTile } from "@seed/store";
import { StatTile } from "@seed/ui";
import type { CSSProperties } from "react";
import { chartView, drilledView } from "@/components/chart-view";
import { filtersOnClick } from "@/components/cross-filter";
import { DashboardChart } from "@/components/dashboard-chart";
import { clickDrills } from "@/components/drill-down";
import { MarkdownText } from "@/components/markdown-text";
import { serverChartSvg } from "@/components/server-chart-svg";
import { statFigures } from "@/components/stat-figures";

/** Where a tile sits on the 12-column grid, as custom properties (the phone layout ignores them). */
export function gridPlacement(layout: TileLayout): CSSProperties {
  return {
    "--tile-column": layout.x + 1,
    "--tile-row": layout.y + 1,
    "--tile-w": layout.w,
    "--tile-h": layout.h,
  } as CSSProperties;
}

// Row height and gap of .dashboard-grid in px (5rem and 1rem), less a chart card's title and padding.
const rowPx = 80;
const gapPx = 16;
const chartChromePx = 96;

// The hint under a chart that acts on click: one line of small text and its margin (.chart-hint);
// a drilled chart's breadcrumb above it likewise (.chart-drill).
const chartHintPx = 26;
const drillCrumbsPx = 28;

/** A chart's drawing height for a tile `h` rows tall. */
export function chartHeightFor(h: number): number {
  return Math.max(160, h * rowPx + (h - 1) * gapPx - chartChromePx);
}

// Width of .dashboard-grid on a wide screen (.site-main's 72rem less its 1rem padding a side),
// and a chart card's padding and border on each side (1.25rem and 1px). The e2e test
// server-rendered-charts.spec.ts checks the drawings against the plot boxes they stand for.
const gridPx = 1120;
const cardPaddingPx = 21;

/**
 * A chart's drawing width for a tile `w` columns wide on a wide screen: what the server draws
 * it at (the browser scales that drawing to a narrower tile until the chart draws itself).
 */
export function chartWidthFor(w: number): number {
  const column = (gridPx - 11 * gapPx) / 12;
  return Math.max(120, Math.floor(w * column + (w - 1) * gapPx - 2 * cardPaddingPx));
}

/** A tile's name for people: the chart's title, the stat's label, or the text's first line. */
export function tileName(tile: DashboardTile, chartTitles: ReadonlyMap<string, string>): string {
  if (tile.kind === "chart") return chartTitles.get(tile.chartId) ?? "Missing chart";
  if (tile.kind === "stat") return tile.label;
  const firstLine = tile.markdown.split("\n").find((line) => line.trim() !== "") ?? "";
  const plain = firstLine.replace(/[#*_`>[\]()]/g, "").trim();
  return `Text: ${plain.length > 40 ? `${plain.slice(0, 39)}…` : plain}`;
}

/** A tile as the layout composer shows it: its id, kind, place and name for people. */
export function composerTile(tile: DashboardTile, chartTitles: ReadonlyMap<string, string>) {
  return { id: tile.id, kind: tile.kind, name: tileName(tile, chartTitles), layout: tile.layout };
}

/** A page's filters, for charts that filter it on click: its path and what applies now. */
export interface PageFilters {
  action: string;
  applied: AppliedDashboardFilters;
}

/** One rendered tile's content, the same on the public page and in the admin composer. */
export function TileContent({
  tile,
  headingLevel = 2,
  filters,
}: {
  tile: RenderedTile;
  headingLevel?: 2 | 3;
  /** The page's filters; without them (the composer) a click filters nothing. */
  filters?: PageFilters | undefined;
}) {
  if (tile.kind === "text") {
    return <MarkdownText markdown={tile.markdown} headingLevel={headingLevel} />;
  }
  if (tile.kind === "stat") {
    return <StatTile {...statFigures(tile)} icon={tile.icon ?? undefined} />;
  }
  const chart = drilledView(chartView(tile.chart), tile.drill);
  const crossFilter =
    filters && filtersOnClick(tile.crossFilter) && tile.crossFilter
      ? { ...filters, on: tile.crossFilter }
      : undefined;
  const drill =
    filters && tile.drill ? { ...filters, tileId: tile.id, drill: tile.drill } : undefined;
  // A chart that acts on click says so in one line under it, and a drilled one shows its periods
  // in one line over it, inside the same tile height.
  const hinted = crossFilter !== undefined || (drill !== undefined && clickDrills(drill.drill));
  const crumbed = drill !== undefined && drill.drill.trail.length > 0;
  const height =
    chartHeightFor(tile.layout.h) - (hinted ? chartHintPx : 0) - (crumbed ? drillCrumbsPx : 0);
  return (
    <DashboardChart
      chart={chart}
      staticSvg={serverChartSvg(chart, tile.result, chartWidthFor(tile.layout.w), height)}
      result={tile.result}
      error={tile.error}
      headingLevel={headingLevel === 2 ? "h2" : "h3"}
      height={height}
      crossFilter={crossFilter}
      drill={drill}
    />
  );
}
