import { previewHeadBytes, previewWholeBytes } from "@seed/model";
import { z } from "zod";
import { actorOf } from "@/components/admin/store-errors";
import { importEventsHeader } from "@/features/datasets/import-events";
import { importReadingRefusal, importReadingSchema } from "@/features/datasets/import-reading";
import { errorResponse } from "@/lib/http-status";
import { readBytesCapped } from "@/lib/request-body";
import { isSameOriginRequest } from "@/lib/same-origin.mjs";
import { withPermission } from "@/server/auth";
import { getStore } from "@/server/store";

// The import's preview: the start of a file (or all of it), read by the same readers and checks
// as the import (the store's previewImport), answered as JSON. Nothing is written. Outside
// /admin for the same reason as the import route beside it; it checks the session itself.

const targetSchema = z.object({
  complete: z.enum(["0", "1"]),
  datasetId: z.string().min(1).max(200).optional(),
});

export const POST = withPermission("content.write", async (request, session) => {
  if (!isSameOriginRequest(request.headers) || !request.headers.get(importEventsHeader)) {
    return errorResponse(403, "Previews come from the dataset pages of this site.");
  }
  const params = Object.fromEntries(new URL(request.url).searchParams);
  const reading = importReadingSchema.safeParse(params);
  if (!reading.success) return errorResponse(400, importReadingRefusal(reading.error));
  const target = targetSchema.safeParse(params);
  if (!target.success) {
    return errorResponse(400, "Say whether the body is the whole file (complete=1) or its start.");
  }
  const complete = target.data.complete === "1";
  const limit = complete ? previewWholeBytes : previewHeadBytes;
  const length = Number(request.headers.get("content-length") ?? "0");
  if (length > limit) {
    return errorResponse(413, `A preview reads at most ${limit / 1024 / 1024} MB of a file.`);
  }
  // A newer choice aborts the browser's older preview request: its body ends early, quietly.
  const bytes = await readBytesCapped(request, limit + 1).catch(() => "cut" as const);
  if (bytes === "cut") return errorResponse(400, "The upload was cut off before its end.");
  if (bytes === null) {
    return errorResponse(413, `A preview reads at most ${limit / 1024 / 1024} MB of a file.`);
  }
  const { columns, ...how } = reading.data;
  try {
    const preview = await (await getStore()).previewImport(
      {
        bytes,
        complete,
        ...how,
        ...(columns ? { columns } : {}),
        ...(target.data.datasetId ? { datasetId: target.data.datasetId } : {}),
      },
      actorOf(session),
    );
    return Response.json(preview, { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    // By shape, not instanceof: the store's classes can exist once per server bundle.
    const shaped = error as { name?: unknown; message?: unknown; kind?: unknown };
    if (shaped?.name === "DatasetImportError" || shaped?.kind === "invalid") {
      return errorResponse(400, String(shaped.message));
    }
    if (shaped?.kind === "not_found") return errorResponse(404, "That dataset does not exist.");
    if (shaped?.kind === "forbidden") return errorResponse(403, "Your role does not allow this.");
    throw error;
  }
});
