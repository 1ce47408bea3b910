import { chartTypes } from "@seed/model";
import { z } from "zod";
import { errorResponse } from "@/lib/http-status";
import { withPermission } from "@/server/auth";
import { getStore } from "@/server/store";

// The chart editor's live preview: runs a draft query in the database and answers its result
// (never the dataset's rows). Editors and admins only, like the editor itself.

const maxBodyBytes = 32 * 1024;
const previewPoints = 1_000;

const bodySchema = z.object({
  datasetId: z.string().min(1).max(200),
  type: z.enum(chartTypes),
  query: z.unknown(),
});

type FieldErrorShape = Error & { fieldErrors?: Record<string, string[]> };

export const POST = withPermission("content.write", async (request) => {
  const text = await request.text();
  if (new TextEncoder().encode(text).length > maxBodyBytes) {
    return errorResponse(400, "The query is too large.");
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return errorResponse(400, "Send the query as JSON.");
  }
  const body = bodySchema.safeParse(json);
  if (!body.success) return errorResponse(400, "Send a dataset id, a chart type and a query.");
  const store = await getStore();
  try {
    const result = await store.runChartQuery(body.data.datasetId, body.data.query as never, {
      maxPoints: previewPoints,
    });
    return Response.json({ result }, { headers: { "Cache-Control": "private, no-store" } });
  } catch (error) {
    // Store refusals are told apart by shape: their classes can exist once per server bundle.
    const shaped = error instanceof Error ? (error as FieldErrorShape) : null;
    if (shaped?.name === "NotFoundError") return errorResponse(404, "No dataset with this id.");
    if (shaped?.fieldErrors) {
      return Response.json(
        { fieldErrors: shaped.fieldErrors },
        { status: 422, headers: { "Cache-Control": "private, no-store" } },
      );
    }
    throw error;
  }
});
