import { queryColumnsOf } from "@seed/model";
import { Heading, Text } from "@seed/ui";
import type { Metadata } from "next";
import Link from "next/link";
import { seenBy } from "@/components/admin/store-errors";
import { ChartEditor } from "@/features/chart-editor/chart-editor";
import { requirePermission } from "@/server/auth";
import { getStore } from "@/server/store";

export const metadata: Metadata = { title: "New chart" };

export default async function NewChartPage() {
  const session = await requirePermission("content.write");
  const store = await getStore();
  const datasets = await store.listDatasets(seenBy(session));
  return (
    <>
      <Heading level={1}>New chart</Heading>
      {datasets.length === 0 ? (
        <Text>
          Charts draw datasets. <Link href="/admin/datasets/new">Create a dataset</Link> first.
        </Text>
      ) : (
        <ChartEditor
          datasets={datasets.map((dataset) => ({
            id: dataset.id,
            name: dataset.name,
            columns: queryColumnsOf(dataset),
          }))}
          chart={null}
        />
      )}
      <p>
        <Link href="/admin/charts">Back to charts</Link>
      </p>
    </>
  );
}
