import { sqlQuestionLimits } from "@seed/model";
import { z } from "zod";
import { actorOf } from "@/components/admin/store-errors";
import { errorResponse } from "@/lib/http-status";
import { readBodyCapped } from "@/lib/request-body";
import { withPermission } from "@/server/auth";
import { getStore } from "@/server/store";

// Runs an editor's SQL question and answers its rows (at most sqlQuestionLimits.maxRows). The
// store checks the permission again, bounds the run, audits it, and the engine keeps it to the
// datasets; this route only reads a bounded body.

const day = z.string().max(40).nullable().optional();
const bodySchema = z.object({
  sql: z.string(),
  parameters: z.object({ from: day, to: day }).optional(),
});
const noStore = { "Cache-Control": "private, no-store" };

type StoreRefusal = Error & { fieldErrors?: Record<string, string[]>; formError?: string };

export const POST = withPermission("sql.run", async (request, session) => {
  // Each character of SQL may take up to 6 bytes as escaped JSON text.
  const text = await readBodyCapped(request, sqlQuestionLimits.maxTextLength * 6 + 1_024);
  if (text === null) return errorResponse(413, "The question is too long.");
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return errorResponse(400, 'Send the question as JSON: { "sql": "select …" }.');
  }
  const body = bodySchema.safeParse(json);
  if (!body.success) return errorResponse(400, 'Send the question as JSON: { "sql": "select …" }.');
  const store = await getStore();
  try {
    const answer = await store.runSqlQuestion(actorOf(session), body.data);
    return Response.json({ answer }, { headers: noStore });
  } catch (error) {
    // Store refusals are told apart by shape: their classes can exist once per server bundle.
    const refusal = error instanceof Error ? (error as StoreRefusal) : null;
    if (refusal?.fieldErrors) {
      return Response.json(
        { fieldErrors: refusal.fieldErrors, formError: refusal.formError },
        { status: 422, headers: noStore },
      );
    }
    throw error;
  }
});
