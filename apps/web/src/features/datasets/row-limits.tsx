import "server-only";
import { can, type DatasetColumnType } from "@seed/model";
import { Card, Text } from "@seed/ui";
import Link from "next/link";
import { actorOf } from "@/components/admin/store-errors";
import type { SignedInSession } from "@/server/auth";
import { getStore } from "@/server/store";
import { ClearRowLimitForm, RowLimitForm } from "./row-limits-form";

/**
 * Admins: which groups see only some rows of the dataset, and a form to limit one. Members of a
 * limited group read only those rows in every chart, dashboard, filter list, preview and page,
 * and ask no SQL questions.
 */
export async function RowLimitsCard({
  session,
  dataset,
}: {
  session: SignedInSession;
  dataset: { id: string; columns: ReadonlyArray<{ name: string; type: DatasetColumnType }> };
}) {
  if (!can(session.user.role, "collections.manage")) return null;
  const store = await getStore();
  const actor = actorOf(session);
  const [limits, groups] = await Promise.all([
    store.listRowLimits(actor, dataset.id),
    store.listGroups(actor),
  ]);
  return (
    <Card
      title="Row limits"
      titleAs="h2"
      description="A limited group's members see only the rows meeting its conditions, in every chart, dashboard, filter list and page (published dashboards stay public and whole), cannot change the dataset and ask no SQL questions. A member of several limited groups sees the rows of each; an unlimited grant of another group of theirs on the dataset's collection gives every row."
    >
      {limits.length === 0 ? (
        <Text muted>No group is limited here.</Text>
      ) : (
        <ul className="plain-list">
          {limits.map((limit) => (
            <li key={limit.groupId}>
              <Text>
                <strong>{limit.groupName}</strong> sees the rows where {limit.phrase}.
              </Text>
              <ClearRowLimitForm datasetId={dataset.id} limit={limit} />
            </li>
          ))}
        </ul>
      )}
      {groups.length === 0 ? (
        <Text>
          Make a group first, on the <Link href="/admin/users">Users</Link> page.
        </Text>
      ) : (
        <RowLimitForm
          datasetId={dataset.id}
          groups={groups.map((group) => ({ id: group.id, name: group.name }))}
          columns={dataset.columns.map((column) => ({ name: column.name, type: column.type }))}
        />
      )}
    </Card>
  );
}
