import { Heading, Text } from "@seed/ui";
import type { Metadata } from "next";
import Link from "next/link";
import { seenBy } from "@/components/admin/store-errors";
import { TableRegion } from "@/components/table-region";
import { hasPermission, requirePermission } from "@/server/auth";
import { requestLocale } from "@/server/request-locale";
import { getStore } from "@/server/store";

export const metadata: Metadata = { title: "Datasets" };

export default async function DatasetsPage() {
  const session = await requirePermission("content.read");
  const datasets = await (await getStore()).listDatasets(seenBy(session));
  const locale = await requestLocale();
  return (
    <>
      <Heading level={1}>Datasets</Heading>
      {hasPermission(session, "content.write") ? (
        <p>
          <Link href="/admin/datasets/new" className="button">
            New dataset
          </Link>
        </p>
      ) : null}
      {datasets.length === 0 ? (
        <Text>No datasets yet.</Text>
      ) : (
        <TableRegion label="Datasets">
          <table>
            <caption className="muted">Tables of rows that charts and stat tiles read.</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Columns</th>
                <th scope="col">Rows</th>
                <th scope="col">Updated (UTC)</th>
              </tr>
            </thead>
            <tbody>
              {datasets.map((dataset) => (
                <tr key={dataset.id}>
                  <td>
                    <Link href={`/admin/datasets/${dataset.id}`}>{dataset.name}</Link>
                  </td>
                  <td>{dataset.columns.map((column) => column.name).join(", ")}</td>
                  <td>
                    {dataset.live
                      ? "Live"
                      : dataset.question
                        ? "SQL question"
                        : dataset.rowCount.toLocaleString(locale)}
                  </td>
                  <td>{dataset.updatedAt.slice(0, 10)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      )}
    </>
  );
}
