import { Heading } from "@seed/ui";
import type { Metadata } from "next";
import Link from "next/link";
import { DashboardDetailsForm } from "@/features/dashboard-editor/details-form";
import { requirePermission } from "@/server/auth";
import { createDashboard } from "../actions";

export const metadata: Metadata = { title: "New dashboard" };

export default async function NewDashboardPage() {
  await requirePermission("content.write");
  return (
    <>
      <Heading level={1}>New dashboard</Heading>
      <DashboardDetailsForm
        action={createDashboard}
        initial={{ title: "", slug: "", description: "", icon: null, timeZone: null }}
        submitLabel="Create dashboard"
      />
      <p>
        <Link href="/admin/dashboards">Back to dashboards</Link>
      </p>
    </>
  );
}
