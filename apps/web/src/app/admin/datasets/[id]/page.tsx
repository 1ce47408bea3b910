import { Card, Heading, Text } from "@seed/ui";
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { cache } from "react";
import { ConfirmDelete } from "@/components/admin/confirm-delete";
import { DatasetPreview } from "@/components/admin/dataset-preview";
import { hasRole, requireRole } from "@/server/auth";
import { getStore } from "@/server/store";
import { deleteDataset } from "../actions";
import { CsvUploadForm } from "../csv-upload-form";
import { RenameDatasetForm } from "./rename-form";
import { RowsEditor } from "./rows-editor";

type Params = Promise<{ id: string }>;

const loadDataset = cache(async (id: string) => (await getStore()).getDataset(id));

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  await requireRole("admin", "editor", "viewer");
  const dataset = await loadDataset((await params).id);
  return { title: dataset ? `Dataset ${dataset.name}` : "Dataset not found" };
}

export default async function DatasetPage({
  params,
  searchParams,
}: {
  params: Params;
  searchParams: Promise<{ saved?: string }>;
}) {
  const session = await requireRole("admin", "editor", "viewer");
  const dataset = await loadDataset((await params).id);
  if (!dataset) notFound();
  const canWrite = hasRole(session, "admin", "editor");
  const { saved } = await searchParams;
  return (
    <>
      <Heading level={1}>{dataset.name}</Heading>
      <Text muted>
        {dataset.rowCount} rows · version {dataset.version} · updated{" "}
        {dataset.updatedAt.replace("T", " ").slice(0, 16)} UTC
      </Text>
      {saved === "rows" || saved === "import" ? (
        <p role="status" className="form-status">
          {saved === "import" ? "Rows imported." : "Rows saved."}
        </p>
      ) : null}
      {canWrite ? (
        <>
          <Card title="Name and description" titleAs="h2">
            <RenameDatasetForm
              key={dataset.version}
              datasetId={dataset.id}
              version={dataset.version}
              name={dataset.name}
              description={dataset.description}
            />
          </Card>
          <Card
            title="Rows"
            titleAs="h2"
            description="Change cells, add or remove rows, then save."
          >
            <RowsEditor
              key={dataset.version}
              datasetId={dataset.id}
              version={dataset.version}
              columns={dataset.columns}
              rows={dataset.rows}
            />
          </Card>
          <Card
            title="Import rows from a CSV file"
            titleAs="h2"
            description="The header must name this dataset's columns. All rows go in, or none."
          >
            <CsvUploadForm dataset={{ id: dataset.id, version: dataset.version }} />
          </Card>
          <Card title="Delete" titleAs="h2">
            <ConfirmDelete
              action={deleteDataset}
              fields={{ datasetId: dataset.id, version: String(dataset.version) }}
              what={`dataset "${dataset.name}"`}
            />
          </Card>
        </>
      ) : (
        <Card title="Rows" titleAs="h2" description="The first 100 rows.">
          {dataset.description ? <Text>{dataset.description}</Text> : null}
          <DatasetPreview
            columns={dataset.columns}
            rows={dataset.rows.slice(0, 100)}
            rowCount={dataset.rowCount}
          />
        </Card>
      )}
      <p>
        <Link href="/admin/datasets">Back to datasets</Link>
      </p>
    </>
  );
}
