import type { RenderedDashboard } from "@seed/store";
import { Heading, Text } from "@seed/ui";
import { DashboardFilterBar } from "@/components/dashboard-filter-bar";
import { gridPlacement, type PageFilters, TileContent } from "@/components/dashboard-tile";

/** A rendered dashboard: its tiles on the 12-column grid, in reading order (server component). */
export function DashboardView({
  rendered,
  filterAction,
}: {
  rendered: RenderedDashboard;
  /** The path the filter bar submits to (the page's own). */
  filterAction: string;
}) {
  const { dashboard, tiles } = rendered;
  return (
    <>
      <Heading level={1}>{dashboard.title}</Heading>
      {dashboard.status === "draft" ? (
        <Text size="sm">
          <strong>Draft preview:</strong> only signed-in users can see this dashboard.
        </Text>
      ) : null}
      {dashboard.description ? <Text muted>{dashboard.description}</Text> : null}
      <DashboardFilterBar filterBar={rendered.filterBar} action={filterAction} />
      {tiles.length > 0 ? (
        <DashboardGrid
          tiles={tiles}
          filters={{ action: filterAction, applied: rendered.filterBar.applied }}
        />
      ) : null}
    </>
  );
}

export function DashboardGrid({
  tiles,
  headingLevel = 2,
  filters,
}: {
  tiles: RenderedDashboard["tiles"];
  headingLevel?: 2 | 3;
  /** The page's filters, which its charts set on click (cross-filter); none in the composer. */
  filters?: PageFilters | undefined;
}) {
  return (
    <div className="dashboard-grid" data-testid="dashboard-grid">
      {[...tiles]
        .sort((a, b) => a.position - b.position)
        .map((tile) => (
          <div
            key={tile.id}
            className="dashboard-tile"
            data-tile-kind={tile.kind}
            style={gridPlacement(tile.layout)}
          >
            <TileContent tile={tile} headingLevel={headingLevel} filters={filters} />
            {"notFilteredBy" in tile && tile.notFilteredBy?.length ? (
              <p className="tile-note">Not filtered by {tile.notFilteredBy.join(", ")}</p>
            ) : null}
          </div>
        ))}
    </div>
  );
}
