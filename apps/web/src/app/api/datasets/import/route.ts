import { datasetTextSchema, formatBytes, storeErrorOf } from "@seed/model";
import { z } from "zod";
import { actorOf } from "@/components/admin/store-errors";
import { type ImportEvent, importEventsHeader } from "@/features/datasets/import-events";
import { importReadingRefusal, importReadingSchema } from "@/features/datasets/import-reading";
import { errorResponse } from "@/lib/http-status";
import { isSameOriginRequest } from "@/lib/same-origin.mjs";
import { withPermission } from "@/server/auth";
import { checkAlertsAfterWrite } from "@/server/delivery";
import { observability } from "@/server/observability";
import { expireContentNow, revalidateContentWhen } from "@/server/revalidate";
import { getStore } from "@/server/store";

// Streamed import of a CSV, JSON, NDJSON, Parquet, Arrow or Excel file: the file is the request body, read as it arrives (never whole in memory),
// and the answer is NDJSON progress events while the store inserts, then one final event.
// It lives outside /admin on purpose: the proxy buffers (and past its limit cuts) the bodies of
// requests it sees; this handler checks the session and role itself.

const intoSchema = z.object({
  datasetId: z.string().min(1).max(200),
  version: z.coerce.number().int().min(1),
  mode: z.enum(["replace", "append"]),
});
/** A new dataset's name and description: the store's own rule (datasetTextSchema). */
const newSchema = datasetTextSchema;

function encode(event: ImportEvent): Uint8Array {
  return new TextEncoder().encode(`${JSON.stringify(event)}\n`);
}

type StoreErrorShape = Error & {
  code?: unknown;
  line?: unknown;
  column?: unknown;
  fieldErrors?: Record<string, string[]>;
};

/**
 * A store refusal as the final event; anything else is a real crash. Errors are told apart by
 * name and shape, not instanceof: the store's classes can exist once per server bundle.
 */
function failureEvent(error: unknown): ImportEvent {
  const shaped = error instanceof Error ? (error as StoreErrorShape) : null;
  if (shaped?.name === "DatasetImportError" && typeof shaped.code === "string") {
    // By shape, not instanceof: the store this process opened may be another copy of the class.
    const { lineProblems, problemCount } = error as {
      lineProblems?: { message: string; line: number | null; column: string | null }[];
      problemCount?: number;
    };
    return {
      type: "error",
      code: shaped.code,
      line: typeof shaped.line === "number" ? shaped.line : null,
      column: typeof shaped.column === "string" ? shaped.column : null,
      message: shaped.fieldErrors?.csv?.[0] ?? shaped.message,
      ...(Array.isArray(lineProblems) && typeof problemCount === "number" && problemCount > 1
        ? {
            problems: lineProblems.map(({ message, line, column }) => ({ message, line, column })),
            problemCount,
          }
        : {}),
    };
  }
  const refusal = storeErrorOf(error);
  if (refusal) {
    const message = Object.values(shaped?.fieldErrors ?? {}).flat()[0] ?? refusal.message;
    return { type: "error", code: refusal.kind, line: null, column: null, message };
  }
  observability().logger.error(
    {
      err: error instanceof Error ? { message: error.message, stack: error.stack } : String(error),
    },
    "import failed",
  );
  return {
    type: "error",
    code: "failed",
    line: null,
    column: null,
    message: "The import failed; nothing was changed.",
  };
}

export const POST = withPermission("content.write", async (request, session) => {
  // Only this app's own pages may post here: same origin (the one rule, src/lib/same-origin.mjs,
  // against the public address; never request.url, which `next start` reports as localhost), and
  // a header a plain form cannot set. A missing Origin is refused too.
  if (!isSameOriginRequest(request.headers) || !request.headers.get(importEventsHeader)) {
    return errorResponse(403, "Uploads come from the dataset pages of this site.");
  }
  const length = Number(request.headers.get("content-length") ?? "0");
  const store = await getStore();
  const { maxImportBytes } = store.rowsLimits;
  if (length > maxImportBytes) {
    return errorResponse(400, `Files up to ${formatBytes(maxImportBytes)} can be imported.`);
  }
  if (!request.body) return errorResponse(400, "Send the CSV file as the request body.");
  const params = Object.fromEntries(new URL(request.url).searchParams);
  const into = intoSchema.safeParse(params);
  const created = into.success ? null : newSchema.safeParse(params);
  if (!into.success && !created?.success) {
    return errorResponse(
      400,
      params.datasetId === undefined && created?.error
        ? (created.error.issues[0]?.message ?? "Enter a name.")
        : "Give a dataset, version and mode, or a name for a new dataset.",
    );
  }
  const reading = importReadingSchema.safeParse(params);
  if (!reading.success) return errorResponse(400, importReadingRefusal(reading.error));
  // The format says how to read the file; the separator and decimal mark apply to CSV, where the
  // form sends what the preview found (without them: comma and point, as before previews).
  const { format, sheet, encoding, columns, delimiter, decimal, headerRow } = reading.data;
  const csvDialect = {
    delimiter: delimiter === "auto" ? "," : delimiter,
    decimal: decimal === "auto" ? "." : decimal,
  } as const;
  const reads = {
    encoding,
    ...(columns ? { columns } : {}),
    ...(sheet ? { sheet } : {}),
    ...(headerRow ? { headerRow } : {}),
  };
  const actor = actorOf(session);
  const source = request.body;
  // A body shorter than announced (a cut connection) is refused rather than half imported.
  const expectedBytes = length > 0 ? length : undefined;
  let lastSent = 0;
  // The response streams while the import runs, so the handler has returned before the import
  // ends; revalidation then has to wait in after(), which runs once the response is done.
  let imported: (changed: boolean) => void = () => {};
  const importEnded = new Promise<boolean>((resolve) => {
    imported = resolve;
  });
  revalidateContentWhen(importEnded);
  const importsCounter = observability().imports;
  const importKind = into.success ? into.data.mode : "new";
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      const onProgress = ({ rows, bytes }: { rows: number; bytes: number }) => {
        // At most a few events a second is plenty for a progress bar.
        const now = Date.now();
        if (now - lastSent < 200) return;
        lastSent = now;
        controller.enqueue(encode({ type: "progress", rows, bytes }));
      };
      try {
        const result = into.success
          ? await store.importIntoDataset(
              {
                datasetId: into.data.datasetId,
                expectedVersion: into.data.version,
                mode: into.data.mode,
                source,
                expectedBytes,
                onProgress,
                dialect: csvDialect,
                format,
                ...reads,
              },
              actor,
            )
          : await store.importNewDataset(
              {
                name: created?.data?.name ?? "",
                description: created?.data?.description ?? "",
                source,
                expectedBytes,
                onProgress,
                dialect: csvDialect,
                format,
                ...reads,
              },
              actor,
            );
        imported(true);
        importsCounter.inc({ kind: importKind, outcome: "ok" });
        // The rows are committed: a failed expiry must not report the import as failed (the
        // revalidation after the response tries again).
        await expireContentNow().catch(() => undefined);
        if (into.success) await checkAlertsAfterWrite(into.data.datasetId);
        controller.enqueue(encode({ type: "done", ...result }));
      } catch (error) {
        imported(false);
        importsCounter.inc({ kind: importKind, outcome: "error" });
        controller.enqueue(encode(failureEvent(error)));
      } finally {
        controller.close();
      }
    },
  });
  return new Response(stream, {
    headers: { "Content-Type": "application/x-ndjson", "Cache-Control": "no-store" },
  });
});
