import { Heading, Text } from "@seed/ui";
import type { Metadata } from "next";
import Link from "next/link";
import { requireRole } from "@/server/auth";
import { NewDatasetForm } from "./new-dataset-form";

export const metadata: Metadata = { title: "New dataset" };

export default async function NewDatasetPage() {
  await requireRole("admin", "editor");
  return (
    <>
      <Heading level={1}>New dataset</Heading>
      <Text muted>
        Upload or paste a CSV file. Check the preview of the columns and their types, then save.
      </Text>
      <NewDatasetForm />
      <p>
        <Link href="/admin/datasets">Back to datasets</Link>
      </p>
    </>
  );
}
