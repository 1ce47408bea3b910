import { Heading, Text } from "@seed/ui";
import type { Metadata } from "next";
import Link from "next/link";
import { seenBy } from "@/components/admin/store-errors";
import { TableRegion } from "@/components/table-region";
import { hasPermission, requirePermission } from "@/server/auth";
import { getStore } from "@/server/store";

export const metadata: Metadata = { title: "Charts" };

export default async function ChartsPage() {
  const session = await requirePermission("content.read");
  const store = await getStore();
  const [charts, datasets] = await Promise.all([
    store.listCharts(seenBy(session)),
    store.listDatasets(seenBy(session)),
  ]);
  const datasetNames = new Map(datasets.map((dataset) => [dataset.id, dataset.name]));
  return (
    <>
      <Heading level={1}>Charts</Heading>
      {hasPermission(session, "content.write") ? (
        <p>
          <Link href="/admin/charts/new" className="button">
            New chart
          </Link>
        </p>
      ) : null}
      {charts.length === 0 ? (
        <Text>No charts yet.</Text>
      ) : (
        <TableRegion label="Charts">
          <table>
            <caption className="muted">Saved charts and the dataset each one draws.</caption>
            <thead>
              <tr>
                <th scope="col">Title</th>
                <th scope="col">Type</th>
                <th scope="col">Dataset</th>
                <th scope="col">Updated (UTC)</th>
              </tr>
            </thead>
            <tbody>
              {charts.map((chart) => (
                <tr key={chart.id}>
                  <td>
                    <Link href={`/admin/charts/${chart.id}`}>{chart.title}</Link>
                  </td>
                  <td>{chart.type}</td>
                  <td>{datasetNames.get(chart.datasetId) ?? chart.datasetId}</td>
                  <td>{chart.updatedAt.slice(0, 10)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      )}
    </>
  );
}
