import { dashboardFilterLimits, queryColumnsOf } from "@seed/model";
import { Card, Heading, Icon, Text } from "@seed/ui";
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { cache } from "react";
import { PageStatus } from "@/components/admin/page-status";
import { seenBy } from "@/components/admin/store-errors";
import { composerTile, TileContent } from "@/components/dashboard-tile";
import { DashboardGrid } from "@/components/dashboard-view";
import { CollectionPlace, placeFor } from "@/features/collections/place";
import { DashboardDetailsForm } from "@/features/dashboard-editor/details-form";
import { DashboardEditor, EditorVersion } from "@/features/dashboard-editor/editor-state";
import { DashboardEmbeddingForm, EmbedLinkForm } from "@/features/dashboard-editor/embedding-form";
import { DashboardFiltersForm } from "@/features/dashboard-editor/filters-form";
import { LayoutComposer } from "@/features/dashboard-editor/layout-composer";
import { DeleteDashboard, PublishButton } from "@/features/dashboard-editor/publish-button";
import { AddStatTileForm } from "@/features/dashboard-editor/stat-tile-form";
import { AddChartTileForm, AddTextTileForm } from "@/features/dashboard-editor/tile-forms";
import { requirePermission } from "@/server/auth";
import { getStore } from "@/server/store";
import { updateDashboardDetails } from "../actions";

type Params = Promise<{ id: string }>;

// Only a dashboard the account sees (its collection's groups): anything else is not found.
const loadDashboard = cache(async (id: string) =>
  (await getStore()).getDashboard(id, seenBy(await requirePermission("content.read"))),
);

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  await requirePermission("content.read");
  const dashboard = await loadDashboard((await params).id);
  return { title: dashboard ? `Dashboard ${dashboard.title}` : "Dashboard not found" };
}

const savedMessages: Record<string, string> = {
  details: "Details saved.",
  layout: "Layout saved.",
  embedding: "Embedding and refresh saved.",
  filters: "Filters saved.",
};

export default async function DashboardEditPage({
  params,
  searchParams,
}: {
  params: Params;
  searchParams: Promise<{ saved?: string; v?: string }>;
}) {
  const session = await requirePermission("content.read");
  const dashboard = await loadDashboard((await params).id);
  if (!dashboard) notFound();
  const store = await getStore();
  const [charts, datasets, rendered, filterColumns] = await Promise.all([
    store.listCharts(seenBy(session)),
    store.listDatasets(seenBy(session)),
    store.getDashboardBySlug(dashboard.slug, { includeDrafts: true, ...seenBy(session) }),
    store.getDashboardFilterColumns(dashboard.id),
  ]);
  const chartTitles = new Map(charts.map((chart) => [chart.id, chart.title]));
  // A dashboard kept from a file of the dashboards folder is changed there, not here.
  const item = { entityType: "dashboard", id: dashboard.id } as const;
  const { place, canEdit } = await placeFor(session, item);
  // Changed only by those who edit in its collection, and never when a file keeps it.
  const canWrite = canEdit && dashboard.managedFile === null;
  const { saved, v } = await searchParams;
  // Only the write that made this version speaks; an older address (or a reload after another
  // change) shows nothing.
  const savedMessage =
    saved !== undefined && Number(v) === dashboard.version ? (savedMessages[saved] ?? null) : null;
  // The forms below start over (their saved values, no old messages) after a save that loads the
  // page again, which names its version in the address; a tile added or removed in place, and the
  // page brought up to date after it, leave them as they are (nothing they show changed).
  const formKey = v ?? "loaded";
  const renderedTiles = rendered?.tiles ?? [];
  // Each chart on the dashboard once, for its embed address and the signed-link choice.
  const embeddedCharts = [
    ...new Map(
      dashboard.tiles.flatMap((tile) =>
        tile.kind === "chart"
          ? [[tile.chartId, chartTitles.get(tile.chartId) ?? "Chart"] as const]
          : [],
      ),
    ),
  ].map(([id, title]) => ({ id, title }));
  const previews = Object.fromEntries(
    renderedTiles.map((tile) => [
      tile.id,
      <TileContent key={tile.id} tile={tile} headingLevel={3} />,
    ]),
  );
  return (
    <DashboardEditor
      dashboardId={dashboard.id}
      version={dashboard.version}
      tiles={dashboard.tiles.map((tile) => composerTile(tile, chartTitles))}
      previews={previews}
    >
      <Heading level={1}>{dashboard.title}</Heading>
      <Text muted>
        {dashboard.icon ? <Icon name={dashboard.icon} size={18} label={dashboard.icon} /> : null}{" "}
        {dashboard.status === "published" ? "Published" : "Draft"} · version <EditorVersion /> ·{" "}
        {dashboard.status === "published" ? (
          <Link href={`/d/${dashboard.slug}`}>View at /d/{dashboard.slug}</Link>
        ) : null}{" "}
        <Link href={`/admin/preview/${dashboard.slug}`}>Preview</Link> ·{" "}
        <Link href={`/admin/dashboards/${dashboard.id}/history`}>History</Link> ·{" "}
        {/* A file download, not a page: a plain link so the browser saves it. */}
        <a href={`/admin/api/dashboards/${dashboard.slug}/file`} download>
          Download as file (YAML)
        </a>
      </Text>
      {dashboard.managedFile !== null ? (
        <Text>
          Kept from the file <code>{dashboard.managedFile}</code> in the dashboards folder: change
          the file to change this dashboard (edits here are refused).
        </Text>
      ) : null}
      <PageStatus key={formKey} message={savedMessage} />
      <Card
        title="Layout"
        titleAs="h2"
        description="A 12-column grid, as it will be published; on a phone the tiles stack in reading order."
      >
        {canWrite ? (
          <LayoutComposer />
        ) : dashboard.tiles.length === 0 ? (
          <Text>No tiles yet.</Text>
        ) : (
          <DashboardGrid tiles={renderedTiles} headingLevel={3} />
        )}
      </Card>
      {canWrite ? (
        <>
          <Card title="Add a chart tile" titleAs="h2">
            {charts.length === 0 ? (
              <Text>
                No charts yet. <Link href="/admin/charts/new">Create a chart</Link>.
              </Text>
            ) : (
              <AddChartTileForm charts={charts.map(({ id, title }) => ({ id, title }))} />
            )}
          </Card>
          <Card title="Add a stat tile" titleAs="h2">
            <AddStatTileForm
              datasets={datasets.map((dataset) => ({
                id: dataset.id,
                name: dataset.name,
                columns: queryColumnsOf(dataset),
              }))}
            />
          </Card>
          <Card title="Add a text tile" titleAs="h2">
            <AddTextTileForm />
          </Card>
          <Card title="Publishing" titleAs="h2">
            {/* No key: its "Published." message stays after the page redraws. */}
            <PublishButton published={dashboard.status === "published"} title={dashboard.title} />
          </Card>
          <Card
            title="Filters"
            titleAs="h2"
            description="A filter bar at the top of the dashboard; visitors' choices go into the page's address."
          >
            <DashboardFiltersForm
              key={formKey}
              initial={dashboard.filters}
              dateColumns={filterColumns.dateColumns}
              categoryColumns={filterColumns.categoryColumns}
              maxCategories={dashboardFilterLimits.maxCategories}
            />
          </Card>
          <Card title="Details" titleAs="h2">
            <DashboardDetailsForm
              key={formKey}
              action={updateDashboardDetails}
              initial={{
                title: dashboard.title,
                slug: dashboard.slug,
                description: dashboard.description,
                icon: dashboard.icon,
                timeZone: dashboard.timeZone,
              }}
              submitLabel="Save details"
            />
          </Card>
          <Card
            title="Embedding and refresh"
            titleAs="h2"
            description={
              dashboard.status === "published"
                ? "Embed addresses, for the sites allowed below:"
                : "A draft can be embedded only through a signed link (below)."
            }
          >
            {dashboard.status === "published" ? (
              <ul className="embed-addresses">
                <li>
                  Dashboard: <code>/embed/d/{dashboard.slug}</code>
                </li>
                {embeddedCharts.map((chart) => (
                  <li key={chart.id}>
                    {chart.title}: <code>/embed/c/{chart.id}</code>
                  </li>
                ))}
              </ul>
            ) : null}
            <DashboardEmbeddingForm
              key={formKey}
              initial={{
                embedOrigins: dashboard.embedOrigins,
                refreshSeconds: dashboard.refreshSeconds,
              }}
            />
          </Card>
          <Card
            title="Signed embed link"
            titleAs="h2"
            description="Embeds the dashboard (published or not) until the link expires, only on the sites allowed above."
          >
            <EmbedLinkForm
              dashboardId={dashboard.id}
              title={dashboard.title}
              charts={embeddedCharts}
            />
          </Card>
          <Card title="Delete" titleAs="h2">
            <DeleteDashboard what={`dashboard "${dashboard.title}"`} />
          </Card>
        </>
      ) : null}
      <CollectionPlace session={session} item={item} place={place} />
      <p>
        <Link href="/admin/dashboards">Back to dashboards</Link>
      </p>
    </DashboardEditor>
  );
}
