import { actorOf } from "@/components/admin/store-errors";
import { errorResponse, methodNotAllowed } from "@/lib/http-status";
import { withPermission } from "@/server/auth";
import { publicOrigin } from "@/server/public-origin";
import { getStore } from "@/server/store";

export const dynamic = "force-dynamic";

/**
 * A dashboard as its YAML file (drafts too, so admin only), to keep in Git: datasets named by
 * slug, tiles by key, and the JSON Schema named for editors' completion. Its version is the ETag.
 */
export const GET = withPermission<{ params: Promise<{ slug: string }> }>(
  "content.read",
  async (_request, session, context) => {
    const { slug } = await context.params;
    const store = await getStore();
    const exported = await store.exportDashboardFile(slug, actorOf(session), {
      schemaUrl: `${await publicOrigin()}/api/v1/schemas/dashboard-file.json`,
    });
    if (!exported) return errorResponse(404, "No dashboard has this slug.");
    return new Response(exported.text, {
      headers: {
        "Content-Type": "application/yaml; charset=utf-8",
        "Content-Disposition": `attachment; filename="${exported.file.slug}.dashboard.yaml"`,
        ETag: `"${exported.version}"`,
        "Cache-Control": "no-store",
      },
    });
  },
);

export function POST() {
  return methodNotAllowed(["GET", "HEAD"]);
}
