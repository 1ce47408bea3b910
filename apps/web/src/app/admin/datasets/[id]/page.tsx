import { Card, Heading, Text } from "@seed/ui";
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { cache } from "react";
import { DatasetPreview } from "@/components/admin/dataset-preview";
import { actorOf, seenBy } from "@/components/admin/store-errors";
import { CollectionPlace, placeFor } from "@/features/collections/place";
import { CreateTokenForm, TokenList, type TokenRow } from "@/features/datasets/api-tokens";
import { CsvUploadForm } from "@/features/datasets/csv-upload-form";
import {
  CalculatedFieldsCard,
  DeleteDatasetCard,
  HierarchiesCard,
  RenameDatasetCard,
} from "@/features/datasets/dataset-cards";
import { LiveDatasetPage } from "@/features/datasets/live-dataset";
import { QuestionDatasetPage } from "@/features/datasets/question-dataset";
import { RowLimitsCard } from "@/features/datasets/row-limits";
import { RowsEditor } from "@/features/datasets/rows-editor";
import { RowsView } from "@/features/datasets/rows-view";
import { requirePermission } from "@/server/auth";
import { requestLocale } from "@/server/request-locale";
import { getStore } from "@/server/store";

type Params = Promise<{ id: string }>;

// The summary only: rows are read one page at a time below, never all of them.
// Only a dataset the account sees (its collection's groups): anything else is not found.
const loadDataset = cache(async (id: string) =>
  (await getStore()).getDataset(id, 0, seenBy(await requirePermission("content.read"))),
);
const pageSize = 50;
const savedMessages: Record<string, string> = {
  rows: "Rows saved.",
  import: "Rows imported.",
  fields: "Calculated fields saved.",
  hierarchies: "Hierarchies saved.",
};

type RowsQuery = { saved?: string; page?: string; sort?: string; dir?: string; q?: string };

function rowsQuery(query: RowsQuery) {
  const page = Math.max(1, Math.min(1_000_000, Number.parseInt(query.page ?? "1", 10) || 1));
  return {
    page,
    sort: query.sort?.slice(0, 100) || undefined,
    descending: query.dir === "desc",
    search: query.q?.slice(0, 200) || undefined,
  };
}

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  await requirePermission("content.read");
  const dataset = await loadDataset((await params).id);
  return { title: dataset ? `Dataset ${dataset.name}` : "Dataset not found" };
}

export default async function DatasetPage({
  params,
  searchParams,
}: {
  params: Params;
  searchParams: Promise<RowsQuery>;
}) {
  const session = await requirePermission("content.read");
  const dataset = await loadDataset((await params).id);
  if (!dataset) notFound();
  const item = { entityType: "dataset", id: dataset.id } as const;
  const { place, canEdit: canWrite } = await placeFor(session, item);
  // Every kind of dataset says where it lives and moves from its own page.
  const collection = <CollectionPlace session={session} item={item} place={place} />;
  if (dataset.live) {
    return (
      <LiveDatasetPage
        dataset={{ ...dataset, live: dataset.live }}
        canWrite={canWrite}
        collection={collection}
      />
    );
  }
  const query = await searchParams;
  if (dataset.question) {
    return (
      <QuestionDatasetPage
        dataset={{ ...dataset, question: dataset.question }}
        canWrite={canWrite}
        collection={collection}
        saved={
          query.saved === "question"
            ? "created"
            : query.saved === "question-changed"
              ? "changed"
              : null
        }
      />
    );
  }
  const locale = await requestLocale();
  const { saved } = query;
  const savedMessage = saved && Object.hasOwn(savedMessages, saved) ? savedMessages[saved] : null;
  const view = rowsQuery(query);
  const rowsPage = (await (
    await getStore()
  ).listDatasetRows(
    dataset.id,
    {
      limit: pageSize,
      offset: (view.page - 1) * pageSize,
      sortBy: view.sort,
      descending: view.descending,
      search: view.search,
    },
    seenBy(session),
  )) ?? { rows: [], total: 0 };
  // Tokens are for writers only: a viewer's page never loads them (and the store would refuse).
  const tokens: TokenRow[] = canWrite
    ? (await (await getStore()).listDatasetTokens(dataset.id, actorOf(session))).map((token) => ({
        id: token.id,
        name: token.name,
        prefix: token.prefix,
        scope: token.scope,
        createdBy: token.createdBy.email,
        createdAt: token.createdAt,
        expiresAt: token.expiresAt,
        lastUsedAt: token.lastUsedAt,
        status: token.revokedAt
          ? "revoked"
          : token.expiresAt && token.expiresAt <= new Date().toISOString()
            ? "expired"
            : "active",
      }))
    : [];
  const rowsView = (
    <RowsView
      locale={locale}
      datasetId={dataset.id}
      columns={dataset.columns}
      total={rowsPage.total}
      pageSize={pageSize}
      {...view}
    />
  );
  return (
    <>
      <Heading level={1}>{dataset.name}</Heading>
      <Text muted>
        {place?.rowLimit
          ? view.search
            ? "Only the rows your group sees"
            : `${rowsPage.total.toLocaleString(locale)} ${rowsPage.total === 1 ? "row" : "rows"} you see`
          : `${dataset.rowCount.toLocaleString(locale)} rows`}{" "}
        · version {dataset.version} · updated {dataset.updatedAt.replace("T", " ").slice(0, 16)} UTC
      </Text>
      {savedMessage ? (
        <p role="status" className="form-status">
          {savedMessage}
        </p>
      ) : null}
      {canWrite ? (
        <>
          <RenameDatasetCard dataset={dataset} />
          <Card
            title="Rows"
            titleAs="h2"
            description="Change cells, add or remove rows, then save. Sorting, search and pages are done on the server."
          >
            {rowsView}
            <RowsEditor
              key={`${dataset.version}-${view.page}-${view.sort}-${view.descending}-${view.search}`}
              datasetId={dataset.id}
              version={dataset.version}
              columns={dataset.columns}
              rows={rowsPage.rows}
            />
          </Card>
          <CalculatedFieldsCard dataset={dataset} canWrite />
          <HierarchiesCard dataset={dataset} canWrite />
          <Card
            title="Import rows from a file"
            titleAs="h2"
            description="A CSV file's header, a JSON or NDJSON file's fields, a Parquet or Arrow file's columns, or an Excel sheet's first row must name this dataset's columns. All rows go in, or none."
          >
            <CsvUploadForm
              dataset={{ id: dataset.id, version: dataset.version }}
              limits={(await getStore()).rowsLimits}
            />
          </Card>
          <Card
            title="API tokens"
            titleAs="h2"
            description="A token lets a program push rows into this dataset only (POST /api/datasets/…/rows; see the README's Push API). It is shown once when made."
          >
            <TokenList datasetId={dataset.id} tokens={tokens} />
            <CreateTokenForm
              datasetId={dataset.id}
              csvHeader={dataset.columns.map((column) => column.name).join(",")}
            />
          </Card>
          <DeleteDatasetCard dataset={dataset} />
        </>
      ) : (
        <Card title="Rows" titleAs="h2">
          {dataset.description ? <Text>{dataset.description}</Text> : null}
          {rowsView}
          <DatasetPreview
            columns={dataset.columns}
            rows={rowsPage.rows.map((keyed) => keyed.row)}
            rowCount={dataset.rowCount}
          />
        </Card>
      )}
      {canWrite ? null : (
        <>
          <CalculatedFieldsCard dataset={dataset} canWrite={false} />
          <HierarchiesCard dataset={dataset} canWrite={false} />
        </>
      )}
      {collection}
      <RowLimitsCard session={session} dataset={dataset} />
      <p>
        <Link href="/admin/datasets">Back to datasets</Link>
      </p>
    </>
  );
}
