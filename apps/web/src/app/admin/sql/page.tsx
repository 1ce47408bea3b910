import { Heading, Text } from "@seed/ui";
import type { Metadata } from "next";
import { actorOf, seenBy } from "@/components/admin/store-errors";
import { SqlSwitch } from "@/features/sql/sql-switch";
import { SqlWorkbench } from "@/features/sql/sql-workbench";
import { hasPermission, requirePermission } from "@/server/auth";
import { getStore } from "@/server/store";

export const metadata: Metadata = { title: "SQL questions" };

export default async function SqlPage({
  searchParams,
}: {
  searchParams: Promise<{ dataset?: string }>;
}) {
  const session = await requirePermission("sql.run");
  const store = await getStore();
  const status = await store.sqlQuestionsStatus(actorOf(session));
  // ?dataset=<id> opens a saved question to change it.
  const { dataset: datasetId } = await searchParams;
  const saved =
    typeof datasetId === "string" && datasetId.length <= 200
      ? await store.getDataset(datasetId, 0, seenBy(session))
      : null;
  const editing = saved?.question
    ? { id: saved.id, version: saved.version, name: saved.name, sql: saved.question.sql }
    : null;
  const first = status.tables[0];
  const initialSql =
    editing?.sql ?? (first ? `select *\nfrom ${first.name}\nlimit 100` : "select 1 as one");
  return (
    <>
      <Heading level={1}>SQL questions</Heading>
      <Text muted>
        One read-only SELECT over the datasets, each a table named below. Answers carry at most
        10,000 rows and stop after 30 seconds; every run is recorded in the audit log.
      </Text>
      {hasPermission(session, "settings.manage") ? <SqlSwitch enabled={status.enabled} /> : null}
      {status.available ? (
        <SqlWorkbench
          tables={status.tables}
          engine={status.engine}
          initialSql={initialSql}
          canSave={hasPermission(session, "content.write")}
          editing={editing}
        />
      ) : (
        <p className="form-error" role="alert">
          {status.reason}
        </p>
      )}
    </>
  );
}
