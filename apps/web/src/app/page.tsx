import { Card, Heading, Text } from "@seed/ui";
import type { Metadata } from "next";
import { SiteHeader } from "@/components/site-header";

export const metadata: Metadata = { title: { absolute: "Seed Charts" } };

export default function HomePage() {
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
          <div className="grid">
            <Card title="No dashboards yet" titleAs="h3">
              <Text size="sm">Published dashboards appear here.</Text>
            </Card>
          </div>
        </section>
      </main>
    </>
  );
}
