import type { Dataset, LiveDatasetOrigin } from "@seed/store";
import { Card, Heading, Text } from "@seed/ui";
import Link from "next/link";
import type { ReactNode } from "react";
import { getStore } from "@/server/store";
import {
  CalculatedFieldsCard,
  DeleteDatasetCard,
  HierarchiesCard,
  RenameDatasetCard,
} from "./dataset-cards";

/** A live dataset: where its rows are, its columns; no rows, import or tokens (it is read-only here). */
export async function LiveDatasetPage({
  dataset,
  canWrite,
  collection,
}: {
  dataset: Dataset & { live: LiveDatasetOrigin };
  canWrite: boolean;
  /** The dataset's Collection card. */
  collection: ReactNode;
}) {
  const source = await (await getStore()).getSource(dataset.live.sourceId);
  const sourceName = source?.name ?? "a deleted source";
  return (
    <>
      <Heading level={1}>{dataset.name}</Heading>
      <Text muted>
        Live dataset · version {dataset.version} · updated{" "}
        {dataset.updatedAt.replace("T", " ").slice(0, 16)} UTC
      </Text>
      <Card
        title="Live from a database"
        titleAs="h2"
        description="Charts query this table where it lives when a page is rendered. Its rows cannot be imported, pushed or edited here."
      >
        <p>
          Source: <strong>{sourceName}</strong>, table{" "}
          <code>
            {dataset.live.schema}.{dataset.live.table}
          </code>
          {source ? ` · cached up to ${source.cacheTtlSeconds.toLocaleString("en-US")} s` : ""}
        </p>
        <p>
          Columns: {dataset.columns.map((column) => `${column.name} (${column.type})`).join(", ")}
        </p>
        {dataset.live.note ? <p className="muted">{dataset.live.note}</p> : null}
      </Card>
      <CalculatedFieldsCard dataset={dataset} canWrite={canWrite} />
      <HierarchiesCard dataset={dataset} canWrite={canWrite} />
      {canWrite ? (
        <>
          <RenameDatasetCard dataset={dataset} />
          <DeleteDatasetCard dataset={dataset} />
        </>
      ) : null}
      {collection}
      <p>
        <Link href="/admin/datasets">Back to datasets</Link>
      </p>
    </>
  );
}
