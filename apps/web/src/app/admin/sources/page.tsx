import { sourcesKeyProblem } from "@seed/store";
import { Heading, Text } from "@seed/ui";
import type { Metadata } from "next";
import Link from "next/link";
import { FocusedStatus } from "@/components/admin/focused-status";
import { TableRegion } from "@/components/table-region";
import { requirePermission } from "@/server/auth";
import { getStore } from "@/server/store";

export const metadata: Metadata = { title: "Live sources" };

export default async function SourcesPage({
  searchParams,
}: {
  searchParams: Promise<{ deleted?: string }>;
}) {
  await requirePermission("sources.manage");
  const { deleted } = await searchParams;
  const store = await getStore();
  const [sources, datasets] = await Promise.all([store.listSources(), store.listDatasets()]);
  const keyProblem = sourcesKeyProblem(process.env.SEED_SOURCES_KEY);
  const datasetsOf = (sourceId: string) =>
    datasets.filter((dataset) => dataset.live?.sourceId === sourceId).length;
  return (
    <>
      <Heading level={1}>Live sources</Heading>
      <Text muted>
        PostgreSQL databases whose tables and views charts read where they live, with read-only
        credentials.
      </Text>
      {deleted === "1" ? <FocusedStatus>The source was deleted.</FocusedStatus> : null}
      {keyProblem ? (
        <p className="form-error" role="alert">
          {keyProblem}
        </p>
      ) : (
        <p>
          <Link href="/admin/sources/new" className="button">
            New source
          </Link>
        </p>
      )}
      {sources.length === 0 ? (
        <Text>No live sources yet.</Text>
      ) : (
        <TableRegion label="Live sources">
          <table>
            <caption className="muted">
              Connections, their limits and the datasets read from them.
            </caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Database</th>
                <th scope="col">Limits</th>
                <th scope="col">Datasets</th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {sources.map((source) => (
                <tr key={source.id}>
                  <td>
                    <Link href={`/admin/sources/${source.id}`}>{source.name}</Link>
                  </td>
                  <td>
                    {source.user}@{source.host}:{source.port}/{source.database}
                  </td>
                  <td>
                    {source.statementTimeoutMs.toLocaleString("en-US")} ms ·{" "}
                    {source.rowCap.toLocaleString("en-US")} rows · cached{" "}
                    {source.cacheTtlSeconds.toLocaleString("en-US")} s
                  </td>
                  <td>{datasetsOf(source.id)}</td>
                  <td>{keyProblem ? "Unreadable: key missing" : "Ready"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      )}
    </>
  );
}
