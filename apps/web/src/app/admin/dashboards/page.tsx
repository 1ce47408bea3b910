import { Heading, Text } from "@seed/ui";
import type { Metadata } from "next";
import Link from "next/link";
import { seenBy } from "@/components/admin/store-errors";
import { TableRegion } from "@/components/table-region";
import { PublishButton } from "@/features/dashboard-editor/publish-button";
import { hasPermission, requirePermission } from "@/server/auth";
import { getStore } from "@/server/store";

export const metadata: Metadata = { title: "Dashboards" };

export default async function DashboardsPage() {
  const session = await requirePermission("content.read");
  const canPublish = hasPermission(session, "content.write");
  const dashboards = await (await getStore()).listDashboards(seenBy(session));
  return (
    <>
      <Heading level={1}>Dashboards</Heading>
      {canPublish ? (
        <p>
          <Link href="/admin/dashboards/new" className="button">
            New dashboard
          </Link>
        </p>
      ) : null}
      {dashboards.length === 0 ? (
        <Text>No dashboards yet.</Text>
      ) : (
        <TableRegion label="Dashboards">
          <table>
            <caption className="muted">Drafts are visible only to signed-in users.</caption>
            <thead>
              <tr>
                <th scope="col">Title</th>
                <th scope="col">Status</th>
                <th scope="col">Tiles</th>
                <th scope="col">Updated (UTC)</th>
                {canPublish ? <th scope="col">Actions</th> : null}
              </tr>
            </thead>
            <tbody>
              {dashboards.map((dashboard) => (
                <tr key={dashboard.id}>
                  <td>
                    <Link href={`/admin/dashboards/${dashboard.id}`}>{dashboard.title}</Link>
                    <br />
                    {dashboard.status === "published" ? (
                      <Link href={`/d/${dashboard.slug}`} className="muted">
                        View /d/{dashboard.slug}
                      </Link>
                    ) : (
                      <Link href={`/admin/preview/${dashboard.slug}`} className="muted">
                        Preview {dashboard.title}
                      </Link>
                    )}
                  </td>
                  <td>
                    {dashboard.status}
                    {dashboard.managedFile !== null ? (
                      <>
                        <br />
                        <span className="muted">
                          kept from the file <code>{dashboard.managedFile}</code>
                        </span>
                      </>
                    ) : null}
                  </td>
                  <td>{dashboard.tileCount}</td>
                  <td>{dashboard.updatedAt.slice(0, 10)}</td>
                  {canPublish ? (
                    <td>
                      {dashboard.managedFile === null ? (
                        <PublishButton
                          record={{ dashboardId: dashboard.id, version: dashboard.version }}
                          published={dashboard.status === "published"}
                          title={dashboard.title}
                        />
                      ) : (
                        <span className="muted">Change its file to publish</span>
                      )}
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      )}
    </>
  );
}
