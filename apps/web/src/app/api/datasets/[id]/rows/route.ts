import { jsonRefusalStatus, pushLimits, storeErrorOf } from "@seed/model";
import {
  type DatasetPushResult,
  type PushFormat,
  type PushRefusalReason,
  pushRefusalOf,
} from "@seed/store";
import { readBodyCapped } from "@/lib/request-body";
import { checkAlertsAfterWrite } from "@/server/delivery";
import { observability } from "@/server/observability";
import { revalidateContent } from "@/server/revalidate";
import { getStore } from "@/server/store";

// The push API: programs write rows into one dataset with a bearer token made on the dataset's
// admin page. A browser session counts for nothing here (cookies are never read), so there is no
// CSRF to defend against; the token, checked by the store, is the only gate. Error bodies are
// { error, message, problems? } with `error` a stable code (README: "Push API").

interface PushProblem {
  row: number | null;
  column: string | null;
  code: string;
  message: string;
}

function pushError(
  status: number,
  error: string,
  message: string,
  options: { problems?: PushProblem[]; headers?: Record<string, string> } = {},
): Response {
  return Response.json(
    { error, message, ...(options.problems ? { problems: options.problems } : {}) },
    { status, headers: { "Cache-Control": "no-store", ...options.headers } },
  );
}

const unauthenticated = (message: string) =>
  pushError(401, "unauthenticated", message, {
    headers: { "WWW-Authenticate": 'Bearer realm="seed-push", error="invalid_token"' },
  });

const refusalStatus: Record<PushRefusalReason, number> = {
  unauthenticated: 401,
  wrong_dataset: 403,
  scope: 403,
  rate_limited: 429,
  idempotency_mismatch: 422,
  bad_request: 400,
  too_many_rows: 413,
  too_large: jsonRefusalStatus.too_large,
  too_deep: jsonRefusalStatus.too_deep,
  too_many_values: jsonRefusalStatus.too_many_values,
};

// CSV problems about the file's shape are a bad request; cells that do not fit are 422.
const csvShapeCodes = new Set([
  "invalid_csv",
  "empty",
  "no_rows",
  "wrong_value_count",
  "empty_header",
  "duplicate_header",
  "header_too_long",
  "too_many_columns",
]);
const tooLargeCodes = new Set(["file_too_large", "too_many_rows"]);

function formatOf(contentType: string | null): PushFormat | null {
  const type = (contentType ?? "").split(";")[0]?.trim().toLowerCase();
  if (type === "application/json") return "json";
  if (type === "text/csv") return "csv";
  return null;
}

function answer(result: DatasetPushResult): Response {
  return Response.json(result.body, {
    status: result.status,
    headers: {
      "Cache-Control": "no-store",
      ...(result.replayed ? { "Idempotent-Replayed": "true" } : {}),
    },
  });
}

function failure(error: unknown): Response {
  const refusal = pushRefusalOf(error);
  if (refusal) {
    const status = refusalStatus[refusal.reason];
    if (refusal.reason === "unauthenticated") return unauthenticated(refusal.message);
    return pushError(status, refusal.reason, refusal.message, {
      headers:
        refusal.retryAfterSeconds === null
          ? {}
          : { "Retry-After": String(refusal.retryAfterSeconds) },
    });
  }
  const stored = storeErrorOf(error);
  if (stored?.kind === "invalid") {
    const problems: PushProblem[] = stored.problems.map((problem) => ({
      row: problem.row ?? null,
      column: problem.column ?? null,
      code: problem.code,
      message: problem.message,
    }));
    const codes = problems.map((problem) => problem.code);
    const status = codes.some((code) => tooLargeCodes.has(code))
      ? 413
      : codes.some((code) => csvShapeCodes.has(code))
        ? 400
        : 422;
    if (status === 413) {
      const code = codes.includes("file_too_large") ? "too_large" : "too_many_rows";
      return pushError(413, code, problems[0]?.message ?? "The push is too large.", { problems });
    }
    return pushError(status, "invalid_rows", "Nothing was written; fix the rows named.", {
      problems,
    });
  }
  if (stored?.kind === "not_found") return pushError(404, "not_found", "No such dataset.");
  if (stored?.kind === "conflict") {
    return pushError(409, "conflict", "The dataset changed during the push; send it again.");
  }
  observability().logger.error(
    {
      err: error instanceof Error ? { message: error.message, stack: error.stack } : String(error),
    },
    "push failed",
  );
  return pushError(500, "failed", "The push failed; nothing was written.");
}

export async function POST(
  request: Request,
  context: { params: Promise<{ id: string }> },
): Promise<Response> {
  const authorization = request.headers.get("authorization") ?? "";
  const bearer = /^Bearer[ \t]+(\S{1,200})[ \t]*$/i.exec(authorization)?.[1];
  if (!bearer) return unauthenticated("Send Authorization: Bearer <token>.");
  const { id } = await context.params;
  if (id.length > 200) return pushError(404, "not_found", "No such dataset.");
  const format = formatOf(request.headers.get("content-type"));
  if (!format) {
    return pushError(
      415,
      "unsupported_media_type",
      "Send Content-Type: application/json or text/csv.",
    );
  }
  const url = new URL(request.url);
  const modeParam = url.searchParams.get("mode");
  if (modeParam !== null && modeParam !== "append" && modeParam !== "replace") {
    return pushError(400, "bad_request", 'The mode must be "append" or "replace".');
  }
  const tooLarge = () =>
    pushError(
      413,
      "too_large",
      `A push body must be under ${pushLimits.maxBodyBytes / 1024 / 1024} MB; send the rows in several pushes.`,
    );
  if (Number(request.headers.get("content-length") ?? "0") >= pushLimits.maxBodyBytes) {
    return tooLarge();
  }
  const body = await readBodyCapped(request, pushLimits.maxBodyBytes);
  if (body === null) return tooLarge();
  const store = await getStore();
  try {
    const result = await store.pushDatasetRows({
      token: bearer,
      datasetId: id,
      format,
      body,
      mode: modeParam ?? undefined,
      idempotencyKey: request.headers.get("idempotency-key"),
    });
    if (!result.replayed) {
      observability().imports.inc({ kind: "push", outcome: "ok" });
      // Published dashboards show the new rows on their next request, on any instance. The rows
      // are committed: a failed expiry must not report the push as failed.
      await revalidateContent().catch((error: unknown) => {
        observability().logger.error({ err: String(error) }, "revalidation after push failed");
      });
      await checkAlertsAfterWrite(id);
    }
    return answer(result);
  } catch (error) {
    return failure(error);
  }
}
