import { Card, Heading, StatTile, Text } from "@seed/ui";
import type { Metadata } from "next";
import Link from "next/link";
import { ActivityChart, type ActivityRow } from "@/components/activity-chart";
import { requirePermission } from "@/server/auth";
import { getStore } from "@/server/store";

export const metadata: Metadata = { title: "Overview" };

export default async function AdminOverviewPage() {
  const session = await requirePermission("content.read");
  const store = await getStore();
  const since = new Date();
  since.setUTCHours(0, 0, 0, 0);
  since.setUTCDate(since.getUTCDate() - 13);
  const [counts, recent, lastTwoWeeks] = await Promise.all([
    store.getOverviewCounts(),
    store.listRecentActivity(10),
    store.listAuditEvents({ since, limit: 200 }),
  ]);
  const activity = eventsPerDay(
    lastTwoWeeks.events.map((event) => event.at),
    since,
  );
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
      <Card title="Activity" titleAs="h2" description="Up to 200 most recent events.">
        <ActivityChart rows={activity} />
      </Card>
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

/** One row per day from `since` to today (UTC), zero where nothing happened. */
function eventsPerDay(timestamps: string[], since: Date): ActivityRow[] {
  const counts = new Map<string, number>();
  for (const at of timestamps) {
    const day = at.slice(0, 10);
    counts.set(day, (counts.get(day) ?? 0) + 1);
  }
  const rows: ActivityRow[] = [];
  for (const day = new Date(since); day <= new Date(); day.setUTCDate(day.getUTCDate() + 1)) {
    const key = day.toISOString().slice(0, 10);
    rows.push({ day: key, events: counts.get(key) ?? 0 });
  }
  return rows;
}
