import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { DashboardView } from "@/components/dashboard-view";
import { requireRole } from "@/server/auth";
import { getStore } from "@/server/store";

type Params = Promise<{ slug: string }>;

// Drafts and published dashboards as they are now, for signed-in admin-area users; rendered per
// request so the public /d/<slug> pages can stay cached.

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  await requireRole("admin", "editor", "viewer");
  return { title: `Preview ${(await params).slug}` };
}

export default async function PreviewPage({ params }: { params: Params }) {
  await requireRole("admin", "editor", "viewer");
  const { slug } = await params;
  const rendered = await (await getStore()).getDashboardBySlug(slug, { includeDrafts: true });
  if (!rendered) notFound();
  return (
    <div className="stack">
      <DashboardView rendered={rendered} />
      <p>
        <Link href={`/admin/dashboards/${rendered.dashboard.id}`}>Back to the dashboard</Link>
      </p>
    </div>
  );
}
