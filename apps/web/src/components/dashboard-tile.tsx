import { numberFormatIn, type TileLayout } from "@seed/model";
import type { DashboardTile, RenderedTile } from "@seed/store";
import { StatTile } from "@seed/ui";
import type { CSSProperties } from "react";
import { chartView } from "@/components/chart-view";
import { DashboardChart } from "@/components/dashboard-chart";
import { MarkdownText } from "@/components/markdown-text";

/** Stat tiles write numbers as @seed/ui's StatTile does by default (the same on server and client). */
const statLocale = "en-US";

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

/** A chart's drawing height for a tile `h` rows tall. */
export function chartHeightFor(h: number): number {
  return Math.max(160, h * rowPx + (h - 1) * gapPx - chartChromePx);
}

/** A tile's name for people: the chart's title, the stat's label, or the text's first line. */
export function tileName(tile: DashboardTile, chartTitles: ReadonlyMap<string, string>): string {
  if (tile.kind === "chart") return chartTitles.get(tile.chartId) ?? "Missing chart";
  if (tile.kind === "stat") return tile.label;
  const firstLine = tile.markdown.split("\n").find((line) => line.trim() !== "") ?? "";
  const plain = firstLine.replace(/[#*_`>[\]()]/g, "").trim();
  return `Text: ${plain.length > 40 ? `${plain.slice(0, 39)}…` : plain}`;
}

/** One rendered tile's content, the same on the public page and in the admin composer. */
export function TileContent({
  tile,
  headingLevel = 2,
}: {
  tile: RenderedTile;
  headingLevel?: 2 | 3;
}) {
  if (tile.kind === "text") {
    return <MarkdownText markdown={tile.markdown} headingLevel={headingLevel} />;
  }
  if (tile.kind === "stat") {
    return (
      <StatTile
        label={tile.label}
        value={tile.value}
        format={tile.format ? numberFormatIn(tile.format, statLocale) : undefined}
        icon={tile.icon ?? undefined}
        delta={tile.delta ?? undefined}
        deltaLabel={tile.deltaLabel ?? undefined}
        emptyReason={tile.error ?? tile.empty ?? undefined}
        status={tile.status ?? undefined}
      />
    );
  }
  return (
    <DashboardChart
      chart={chartView(tile.chart)}
      result={tile.result}
      error={tile.error}
      headingLevel={headingLevel === 2 ? "h2" : "h3"}
      height={chartHeightFor(tile.layout.h)}
    />
  );
}
