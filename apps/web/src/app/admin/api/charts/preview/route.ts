import {
  chartAnnotationSourceSchema,
  chartTypes,
  jsonInputLimits,
  jsonRefusalStatus,
  jsonTooLarge,
  readBoundedJson,
} from "@seed/model";
import { z } from "zod";
import { actorOf } from "@/components/admin/store-errors";
import { errorResponse } from "@/lib/http-status";
import { readBodyCapped } from "@/lib/request-body";
import { withPermission } from "@/server/auth";
import { getStore } from "@/server/store";

// The chart editor's live preview: runs a draft query in the database and answers its result
// (never the dataset's rows). Editors and admins only, like the editor itself.

const previewPoints = 1_000;

const bodySchema = z.object({
  datasetId: z.string().min(1).max(200),
  type: z.enum(chartTypes),
  query: z.unknown(),
  /** The draft's events' dataset and columns; one not yet whole draws no events. */
  annotationSource: z.unknown().optional(),
});

type FieldErrorShape = Error & { fieldErrors?: Record<string, string[]> };

export const POST = withPermission("content.write", async (request, session) => {
  // Size, depth and value count are checked in one flat pass before anything recursive runs.
  const limits = jsonInputLimits.chartQuery;
  // +1: a body of exactly maxBytes is accepted, one byte more reaches the cap and is refused
  const text = await readBodyCapped(request, limits.maxBytes + 1);
  const read =
    text === null ? jsonTooLarge(limits, "The query") : readBoundedJson(text, limits, "The query");
  if (!read.ok) return errorResponse(jsonRefusalStatus[read.reason], read.message);
  const body = bodySchema.safeParse(read.value);
  if (!body.success) return errorResponse(400, "Send a dataset id, a chart type and a query.");
  const store = await getStore();
  const source = chartAnnotationSourceSchema.safeParse(body.data.annotationSource);
  try {
    const result = await store.runChartQuery(body.data.datasetId, body.data.query as never, {
      maxPoints: previewPoints,
      ...(source.success ? { annotationSource: source.data } : {}),
      // A dataset in a collection none of the editor's groups is granted is "no dataset".
      seenBy: actorOf(session),
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
