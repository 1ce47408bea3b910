import "server-only";
import { can, levelIncludes } from "@seed/model";
import type { RecordPlace } from "@seed/store";
import { Card, Text } from "@seed/ui";
import Link from "next/link";
import { actorOf } from "@/components/admin/store-errors";
import type { SignedInSession } from "@/server/auth";
import { getStore } from "@/server/store";
import { type CollectionChoice, MoveToCollectionForm } from "./forms";

type Movable = { entityType: "dataset" | "chart" | "dashboard" | "source"; id: string };

/** Where a record lives for this account, and whether it may change it there (edit or manage). */
export async function placeFor(
  session: SignedInSession,
  item: Movable,
): Promise<{ place: RecordPlace | null; canEdit: boolean }> {
  const place = await (await getStore()).placeOf(actorOf(session), item);
  return { place, canEdit: place !== null && mayChange(session, place) };
}

/** The one rule: whole rows, edit there, and a role that may change this kind of record. */
function mayChange(session: SignedInSession, place: RecordPlace): boolean {
  return (
    place.rowLimit === null &&
    levelIncludes(place.level, "edit") &&
    can(session.user.role, place.permission)
  );
}

/** The record's collection, with a move to another where the account edits both. */
export async function CollectionPlace({
  session,
  item,
  place,
}: {
  session: SignedInSession;
  item: Movable;
  place: RecordPlace | null;
}) {
  if (!place) return null;
  const here = (
    <>
      <Text>
        In{" "}
        <Link href={`/admin/collections/${place.collectionId ?? "shared"}`}>
          {place.collectionName}
        </Link>
        .
      </Text>
      {place.rowLimit === null ? null : (
        <Text>
          {place.rowLimit.length === 0
            ? "Your groups' row limits leave you no rows of this dataset."
            : `You see only the rows where ${place.rowLimit.join(", or where ")} (a row limit of your group), and cannot change this dataset.`}
        </Text>
      )}
    </>
  );
  if (!mayChange(session, place)) {
    return (
      <Card title="Collection" titleAs="h2">
        {here}
      </Card>
    );
  }
  const store = await getStore();
  const actor = actorOf(session);
  const [collections, access] = await Promise.all([
    store.listCollections(actor),
    store.collectionAccess(actor),
  ]);
  const choices: CollectionChoice[] = [
    ...(levelIncludes(access.shared, "edit") ? [{ id: "", name: "Shared" }] : []),
    ...collections
      .filter((collection) => levelIncludes(collection.level, "edit"))
      .map((collection) => ({ id: collection.id, name: collection.name })),
  ];
  return (
    <Card
      title="Collection"
      titleAs="h2"
      description="Who sees it follows its collection's groups; a published dashboard is public wherever it lives."
    >
      {here}
      {choices.length > 1 ? (
        <MoveToCollectionForm
          entityType={item.entityType}
          id={item.id}
          current={place.collectionId ?? ""}
          choices={choices}
        />
      ) : null}
    </Card>
  );
}
