import { Card, Heading, Text } from "@seed/ui";
import type { Metadata } from "next";
import Link from "next/link";
import { FocusedStatus } from "@/components/admin/focused-status";
import { actorOf } from "@/components/admin/store-errors";
import { TableRegion } from "@/components/table-region";
import { CreateCollectionForm } from "@/features/collections/forms";
import { hasPermission, requirePermission } from "@/server/auth";
import { getStore } from "@/server/store";

export const metadata: Metadata = { title: "Collections" };
export const dynamic = "force-dynamic";

const levelWords = { view: "View", edit: "Edit", manage: "Manage" } as const;

export default async function CollectionsPage({
  searchParams,
}: {
  searchParams: Promise<{ deleted?: string }>;
}) {
  const session = await requirePermission("content.read");
  const { deleted } = await searchParams;
  const store = await getStore();
  const actor = actorOf(session);
  const [collections, access] = await Promise.all([
    store.listCollections(actor),
    store.collectionAccess(actor),
  ]);
  return (
    <>
      <Heading level={1}>Collections</Heading>
      {deleted === "1" ? <FocusedStatus>The collection was deleted.</FocusedStatus> : null}
      <Text muted>
        Datasets, charts and dashboards live in collections. A collection grants groups of accounts
        view, edit or manage; nobody else sees what is in it. Shared holds everything not in a
        collection, for every account by its role. A published dashboard is public wherever it
        lives.
      </Text>
      <TableRegion label="Collections">
        <table>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Your access</th>
              <th scope="col">Datasets</th>
              <th scope="col">Charts</th>
              <th scope="col">Dashboards</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <th scope="row">
                <Link href="/admin/collections/shared">Shared</Link>
              </th>
              <td>{levelWords[access.shared]}</td>
              <td colSpan={3} className="muted">
                Everything not in a collection
              </td>
            </tr>
            {collections.map((collection) => (
              <tr key={collection.id}>
                <th scope="row">
                  <Link href={`/admin/collections/${collection.id}`}>{collection.name}</Link>
                </th>
                <td>{levelWords[collection.level]}</td>
                <td>{collection.counts.datasets}</td>
                <td>{collection.counts.charts}</td>
                <td>{collection.counts.dashboards}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableRegion>
      {hasPermission(session, "collections.manage") ? (
        <Card
          title="New collection"
          titleAs="h2"
          description="Only admins see a new collection until it grants groups access."
        >
          <CreateCollectionForm />
        </Card>
      ) : null}
    </>
  );
}
