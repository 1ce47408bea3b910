import { Card, Heading, StatTile, Text } from "@seed/ui";
import type { Metadata } from "next";
import Link from "next/link";
import { requireRole } from "@/server/auth";
import { getStore } from "@/server/store";

export const metadata: Metadata = { title: "Overview" };

export default async function AdminOverviewPage() {
  const session = await requireRole("admin", "editor", "viewer");
  const store = await getStore();
  const [counts, recent] = await Promise.all([
    store.getOverviewCounts(),
    store.listRecentActivity(10),
  ]);
  return (
    <>
      <Heading level={1}>Overview</Heading>
      <Text muted>
        Signed in as {session.user.email} ({session.user.role}).
      </Text>
      <section aria-labelledby="counts-heading" className="stack">
        <Heading level={2} id="counts-heading">
          Counts
        </Heading>
        <div className="grid">
          <StatTile label="Datasets" value={counts.datasets} icon="database" />
          <StatTile label="Charts" value={counts.charts} icon="grid" />
          <StatTile
            label="Published dashboards"
            value={counts.publishedDashboards}
            icon="bookmark"
          />
          <StatTile label="Draft dashboards" value={counts.draftDashboards} icon="folder" />
          <StatTile label="Users" value={counts.users} icon="crown" />
          <StatTile label="Audit events" value={counts.auditEvents} icon="message-square-reply" />
        </div>
      </section>
      <Card
        title="Recent activity"
        titleAs="h2"
        actions={<Link href="/admin/audit">Audit log</Link>}
      >
        {recent.length === 0 ? (
          <Text>Nothing has happened yet.</Text>
        ) : (
          <ul>
            {recent.map((event) => (
              <li key={event.id}>
                <time dateTime={event.at}>{event.at.replace("T", " ").slice(0, 16)}</time>{" "}
                {event.actor.email} · {event.action} · {event.entityType}
              </li>
            ))}
          </ul>
        )}
      </Card>
    </>
  );
}
