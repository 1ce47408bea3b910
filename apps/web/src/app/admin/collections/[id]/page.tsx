import { can } from "@seed/model";
import { Card, Heading, Text } from "@seed/ui";
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { actorOf } from "@/components/admin/store-errors";
import {
  CollectionDetailsForm,
  CollectionGrantsForm,
  DeleteCollectionForm,
  type GrantChoice,
} from "@/features/collections/forms";
import { requirePermission } from "@/server/auth";
import { getStore } from "@/server/store";

export const metadata: Metadata = { title: "Collection" };
export const dynamic = "force-dynamic";

const levelWords = { view: "view", edit: "edit", manage: "manage" } as const;

/** What a collection holds, as links to each record's page. */
function Items({
  items,
}: {
  items: {
    datasets: { id: string; name: string }[];
    charts: { id: string; title: string }[];
    dashboards: { id: string; title: string }[];
  };
}) {
  const lists = [
    {
      title: "Dashboards",
      rows: items.dashboards.map((one) => ({
        href: `/admin/dashboards/${one.id}`,
        label: one.title,
      })),
    },
    {
      title: "Charts",
      rows: items.charts.map((one) => ({ href: `/admin/charts/${one.id}`, label: one.title })),
    },
    {
      title: "Datasets",
      rows: items.datasets.map((one) => ({ href: `/admin/datasets/${one.id}`, label: one.name })),
    },
  ];
  return (
    <>
      {lists.map((list) => (
        <Card key={list.title} title={`${list.title} (${list.rows.length})`} titleAs="h2">
          {list.rows.length === 0 ? (
            <Text muted>None here.</Text>
          ) : (
            <ul className="plain-list">
              {list.rows.map((row) => (
                <li key={row.href}>
                  <Link href={row.href}>{row.label}</Link>
                </li>
              ))}
            </ul>
          )}
        </Card>
      ))}
    </>
  );
}

export default async function CollectionPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<{ created?: string }>;
}) {
  const session = await requirePermission("content.read");
  const actor = actorOf(session);
  const { id } = await params;
  const { created } = await searchParams;
  const store = await getStore();
  const back = (
    <Text muted>
      <Link href="/admin/collections">Back to collections</Link>
    </Text>
  );
  if (id === "shared") {
    const [items, access] = await Promise.all([
      store.collectionItems(actor, null),
      store.collectionAccess(actor),
    ]);
    if (!items) notFound();
    return (
      <>
        <Heading level={1}>Shared</Heading>
        {back}
        <Text>
          Everything not in a collection; every account sees it by its role. Your access:{" "}
          {levelWords[access.shared]}.
        </Text>
        <Items items={items} />
      </>
    );
  }
  // A collection none of the account's groups is granted is not found, as if it did not exist.
  const [collection, items] = await Promise.all([
    store.getCollection(actor, id),
    store.collectionItems(actor, id),
  ]);
  if (!collection || !items) notFound();
  const manages = collection.level === "manage";
  let choices: GrantChoice[] = [];
  if (manages) {
    const granted = new Map(collection.grants.map((grant) => [grant.groupId, grant.level]));
    // Admins choose among every group; others who manage it change the groups it grants.
    choices = can(session.user.role, "users.manage")
      ? (await store.listGroups(actor)).map((group) => ({
          groupId: group.id,
          groupName: group.name,
          level: granted.get(group.id) ?? null,
        }))
      : collection.grants.map((grant) => ({ ...grant }));
  }
  return (
    <>
      <Heading level={1}>Collection {collection.name}</Heading>
      {back}
      {created === "1" ? <p role="status">Created. Choose which groups may see it below.</p> : null}
      {collection.description ? <Text>{collection.description}</Text> : null}
      <Text muted>Your access: {levelWords[collection.level]}.</Text>
      <Items items={items} />
      {manages ? (
        <>
          <Card title="Name and description" titleAs="h2">
            <CollectionDetailsForm
              collectionId={collection.id}
              name={collection.name}
              description={collection.description}
            />
          </Card>
          <Card
            title="Access"
            titleAs="h2"
            description="View shows what is in it; edit also changes and moves it; manage also names the collection and chooses its groups. An account's role is the ceiling: a viewer only views. Admins manage every collection."
          >
            {choices.length === 0 ? (
              <Text muted>
                No groups yet. Admins make groups on the{" "}
                <Link href="/admin/users#groups">Users</Link> page.
              </Text>
            ) : (
              <CollectionGrantsForm collectionId={collection.id} choices={choices} />
            )}
          </Card>
          <Card title="Delete" titleAs="h2">
            <DeleteCollectionForm collectionId={collection.id} name={collection.name} />
          </Card>
        </>
      ) : null}
    </>
  );
}
