import type { DashboardTile } from "@seed/store";
import { Card, Heading, Icon, Text } from "@seed/ui";
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { cache } from "react";
import { ConfirmDelete } from "@/components/admin/confirm-delete";
import { hasRole, requireRole } from "@/server/auth";
import { getStore } from "@/server/store";
import { deleteDashboard, moveTile, removeTile, updateDashboardDetails } from "../actions";
import {
  AddChartTileForm,
  AddStatTileForm,
  DashboardDetailsForm,
  TileActionButton,
} from "../dashboard-forms";
import { PublishButton } from "../publish-button";

type Params = Promise<{ id: string }>;

const loadDashboard = cache(async (id: string) => (await getStore()).getDashboard(id));

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  await requireRole("admin", "editor", "viewer");
  const dashboard = await loadDashboard((await params).id);
  return { title: dashboard ? `Dashboard ${dashboard.title}` : "Dashboard not found" };
}

const savedMessages: Record<string, string> = {
  details: "Details saved.",
  tile: "Tile added.",
  removed: "Tile removed.",
};

function describeTile(tile: DashboardTile, chartTitles: Map<string, string>): string {
  if (tile.kind === "chart") return `Chart: ${chartTitles.get(tile.chartId) ?? "missing chart"}`;
  return `Stat: ${tile.label} (${tile.aggregation} of ${tile.column})`;
}

export default async function DashboardEditPage({
  params,
  searchParams,
}: {
  params: Params;
  searchParams: Promise<{ saved?: string; focus?: string }>;
}) {
  const session = await requireRole("admin", "editor", "viewer");
  const dashboard = await loadDashboard((await params).id);
  if (!dashboard) notFound();
  const store = await getStore();
  const [charts, datasets] = await Promise.all([store.listCharts(), store.listDatasets()]);
  const chartTitles = new Map(charts.map((chart) => [chart.id, chart.title]));
  const canWrite = hasRole(session, "admin", "editor");
  const { saved, focus } = await searchParams;
  const record = { dashboardId: dashboard.id, version: String(dashboard.version) };
  const lastIndex = dashboard.tiles.length - 1;
  return (
    <>
      <Heading level={1}>{dashboard.title}</Heading>
      <Text muted>
        {dashboard.icon ? <Icon name={dashboard.icon} size={18} label={dashboard.icon} /> : null}{" "}
        {dashboard.status === "published" ? "Published" : "Draft"} · version {dashboard.version} ·{" "}
        {dashboard.status === "published" ? (
          <Link href={`/d/${dashboard.slug}`}>View at /d/{dashboard.slug}</Link>
        ) : null}{" "}
        <Link href={`/admin/preview/${dashboard.slug}`}>Preview</Link>
      </Text>
      {saved && savedMessages[saved] ? (
        <p role="status" className="form-status">
          {savedMessages[saved]}
        </p>
      ) : null}
      <Card title="Tiles" titleAs="h2" description="Shown in this order on the dashboard.">
        {dashboard.tiles.length === 0 ? (
          <Text>No tiles yet.</Text>
        ) : (
          <ol key={dashboard.version} className="stack">
            {dashboard.tiles.map((tile, index) => {
              const name = describeTile(tile, chartTitles);
              const tileRecord = { ...record, tileId: tile.id };
              // After a move, focus the same button, or its partner when it hit an end.
              const focusUp =
                (focus === `up-${tile.id}` && index > 0) ||
                (focus === `down-${tile.id}` && index === lastIndex && index > 0);
              const focusDown = !focusUp && focus?.endsWith(`-${tile.id}`) === true;
              return (
                <li key={tile.id}>
                  <span>{name}</span>
                  {canWrite ? (
                    <div className="inline-list">
                      <TileActionButton
                        action={moveTile}
                        fields={{ ...tileRecord, direction: "up" }}
                        label={`Move up: ${name}`}
                        disabled={index === 0}
                        focusOnMount={focusUp}
                      />
                      <TileActionButton
                        action={moveTile}
                        fields={{ ...tileRecord, direction: "down" }}
                        label={`Move down: ${name}`}
                        disabled={index === lastIndex}
                        focusOnMount={focusDown && index < lastIndex}
                      />
                      <TileActionButton
                        action={removeTile}
                        fields={tileRecord}
                        label={`Remove: ${name}`}
                      />
                    </div>
                  ) : null}
                </li>
              );
            })}
          </ol>
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
              <AddChartTileForm
                key={dashboard.version}
                dashboardId={dashboard.id}
                version={dashboard.version}
                charts={charts.map(({ id, title }) => ({ id, title }))}
              />
            )}
          </Card>
          <Card title="Add a stat tile" titleAs="h2">
            <AddStatTileForm
              key={dashboard.version}
              dashboardId={dashboard.id}
              version={dashboard.version}
              datasets={datasets.map(({ id, name, columns }) => ({ id, name, columns }))}
            />
          </Card>
          <Card title="Publishing" titleAs="h2">
            {/* No key: its "Published." message stays after the page redraws. */}
            <PublishButton
              dashboardId={dashboard.id}
              version={dashboard.version}
              published={dashboard.status === "published"}
              title={dashboard.title}
            />
          </Card>
          <Card title="Details" titleAs="h2">
            <DashboardDetailsForm
              key={dashboard.version}
              action={updateDashboardDetails}
              dashboardId={dashboard.id}
              version={dashboard.version}
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
          <Card title="Delete" titleAs="h2">
            <ConfirmDelete
              action={deleteDashboard}
              fields={record}
              what={`dashboard "${dashboard.title}"`}
            />
          </Card>
        </>
      ) : null}
      <p>
        <Link href="/admin/dashboards">Back to dashboards</Link>
      </p>
    </>
  );
}
