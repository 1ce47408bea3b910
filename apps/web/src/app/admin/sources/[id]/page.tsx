import type { Actor, RemoteTable } from "@seed/store";
import { Card, Heading, Text } from "@seed/ui";
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { cache } from "react";
import { ConfirmDelete } from "@/components/admin/confirm-delete";
import { FocusedStatus } from "@/components/admin/focused-status";
import { actorOf } from "@/components/admin/store-errors";
import { TableRegion } from "@/components/table-region";
import { CollectionPlace, placeFor } from "@/features/collections/place";
import { AddTableButton } from "@/features/sources/add-table-button";
import { SourceForm } from "@/features/sources/source-form";
import { requirePermission } from "@/server/auth";
import { getStore } from "@/server/store";
import { deleteSource } from "../actions";

type Params = Promise<{ id: string }>;

const loadSource = cache(async (id: string) => (await getStore()).getSource(id));

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  await requirePermission("sources.manage");
  const source = await loadSource((await params).id);
  return { title: source ? `Source ${source.name}` : "Source not found" };
}

/** The source's tables and views, or the readable reason they cannot be listed. */
async function remoteTables(
  id: string,
  actor: Actor,
): Promise<{ tables: RemoteTable[] } | { error: string }> {
  try {
    return { tables: await (await getStore()).listSourceTables(id, actor) };
  } catch (error) {
    const shaped = error as Error & { fieldErrors?: Record<string, string[]> };
    const reason = shaped.fieldErrors ? (shaped.message ?? "") : null;
    if (reason === null) throw error;
    return { error: reason };
  }
}

export default async function SourcePage({
  params,
  searchParams,
}: {
  params: Params;
  searchParams: Promise<{ saved?: string }>;
}) {
  const session = await requirePermission("sources.manage");
  const source = await loadSource((await params).id);
  if (!source) notFound();
  const { saved } = await searchParams;
  const store = await getStore();
  const [listed, datasets, { place }] = await Promise.all([
    remoteTables(source.id, actorOf(session)),
    store.listDatasets(),
    placeFor(session, { entityType: "source", id: source.id }),
  ]);
  const used = datasets.filter((dataset) => dataset.live?.sourceId === source.id);
  const added = new Set(used.map((dataset) => `${dataset.live?.schema}.${dataset.live?.table}`));
  return (
    <>
      <Heading level={1}>{source.name}</Heading>
      <Text muted>
        Live PostgreSQL source · version {source.version} · updated{" "}
        {source.updatedAt.replace("T", " ").slice(0, 16)} UTC
      </Text>
      {saved === "1" ? <FocusedStatus>Source saved.</FocusedStatus> : null}
      <Card title="Tables and views" titleAs="h2" description="What this source's user may read.">
        {"error" in listed ? (
          <p className="form-error">{listed.error}</p>
        ) : listed.tables.length === 0 ? (
          <Text>This user may read no tables or views.</Text>
        ) : (
          <TableRegion label="Remote tables">
            <table>
              <caption className="muted">Add one as a dataset to chart it.</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Kind</th>
                  <th scope="col">Dataset</th>
                </tr>
              </thead>
              <tbody>
                {listed.tables.map((table) => {
                  const key = `${table.schema}.${table.name}`;
                  return (
                    <tr key={key}>
                      <td>{key}</td>
                      <td>{table.kind}</td>
                      <td>
                        {added.has(key) ? (
                          "Added"
                        ) : (
                          <AddTableButton
                            sourceId={source.id}
                            schema={table.schema}
                            table={table.name}
                          />
                        )}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </TableRegion>
        )}
      </Card>
      {used.length > 0 ? (
        <Card title="Datasets read from it" titleAs="h2">
          <ul>
            {used.map((dataset) => (
              <li key={dataset.id}>
                <Link href={`/admin/datasets/${dataset.id}`}>{dataset.name}</Link>
              </li>
            ))}
          </ul>
        </Card>
      ) : null}
      <CollectionPlace
        session={session}
        item={{ entityType: "source", id: source.id }}
        place={place}
      />
      <Card title="Connection" titleAs="h2">
        <SourceForm
          key={source.version}
          source={{
            id: source.id,
            version: source.version,
            name: source.name,
            host: source.host,
            port: source.port,
            database: source.database,
            user: source.user,
            sslMode: source.sslMode,
            statementTimeoutMs: source.statementTimeoutMs,
            rowCap: source.rowCap,
            cacheTtlSeconds: source.cacheTtlSeconds,
          }}
        />
      </Card>
      <Card
        title="Delete"
        titleAs="h2"
        description="Refused while datasets read from this source: delete those first."
      >
        <ConfirmDelete
          action={deleteSource}
          fields={{ sourceId: source.id, version: String(source.version) }}
          what={`source "${source.name}"`}
        />
      </Card>
      <p>
        <Link href="/admin/sources">Back to live sources</Link>
      </p>
    </>
  );
}
