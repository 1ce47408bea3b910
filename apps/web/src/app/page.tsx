import { Card, Heading, Icon, Text } from "@seed/ui";
import type { Metadata } from "next";
import Link from "next/link";
import { connection } from "next/server";
import { SiteHeader } from "@/components/site-header";
import { getStore } from "@/server/store";

export const metadata: Metadata = { title: { absolute: "Seed Charts" } };

export default async function HomePage() {
  // Published dashboards change at run time, so this page renders per request.
  await connection();
  const dashboards = await (await getStore()).listPublishedDashboards();
  return (
    <>
      <SiteHeader />
      <main id="main" className="site-main stack">
        <Heading level={1}>Seed Charts</Heading>
        <Text muted>Dashboards of charts and KPI tiles, in light and dark.</Text>
        <section aria-labelledby="dashboards-heading" className="stack">
          <Heading level={2} id="dashboards-heading">
            Dashboards
          </Heading>
          {dashboards.length === 0 ? (
            <Text>No dashboards are published yet.</Text>
          ) : (
            <ul
              className="grid"
              aria-label="Published dashboards"
              style={{ listStyle: "none", padding: 0 }}
            >
              {dashboards.map((dashboard) => (
                <li key={dashboard.id}>
                  <Card
                    title={
                      <Link href={`/d/${dashboard.slug}`}>
                        {dashboard.icon ? <Icon name={dashboard.icon} size={18} /> : null}{" "}
                        {dashboard.title}
                      </Link>
                    }
                    titleAs="h3"
                  >
                    <Text size="sm">{dashboard.description || "No description."}</Text>
                    <Text size="xs" muted>
                      {dashboard.tileCount} tiles
                    </Text>
                  </Card>
                </li>
              ))}
            </ul>
          )}
        </section>
      </main>
    </>
  );
}
