import { createHash } from "node:crypto";
import {
  jsonInputLimits,
  NotFoundError,
  pushLimits,
  readBoundedJson,
  rowsPermission,
  ValidationError,
} from "@seed/model";
import { can, TokenActor } from "../../access/policy.js";
import { type Executor, isUniqueViolation, type StoreContext, writeAudit } from "../../context.js";
import { dialectOf } from "../../db/dialect.js";
import { countTokenRequest, type DatasetToken, findLiveDatasetToken } from "../dataset-tokens.js";
import { importIntoDatasetIn } from "./import.js";
import { writeListedRowsIn } from "./row-edits.js";

/**
 * The push API's one write path: a bearer token, rows as JSON or CSV, an optional
 * Idempotency-Key. Refusals that are not about the rows are DatasetPushRefusal (by `reason`);
 * bad rows are the same ValidationError the forms get, each problem with its row and column.
 */
export type PushFormat = "json" | "csv";
export type PushMode = "append" | "replace";

export interface DatasetPushInput {
  /** The bearer token as sent. */
  token: string;
  /** The dataset the request names (its URL). */
  datasetId: string;
  format: PushFormat;
  /** The whole request body as text (the web app caps its size at pushLimits.maxBodyBytes). */
  body: string;
  /** From the query string; a JSON body may also say `"mode"`; the default is append. */
  mode?: PushMode;
  idempotencyKey?: string | null;
}

export interface DatasetPushAnswer {
  datasetId: string;
  imported: number;
  rowCount: number;
  version: number;
}

export interface DatasetPushResult {
  /** 201 for an append, 200 for a replace; a replay repeats the first answer's status. */
  status: 200 | 201;
  body: DatasetPushAnswer;
  /** True when an earlier request with this Idempotency-Key was answered and nothing was written. */
  replayed: boolean;
}

export type PushRefusalReason =
  /** No such token, or it is revoked or expired (401). */
  | "unauthenticated"
  /** The token is for another dataset (403). */
  | "wrong_dataset"
  /** An append token asked to replace (403). */
  | "scope"
  /** The token's request budget for this window is spent (429). */
  | "rate_limited"
  /** This Idempotency-Key was used with other content (422). */
  | "idempotency_mismatch"
  /** The Idempotency-Key is empty or too long, or the body is not rows (400). */
  | "bad_request"
  /** More rows than one push may carry (413). */
  | "too_many_rows"
  /** The body is over pushLimits.maxBodyBytes (413). */
  | "too_large"
  /** The JSON nests arrays and objects deeper than any rows do (400). */
  | "too_deep"
  /** The JSON holds more values and keys than the most rows one push may carry (413). */
  | "too_many_values";

export class DatasetPushRefusal extends Error {
  override name = "DatasetPushRefusal";
  constructor(
    readonly reason: PushRefusalReason,
    message: string,
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(message);
  }
}

const refusalReasons: ReadonlySet<string> = new Set<PushRefusalReason>([
  "unauthenticated",
  "wrong_dataset",
  "scope",
  "rate_limited",
  "idempotency_mismatch",
  "bad_request",
  "too_many_rows",
  "too_large",
  "too_deep",
  "too_many_values",
]);

/** The push refusal in `error`, recognised by shape (a second bundle's copy still counts). */
export function pushRefusalOf(error: unknown): DatasetPushRefusal | null {
  if (!(error instanceof Error) || error.name !== "DatasetPushRefusal") return null;
  const reason = (error as { reason?: unknown }).reason;
  return typeof reason === "string" && refusalReasons.has(reason)
    ? (error as DatasetPushRefusal)
    : null;
}

/** Audit actor ids of push API tokens start with this. */
export const tokenActorPrefix = "api-token:";

/** Who a push is: the token, not the person who made it, allowed what its scope says. */
function tokenActor(token: DatasetToken): TokenActor {
  return new TokenActor(
    `${tokenActorPrefix}${token.id}`,
    `"${token.name}" (made by ${token.createdBy.email})`.slice(0, 320),
    token.datasetId,
    token.scope,
  );
}

function fingerprintOf(format: PushFormat, mode: PushMode, body: string): string {
  return createHash("sha256").update(`${format}\n${mode}\n`).update(body).digest("hex");
}

/** JSON rows: a bare array, or `{ "rows": [...], "mode"?: "append" | "replace" }`. */
function readJsonBody(body: string): { rows: Record<string, unknown>[]; mode?: PushMode } {
  // Bounded before parsing: nothing below (checks, messages) ever walks a deep or huge value.
  const read = readBoundedJson(body, jsonInputLimits.pushBody, "The body");
  if (!read.ok) {
    throw new DatasetPushRefusal(
      read.reason === "invalid_json" ? "bad_request" : read.reason,
      read.message,
    );
  }
  const parsed = read.value;
  let rows: unknown = parsed;
  let mode: PushMode | undefined;
  if (parsed !== null && typeof parsed === "object" && !Array.isArray(parsed)) {
    const object = parsed as { rows?: unknown; mode?: unknown };
    rows = object.rows;
    if (object.mode !== undefined) {
      if (object.mode !== "append" && object.mode !== "replace") {
        throw new DatasetPushRefusal("bad_request", 'The mode must be "append" or "replace".');
      }
      mode = object.mode;
    }
  }
  if (!Array.isArray(rows)) {
    throw new DatasetPushRefusal(
      "bad_request",
      'Send the rows as a JSON array, or as { "rows": [...] }.',
    );
  }
  if (rows.length > pushLimits.maxRows) {
    throw new DatasetPushRefusal(
      "too_many_rows",
      `One push carries at most ${pushLimits.maxRows.toLocaleString("en-US")} rows; send them in several.`,
    );
  }
  if (rows.length === 0) throw new DatasetPushRefusal("bad_request", "The list of rows is empty.");
  const problems = rows.flatMap((row, index) =>
    row !== null && typeof row === "object" && !Array.isArray(row)
      ? []
      : [
          {
            field: `rows.${index + 1}`,
            code: "not_an_object",
            message: `Row ${index + 1}: each row must be an object of column names to values.`,
            row: index + 1,
          },
        ],
  );
  if (problems.length > 0) {
    throw new ValidationError({
      fieldErrors: { rows: problems.map((problem) => problem.message) },
      problems: problems.slice(0, 10),
    });
  }
  return { rows: rows as Record<string, unknown>[], mode };
}

/** CSV rows: counted before the write so an oversized push is refused as such. */
function csvSource(body: string): AsyncIterable<string> {
  return (async function* () {
    yield body;
  })();
}

interface StoredAnswer {
  status: 200 | 201;
  body: DatasetPushAnswer;
}

async function storedAnswer(
  db: Executor,
  tokenId: string,
  key: string,
  fingerprint: string,
  notBefore: string,
): Promise<StoredAnswer | null> {
  const row = await db
    .selectFrom("dataset_push_requests")
    .select(["fingerprint", "status", "response_json"])
    .where("token_id", "=", tokenId)
    .where("idempotency_key", "=", key)
    .where("created_at", ">", notBefore)
    .executeTakeFirst();
  if (!row) return null;
  if (row.fingerprint !== fingerprint) {
    throw new DatasetPushRefusal(
      "idempotency_mismatch",
      "This Idempotency-Key was already used for a different request; use a new key.",
    );
  }
  return {
    status: Number(row.status) === 200 ? 200 : 201,
    body: JSON.parse(row.response_json) as DatasetPushAnswer,
  };
}

/** Authenticates, counts, and writes one push all or nothing (see DatasetPushInput). */
export async function pushDatasetRows(
  ctx: StoreContext,
  input: DatasetPushInput,
): Promise<DatasetPushResult> {
  const token = await findLiveDatasetToken(ctx, input.token.trim());
  if (!token) {
    throw new DatasetPushRefusal(
      "unauthenticated",
      "The token is unknown, revoked or expired. Send Authorization: Bearer <token>.",
    );
  }
  const limited = await countTokenRequest(ctx, token.id);
  if (limited) {
    // Not audited: a flood must not flood the log. Every counted request below is.
    throw new DatasetPushRefusal(
      "rate_limited",
      `A token may make ${pushLimits.requestsPerWindow} requests a minute; try again in ${limited.retryAfterSeconds} s.`,
      limited.retryAfterSeconds,
    );
  }
  const actor = tokenActor(token);
  const target = { datasetId: input.datasetId };
  const key = input.idempotencyKey ?? null;
  const audited = async (detail: Record<string, unknown>) => {
    await writeAudit(ctx.db, ctx, actor, "dataset.push", "dataset", input.datasetId, {
      tokenId: token.id,
      format: input.format,
      ...(key === null ? {} : { idempotencyKey: key.slice(0, 100) }),
      ...detail,
    });
  };
  try {
    // Every scope may append, so a token refused that is a token of another dataset.
    if (!can(actor, "rows.append", target)) {
      throw new DatasetPushRefusal("wrong_dataset", "This token writes another dataset.");
    }
    if (key !== null && (key.length === 0 || key.length > pushLimits.maxIdempotencyKeyLength)) {
      throw new DatasetPushRefusal(
        "bad_request",
        `An Idempotency-Key has 1 to ${pushLimits.maxIdempotencyKeyLength} characters.`,
      );
    }
    const json = input.format === "json" ? readJsonBody(input.body) : null;
    if (input.mode && json?.mode && input.mode !== json.mode) {
      throw new DatasetPushRefusal("bad_request", "The mode in the URL and in the body differ.");
    }
    const mode: PushMode = input.mode ?? json?.mode ?? "append";
    if (!can(actor, rowsPermission(mode), target)) {
      throw new DatasetPushRefusal("scope", "This token may only append rows.");
    }
    const result = await writePush(ctx, token, actor, input, mode, json?.rows ?? null, key);
    // A written push is audited in its own transaction; a replay is a use too.
    if (result.replayed) await audited({ mode, outcome: "replayed" });
    return result;
  } catch (error) {
    const refusal = pushRefusalOf(error);
    // The refusal is what the caller must see, even if recording it failed.
    await audited({
      outcome: "refused",
      reason: refusal?.reason ?? (error instanceof ValidationError ? "invalid_rows" : "failed"),
    }).catch(() => undefined);
    throw error;
  }
}

async function writePush(
  ctx: StoreContext,
  token: DatasetToken,
  actor: TokenActor,
  input: DatasetPushInput,
  mode: PushMode,
  rows: Record<string, unknown>[] | null,
  key: string | null,
): Promise<DatasetPushResult> {
  const fingerprint = fingerprintOf(input.format, mode, input.body);
  const now = ctx.now();
  const notBefore = new Date(now.getTime() - pushLimits.idempotencyMs).toISOString();
  const status = mode === "append" ? 201 : 200;
  const detail = { tokenId: token.id, format: input.format, mode, outcome: "written" };
  try {
    return await ctx.db.transaction().execute(async (trx) => {
      // One push at a time per dataset: PostgreSQL locks the row (SQLite's write lock is taken
      // at BEGIN), so a retry waits for the first and then finds its answer below.
      let locked = trx
        .selectFrom("datasets")
        .select(["id", "version"])
        .where("id", "=", input.datasetId);
      if (dialectOf(trx).rowLocks) locked = locked.forUpdate();
      const dataset = await locked.executeTakeFirst();
      if (!dataset) throw new NotFoundError("dataset", input.datasetId);
      if (key !== null) {
        await trx
          .deleteFrom("dataset_push_requests")
          .where("token_id", "=", token.id)
          .where("created_at", "<=", notBefore)
          .execute();
        const earlier = await storedAnswer(trx, token.id, key, fingerprint, notBefore);
        if (earlier) return { ...earlier, replayed: true };
      }
      const version = Number(dataset.version);
      const audit = {
        action: "dataset.push" as const,
        detail: key === null ? detail : { ...detail, idempotencyKey: key.slice(0, 100) },
      };
      const written = rows
        ? await writeListedRowsIn(
            trx,
            ctx,
            { datasetId: input.datasetId, expectedVersion: version, mode, rows },
            actor,
            audit,
          )
        : await importIntoDatasetIn(
            trx,
            ctx,
            {
              datasetId: input.datasetId,
              expectedVersion: version,
              mode,
              source: csvSource(input.body),
              maxBytes: pushLimits.maxBodyBytes,
              maxRows:
                (mode === "append" ? await rowCountOf(trx, input.datasetId) : 0) +
                pushLimits.maxRows,
              maxRowsReason: `one push adds at most ${pushLimits.maxRows.toLocaleString("en-US")} rows; send them in several.`,
            },
            actor,
            audit,
          );
      const body: DatasetPushAnswer = {
        datasetId: written.datasetId,
        imported: written.imported,
        rowCount: written.rowCount,
        version: written.version,
      };
      if (key !== null) {
        await trx
          .insertInto("dataset_push_requests")
          .values({
            token_id: token.id,
            idempotency_key: key,
            fingerprint,
            status,
            response_json: JSON.stringify(body),
            created_at: now.toISOString(),
          })
          .execute();
      }
      return { status, body, replayed: false };
    });
  } catch (error) {
    // A concurrent request with the same key committed first: answer as it did.
    if (key !== null && isUniqueViolation(error)) {
      const earlier = await storedAnswer(ctx.db, token.id, key, fingerprint, notBefore);
      if (earlier) return { ...earlier, replayed: true };
    }
    throw error;
  }
}

async function rowCountOf(trx: Executor, datasetId: string): Promise<number> {
  const row = await trx
    .selectFrom("datasets")
    .select("row_count")
    .where("id", "=", datasetId)
    .executeTakeFirst();
  return Number(row?.row_count ?? 0);
}

export const pushOperations = { pushDatasetRows };
