import { formatBytes } from "@seed/model";
import { Heading, Text } from "@seed/ui";
import type { Metadata } from "next";
import Link from "next/link";
import { CsvUploadForm } from "@/features/datasets/csv-upload-form";
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
        {`Choose, drop or paste a CSV, JSON, NDJSON, Parquet, Arrow or Excel (.xlsx) file of up to ${limits.maxImportRows.toLocaleString("en-US")} rows and ${formatBytes(limits.maxImportBytes)}. A preview shows how it is read: its encoding, separator and decimal mark, each column's name, type and format (from the first 1,000 rows, or from the file itself for Parquet and Arrow) and its first rows. Change any of them, then import the whole file, streamed with a progress bar.`}
      </Text>
      <section aria-label="Import a file">
        <CsvUploadForm limits={limits} />
      </section>
      <p>
        <Link href="/admin/datasets">Back to datasets</Link>
      </p>
    </>
  );
}
