import { Card, Heading, Text } from "@seed/ui";
import type { Metadata } from "next";
import Link from "next/link";
import { actorOf } from "@/components/admin/store-errors";
import { AlertForm } from "@/features/alerts/alert-form";
import { requirePermission } from "@/server/auth";
import { getStore } from "@/server/store";
import { alertTargetGroups } from "../alert-page-data";

export const metadata: Metadata = { title: "New alert" };
export const dynamic = "force-dynamic";

export default async function NewAlertPage() {
  const session = await requirePermission("content.write");
  const store = await getStore();
  const actor = actorOf(session);
  const targets = await alertTargetGroups(store, actor);
  const nothing = targets.statTiles.length === 0 && targets.chartMeasures.length === 0;
  return (
    <>
      <Heading level={1}>New alert</Heading>
      <Text muted>
        <Link href="/admin/alerts">Back to alerts</Link>
      </Text>
      <Card title="Alert" titleAs="h2">
        {nothing ? (
          <p className="muted">
            Nothing to watch yet: add a stat tile to a dashboard, or make a chart, first.
          </p>
        ) : (
          <AlertForm targets={targets} allowedDomains={await store.getAllowedMailDomains(actor)} />
        )}
      </Card>
    </>
  );
}
