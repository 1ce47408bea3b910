import { formatBytes } from "@seed/model";
import { Card, Heading, Text } from "@seed/ui";
import type { Metadata } from "next";
import Link from "next/link";
import { CsvUploadForm } from "@/features/datasets/csv-upload-form";
import { NewDatasetForm } from "@/features/datasets/new-dataset-form";
import { requirePermission } from "@/server/auth";
import { getStore } from "@/server/store";

export const metadata: Metadata = { title: "New dataset" };

export default async function NewDatasetPage() {
  await requirePermission("content.write");
  const limits = (await getStore()).rowsLimits;
  return (
    <>
      <Heading level={1}>New dataset</Heading>
      <Text muted>
        Upload or paste a CSV file. Check the preview of the columns and their types, then save.
      </Text>
      <NewDatasetForm largeFileBytes={limits.maxImportBytes} />
      <Card
        title="Import a large file"
        titleAs="h2"
        description={`A CSV, JSON, NDJSON, Parquet, Arrow or Excel (.xlsx) file of up to ${limits.maxImportRows.toLocaleString("en-US")} rows and ${formatBytes(limits.maxImportBytes)}, or rows pasted as text. A preview shows how it is read: its encoding, separator and decimal mark, each column's type and format (from the first 1,000 rows, or from the file itself for Parquet and Arrow) and its first rows; change any of them, then import it streamed with a progress bar.`}
      >
        <CsvUploadForm limits={limits} />
      </Card>
      <p>
        <Link href="/admin/datasets">Back to datasets</Link>
      </p>
    </>
  );
}
