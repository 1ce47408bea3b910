import type { EntityVersion, VersionChange, VersionedEntity } from "@seed/store";
import { Card, Heading, Text } from "@seed/ui";
import Link from "next/link";
import { notFound } from "next/navigation";
import { seenBy } from "@/components/admin/store-errors";
import { TableRegion } from "@/components/table-region";
import { hasPermission, requirePermission } from "@/server/auth";
import { getStore } from "@/server/store";
import { ConfirmAction } from "./confirm-delete";
import type { ContentAction } from "./content-form-state";

const actionNames: Record<string, string> = {
  "chart.create": "Created",
  "chart.update": "Edited",
  "chart.restore": "Restored",
  "dashboard.create": "Created",
  "dashboard.update": "Edited",
  "dashboard.publish": "Published",
  "dashboard.unpublish": "Moved back to draft",
  "dashboard.restore": "Restored",
};

function when(at: string): string {
  return `${at.replace("T", " ").slice(0, 19)} UTC`;
}

/** A version number from a query parameter, or the fallback. */
export function versionParam(raw: string | undefined, fallback: number): number {
  const value = Number(raw);
  return Number.isSafeInteger(value) && value >= 1 ? value : fallback;
}

/**
 * The kept versions of a chart or dashboard: who changed what and when, the readable
 * difference between any two, and (for writers) a restore of any older one as a new version.
 */
export function HistoryView({
  entityType,
  id,
  title,
  currentVersion,
  versions,
  from,
  to,
  changes,
  restore,
  backHref,
  restored,
}: {
  entityType: VersionedEntity;
  id: string;
  title: string;
  currentVersion: number;
  versions: EntityVersion[];
  from: number;
  to: number;
  /** null: one of the two versions is not kept. */
  changes: VersionChange[] | null;
  /** The restore action, for editors and admins; absent for viewers. */
  restore?: ContentAction;
  backHref: string;
  restored?: number;
}) {
  const idField = entityType === "chart" ? "chartId" : "dashboardId";
  return (
    <>
      <Heading level={1}>History of {title}</Heading>
      <Text muted>
        Version {currentVersion} is the current one. Every save is kept; a restore saves an older
        version again as a new one.
      </Text>
      {restored ? (
        <p role="status" className="form-status">
          Restored as version {restored}.
        </p>
      ) : null}
      <Card title="Compare two versions" titleAs="h2">
        <form method="get" className="filters">
          <div className="field">
            <label htmlFor="history-from">From version</label>
            <select id="history-from" name="from" defaultValue={String(from)}>
              {versions.map((entry) => (
                <option key={entry.version} value={entry.version}>
                  {entry.version}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="history-to">To version</label>
            <select id="history-to" name="to" defaultValue={String(to)}>
              {versions.map((entry) => (
                <option key={entry.version} value={entry.version}>
                  {entry.version}
                </option>
              ))}
            </select>
          </div>
          <button type="submit" className="button button-secondary">
            Compare
          </button>
        </form>
        {changes === null ? (
          <p role="status">
            Version {from} or {to} is not kept; choose two versions from the list.
          </p>
        ) : changes.length === 0 ? (
          <p role="status">
            Versions {from} and {to} are the same.
          </p>
        ) : (
          <TableRegion label="Differences">
            <table>
              <caption>
                Changes from version {from} to version {to}
              </caption>
              <thead>
                <tr>
                  <th scope="col">What</th>
                  <th scope="col">Version {from}</th>
                  <th scope="col">Version {to}</th>
                </tr>
              </thead>
              <tbody>
                {changes.map((change) => (
                  <tr key={change.path}>
                    <th scope="row">{change.label}</th>
                    <td className="history-value">{change.before ?? "(not there)"}</td>
                    <td className="history-value">{change.after ?? "(not there)"}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableRegion>
        )}
      </Card>
      <Card title="Versions" titleAs="h2">
        {versions.length === 0 ? (
          <Text>No versions are kept yet; the next save starts the history.</Text>
        ) : (
          <TableRegion label="Versions, newest first">
            <table>
              <caption className="muted">Versions, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Version</th>
                  <th scope="col">When</th>
                  <th scope="col">Who</th>
                  <th scope="col">What</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {versions.map((entry) => (
                  <tr key={entry.version}>
                    <td>{entry.version}</td>
                    <td>{when(entry.at)}</td>
                    <td>{entry.actor.email}</td>
                    <td>
                      {actionNames[entry.action] ?? entry.action}
                      {entry.restoredFrom ? ` (from version ${entry.restoredFrom})` : ""}
                    </td>
                    <td>
                      <div className="inline-list">
                        {entry.version > 1 ? (
                          <Link href={`?from=${entry.version - 1}&to=${entry.version}`}>
                            Changes in version {entry.version}
                          </Link>
                        ) : null}
                        {restore && entry.version !== currentVersion ? (
                          <ConfirmAction
                            action={restore}
                            fields={{
                              [idField]: id,
                              version: String(currentVersion),
                              fromVersion: String(entry.version),
                            }}
                            ask={`Restore version ${entry.version}`}
                            question={`Save version ${entry.version} again as version ${currentVersion + 1}? Nothing is lost: the current version stays in the history.`}
                            yes={`Yes, restore version ${entry.version}`}
                            pendingText="Restoring…"
                          />
                        ) : null}
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableRegion>
        )}
      </Card>
      <p>
        <Link href={backHref}>Back to {title}</Link>
      </p>
    </>
  );
}

/**
 * The whole history page of one chart or dashboard: the role check, the record, its versions
 * and the chosen comparison (default: the newest change), and the restore for writers.
 */
export async function HistoryPage({
  entityType,
  id,
  query,
  restore,
}: {
  entityType: VersionedEntity;
  id: string;
  query: { from?: string; to?: string; restored?: string };
  restore: ContentAction;
}) {
  const session = await requirePermission("content.read");
  const store = await getStore();
  const record =
    entityType === "chart"
      ? await store.getChart(id, seenBy(session))
      : await store.getDashboard(id, seenBy(session));
  if (!record) notFound();
  const to = versionParam(query.to, record.version);
  const from = versionParam(query.from, Math.max(1, to - 1));
  return (
    <HistoryView
      entityType={entityType}
      id={id}
      title={record.title}
      currentVersion={record.version}
      versions={await store.listVersions(entityType, id)}
      from={from}
      to={to}
      changes={await store.compareVersions(entityType, id, from, to)}
      {...(hasPermission(session, "content.write") ? { restore } : {})}
      backHref={`/admin/${entityType}s/${id}`}
      restored={query.restored ? versionParam(query.restored, 0) : undefined}
    />
  );
}
