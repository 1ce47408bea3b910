import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { seenBy } from "@/components/admin/store-errors";
import { DashboardView } from "@/components/dashboard-view";
import { canonicalQueryOf, searchParamsOf } from "@/lib/filter-link";
import { requirePermission } from "@/server/auth";
import { getStore } from "@/server/store";

type Params = Promise<{ slug: string }>;
type SearchParams = Promise<Record<string, string | string[] | undefined>>;

// Drafts and published dashboards as they are now, for signed-in admin-area users; rendered per
// request so the public /d/<slug> pages can stay cached.

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  await requirePermission("content.read");
  return { title: `Preview ${(await params).slug}` };
}

export default async function PreviewPage({
  params,
  searchParams,
}: {
  params: Params;
  searchParams: SearchParams;
}) {
  const session = await requirePermission("content.read");
  const { slug } = await params;
  const filterQuery = canonicalQueryOf(searchParamsOf(await searchParams));
  const rendered = await (await getStore()).getDashboardBySlug(slug, {
    includeDrafts: true,
    filterQuery,
    ...seenBy(session),
  });
  if (!rendered) notFound();
  return (
    <div className="stack">
      <DashboardView rendered={rendered} filterAction={`/admin/preview/${slug}`} />
      <p>
        <Link href={`/admin/dashboards/${rendered.dashboard.id}`}>Back to the dashboard</Link>
      </p>
    </div>
  );
}
