import { errorResponse } from "@/lib/http-status";
import { withRole } from "@/server/auth";
import { getStore } from "@/server/store";

/** A dataset's columns and rows as JSON, for the chart editor's live preview. */
export const GET = withRole<{ params: Promise<{ id: string }> }>(
  ["admin", "editor", "viewer"],
  async (_request, _session, { params }) => {
    const dataset = await (await getStore()).getDataset((await params).id);
    if (!dataset) return errorResponse(404, "No dataset with this id.");
    return Response.json(
      { id: dataset.id, columns: dataset.columns, rows: dataset.rows },
      { headers: { "Cache-Control": "private, no-store" } },
    );
  },
);
