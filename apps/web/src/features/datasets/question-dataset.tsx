import type { Dataset } from "@seed/store";
import { Card, Heading, Text } from "@seed/ui";
import Link from "next/link";
import type { ReactNode } from "react";
import {
  CalculatedFieldsCard,
  DeleteDatasetCard,
  HierarchiesCard,
  RenameDatasetCard,
} from "./dataset-cards";

/** A saved SQL question: its text and columns; its rows are its answer, so no rows, import or tokens. */
export function QuestionDatasetPage({
  dataset,
  canWrite,
  saved,
  collection,
}: {
  dataset: Dataset & { question: { sql: string } };
  canWrite: boolean;
  saved: "created" | "changed" | null;
  /** The dataset's Collection card. */
  collection: ReactNode;
}) {
  return (
    <>
      <Heading level={1}>{dataset.name}</Heading>
      <Text muted>
        SQL question · version {dataset.version} · updated{" "}
        {dataset.updatedAt.replace("T", " ").slice(0, 16)} UTC
      </Text>
      {saved ? (
        <p role="status" className="form-status">
          {saved === "created"
            ? "The question was saved as a dataset: chart it like any other."
            : "The question was changed."}
        </p>
      ) : null}
      <Card
        title="SQL question"
        titleAs="h2"
        description="Charts and stat tiles run this question when a page is rendered, with the dashboard's date range as {{from}} and {{to}}. Its rows cannot be imported, pushed or edited here."
      >
        <pre className="sql-text">
          <code>{dataset.question.sql}</code>
        </pre>
        <p>
          Columns: {dataset.columns.map((column) => `${column.name} (${column.type})`).join(", ")}
        </p>
        {canWrite ? (
          <p>
            <Link href={`/admin/sql?dataset=${encodeURIComponent(dataset.id)}`}>
              Change the question
            </Link>
          </p>
        ) : null}
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
