import { queryColumnsOf } from "@seed/model";
import type { Chart } from "@seed/store";
import { Card, Heading, Text } from "@seed/ui";
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { cache } from "react";
import { ConfirmDelete } from "@/components/admin/confirm-delete";
import { seenBy } from "@/components/admin/store-errors";
import { chartView } from "@/components/chart-view";
import { DashboardChart } from "@/components/dashboard-chart";
import { ChartEditor } from "@/features/chart-editor/chart-editor";
import { CollectionPlace, placeFor } from "@/features/collections/place";
import { requirePermission, type SignedInSession } from "@/server/auth";
import { getStore } from "@/server/store";
import { deleteChart } from "../actions";

type Params = Promise<{ id: string }>;

// Only a chart the account sees (its collection's groups): anything else is not found.
const loadChart = cache(async (id: string) =>
  (await getStore()).getChart(id, seenBy(await requirePermission("content.read"))),
);

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  await requirePermission("content.read");
  const chart = await loadChart((await params).id);
  return { title: chart ? `Chart ${chart.title}` : "Chart not found" };
}

export default async function ChartPage({
  params,
  searchParams,
}: {
  params: Params;
  searchParams: Promise<{ saved?: string }>;
}) {
  const session = await requirePermission("content.read");
  const chart = await loadChart((await params).id);
  if (!chart) notFound();
  const store = await getStore();
  const datasets = await store.listDatasets(seenBy(session));
  const dataset = datasets.find((candidate) => candidate.id === chart.datasetId);
  const keeper = await store.getChartKeeper(chart.id);
  const item = { entityType: "chart", id: chart.id } as const;
  const { place, canEdit } = await placeFor(session, item);
  // Changed only by those who edit in its collection, and never when a file keeps it.
  const canWrite = canEdit && keeper === null;
  const { saved } = await searchParams;
  return (
    <>
      <Heading level={1}>{chart.title}</Heading>
      <Text muted>
        {chart.type} chart of {dataset?.name ?? "a missing dataset"} · version {chart.version} ·{" "}
        <Link href={`/admin/charts/${chart.id}/history`}>History</Link>
      </Text>
      {keeper !== null ? (
        <Text>
          On the dashboard {keeper.title}, kept from the file <code>{keeper.managedFile}</code> in
          the dashboards folder: change the file to change this chart (edits here are refused).
        </Text>
      ) : null}
      {saved ? (
        <p role="status" className="form-status">
          Chart saved.
        </p>
      ) : null}
      {canWrite ? (
        <>
          <ChartEditor
            key={chart.version}
            datasets={datasets.map((dataset) => ({
              id: dataset.id,
              name: dataset.name,
              columns: queryColumnsOf(dataset),
            }))}
            chart={chart}
          />
          <Card title="Delete" titleAs="h2">
            <ConfirmDelete
              action={deleteChart}
              fields={{ chartId: chart.id, version: String(chart.version) }}
              what={`chart "${chart.title}"`}
            />
          </Card>
        </>
      ) : (
        <ChartResult chart={chart} session={session} />
      )}
      <CollectionPlace session={session} item={item} place={place} />
      <p>
        <Link href="/admin/charts">Back to charts</Link>
      </p>
    </>
  );
}

/** A viewer's read-only chart: the query's result, or why the query no longer runs. */
async function ChartResult({ chart, session }: { chart: Chart; session: SignedInSession }) {
  try {
    const result = await (await getStore()).runChartQuery(chart.datasetId, chart.query, {
      ...seenBy(session),
      ...(chart.options.annotationSource
        ? { annotationSource: chart.options.annotationSource }
        : {}),
    });
    return <DashboardChart chart={chartView(chart)} result={result} />;
  } catch (error) {
    const fieldErrors = (error as { fieldErrors?: Record<string, string[]> }).fieldErrors;
    const reason = fieldErrors ? Object.values(fieldErrors).flat()[0] : undefined;
    if (!reason) throw error;
    return <DashboardChart chart={chartView(chart)} result={null} error={reason} />;
  }
}
