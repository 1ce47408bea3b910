import "server-only";
import {
  apiTokenRole,
  can,
  type DashboardFile,
  fileChartOptions,
  fileChartPath,
  isRole,
  type JsonLimits,
  jsonRefusalStatus,
  jsonTooLarge,
  readBoundedJson,
} from "@seed/model";
import { readDashboardFile } from "@seed/model/file";
import type { Actor, Chart, Dataset, EntityVersion, Store } from "@seed/store";
import type { ChartAnswer, DatasetSummaryAnswer } from "@/lib/api-v1-schemas";
import { readBodyCapped } from "@/lib/request-body";
import { getAuth } from "./auth-instance";
import { getStore } from "./store";

// /api/v1: the REST API over the store for programs (the seed CLI, scripts, CI). Callers present
// a personal API token as a Bearer token; it acts as its account, with the account's role today
// capped by the token's scope. Errors are RFC 9457 problem details.

/** One thing wrong with a request, at a path in its body ("tiles.2.chart.type"). */
export interface ProblemField {
  path: string;
  message: string;
  line?: number | null;
}

const titles: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  409: "Conflict",
  412: "Precondition Failed",
  413: "Content Too Large",
  415: "Unsupported Media Type",
  422: "Unprocessable Content",
  428: "Precondition Required",
};

/** An `application/problem+json` answer: status, title, what went wrong, and field errors. */
export function problem(
  status: number,
  detail: string,
  extra: { errors?: ProblemField[]; headers?: Record<string, string> } = {},
): Response {
  return new Response(
    JSON.stringify({
      type: "about:blank",
      title: titles[status] ?? `HTTP ${status}`,
      status,
      detail,
      ...(extra.errors ? { errors: extra.errors } : {}),
    }),
    {
      status,
      headers: {
        "Content-Type": "application/problem+json",
        "Cache-Control": "no-store",
        ...extra.headers,
      },
    },
  );
}

/** The 404 of an address naming nothing: a dashboard or dataset by its slug, a chart by id. */
export function notFound(kind: "dashboard" | "dataset" | "chart", key = ""): Response {
  return problem(
    404,
    kind === "chart" ? "No chart has this id." : `No ${kind} has the slug "${key.slice(0, 80)}".`,
  );
}

/** The one answer for a write the token's account or scope does not allow. */
const refuseReadOnlyProblem = () =>
  problem(403, "This token's account or scope does not allow this.");

export interface ApiCaller {
  actor: Actor;
  store: Store;
}

/**
 * Runs `handler` for a caller with a valid token, or answers 401 (no token, or one that is
 * unknown, revoked, expired, or whose account is gone or blocked: one answer for all).
 */
export function withApiToken<Context>(
  handler: (request: Request, caller: ApiCaller, context: Context) => Promise<Response>,
): (request: Request, context: Context) => Promise<Response> {
  return async (request, context) => {
    const header = request.headers.get("authorization") ?? "";
    const match = /^Bearer ([^\s]+)$/i.exec(header.trim());
    const unauthorized = () =>
      problem(401, "Send a personal API token as Authorization: Bearer <token>.", {
        headers: { "WWW-Authenticate": 'Bearer realm="seed"' },
      });
    if (!match?.[1]) return unauthorized();
    const store = await getStore();
    const grant = await store.authenticateApiToken(match[1]);
    if (!grant) return unauthorized();
    const auth = await getAuth();
    const user = await (await auth.$context).internalAdapter.findUserById(grant.userId);
    const role = (user as { role?: unknown } | null)?.role;
    if (!user || (user as { banned?: boolean }).banned || !isRole(role)) return unauthorized();
    const actor: Actor = { id: user.id, email: user.email, role: apiTokenRole(role, grant.scope) };
    return handler(request, { actor, store }, context);
  };
}

/** A store error as problem details: field errors keep their paths; no message text is parsed. */
export function storeProblem(error: unknown, what: "dashboard" | "chart" = "dashboard"): Response {
  const kind = (error as { kind?: string } | null)?.kind;
  if (kind === "forbidden") return refuseReadOnlyProblem();
  if (kind === "not_found") return problem(404, "Not found.");
  if (kind === "conflict") {
    return problem(412, `The ${what} changed since the version you sent in If-Match.`);
  }
  if (kind === "invalid") {
    const { fieldErrors = {}, formError } = error as {
      fieldErrors?: Record<string, string[]>;
      formError?: string;
    };
    // a chart's fields as the API writes them (datasets by slug)
    const errors = Object.entries(fieldErrors).flatMap(([path, messages]) =>
      messages.map((message) => ({ path: what === "chart" ? fileChartPath(path) : path, message })),
    );
    return problem(422, formError ?? "The request has problems; see errors.", { errors });
  }
  throw error;
}

/** A PUT body read as a dashboard file for `slug`: the file, or the problem answer to send. */
export function readFileBody(
  text: string,
  slug: string,
): { value: DashboardFile } | { problem: Response } {
  // JSON is YAML too: one reader, each problem with its path and line.
  const reading = readDashboardFile(text);
  if (!reading.ok) {
    return {
      problem: problem(422, "The file has problems; see errors.", {
        errors: reading.problems.map(({ path, line, message }) => ({ path, line, message })),
      }),
    };
  }
  if (reading.file.slug !== slug) {
    return {
      problem: problem(422, "The file's slug is not the one in the address.", {
        errors: [{ path: "slug", message: `The address says "${slug.slice(0, 80)}".` }],
      }),
    };
  }
  return { value: reading.file };
}

/** A 405 as problem details, naming the methods the route answers. */
export function apiMethodNotAllowed(allowed: readonly string[]): Response {
  return problem(405, `This address answers ${allowed.join(", ")}.`, {
    headers: { Allow: allowed.join(", ") },
  });
}

/** A JSON answer nobody caches (every /api/v1 answer is one account's view). */
export function apiJson(body: unknown, init: { status?: number; etag?: string } = {}): Response {
  return Response.json(body, {
    status: init.status ?? 200,
    headers: { "Cache-Control": "no-store", ...(init.etag ? { ETag: init.etag } : {}) },
  });
}

/** A version as this API's ETag: `"v3"`. */
export const etagOf = (version: number) => `"v${version}"`;

/** The version an If-Match names, "*" for any, or null when it names none this API gave. */
export function ifMatchVersion(header: string): number | "*" | null {
  if (header.trim() === "*") return "*";
  const match = /^(?:W\/)?"v(\d{1,9})"$/.exec(header.trim());
  return match ? Number(match[1]) : null;
}

/** A 304 when the request's If-None-Match is this ETag already. */
export function notModified(request: Request, etag: string): Response | null {
  const asked = request.headers.get("if-none-match");
  if (asked === null) return null;
  const tags = asked.split(",").map((tag) => tag.trim().replace(/^W\//, ""));
  if (!tags.includes(etag) && !tags.includes("*")) return null;
  return new Response(null, { status: 304, headers: { ETag: etag, "Cache-Control": "no-store" } });
}

/** What a page of a list asks: how many, and the position after which it starts. */
export interface PageRequest {
  limit: number;
  /** The last key of the page before (decoded from `cursor`); null on the first page. */
  after: string | null;
}

/**
 * `limit` (1 to `max`, default `fallback`) and `cursor` (a page's `nextCursor`, opaque) from the
 * query string; a 400 problem naming the parameter when either is not one this API takes.
 */
export function readPage(
  request: Request,
  options: { fallback: number; max: number; key: RegExp },
): PageRequest | { problem: Response } {
  const params = new URL(request.url).searchParams;
  const limitText = params.get("limit") ?? String(options.fallback);
  const limit = Number(limitText);
  if (!/^\d{1,4}$/.test(limitText) || limit < 1 || limit > options.max) {
    return {
      problem: problem(400, `limit must be a whole number from 1 to ${options.max}.`, {
        errors: [{ path: "limit", message: `Use 1 to ${options.max}.` }],
      }),
    };
  }
  const cursor = params.get("cursor");
  if (cursor === null) return { limit, after: null };
  const after = cursor.length <= 200 ? Buffer.from(cursor, "base64url").toString("utf8") : "";
  if (!options.key.test(after)) {
    return {
      problem: problem(400, "cursor is not one this API gave.", {
        errors: [{ path: "cursor", message: "Use the nextCursor of the page before." }],
      }),
    };
  }
  return { limit, after };
}

/** The cursor that continues after `key`. */
export const cursorAfter = (key: string) => Buffer.from(key, "utf8").toString("base64url");

/**
 * One page of `items` sorted by `keyOf` (unique, compared as strings): those after the cursor's
 * key, at most `limit`, and the cursor of the next page (null on the last).
 */
export function pageOf<T>(
  items: readonly T[],
  keyOf: (item: T) => string,
  page: PageRequest,
): { items: T[]; nextCursor: string | null } {
  const sorted = [...items].sort((a, b) =>
    keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0,
  );
  const rest =
    page.after === null ? sorted : sorted.filter((item) => keyOf(item) > (page.after as string));
  const taken = rest.slice(0, page.limit);
  const last = taken.at(-1);
  return {
    items: taken,
    nextCursor: rest.length > page.limit && last ? cursorAfter(keyOf(last)) : null,
  };
}

/** A JSON body read within `limits` (size first, then depth and count), or the problem to send. */
export async function readJsonBody(
  request: Request,
  limits: JsonLimits,
  subject: string,
): Promise<{ value: unknown } | { problem: Response }> {
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/json\b/.test(type))
    return { problem: problem(415, `Send ${subject.toLowerCase()} as application/json.`) };
  const text = await readBodyCapped(request, limits.maxBytes + 1);
  const read =
    text === null ? jsonTooLarge(limits, subject) : readBoundedJson(text, limits, subject);
  if (!read.ok) return { problem: problem(jsonRefusalStatus[read.reason], read.message) };
  return { value: read.value };
}

/** A dataset's answer shapes from the store's record and its slug. */
export function datasetSummaryOf(dataset: Dataset, slug: string): DatasetSummaryAnswer {
  return {
    slug,
    name: dataset.name,
    description: dataset.description,
    kind: dataset.live ? "live" : dataset.question ? "question" : "stored",
    columns: dataset.columns.map(({ name, type }) => ({ name, type })),
    rowCount: dataset.rowCount,
    version: dataset.version,
    updatedAt: dataset.updatedAt,
  };
}

/** The dataset a slug names (its SQL table name), with that slug; null when none has it. */
export async function datasetBySlug(
  store: Store,
  slug: string,
  actor: Actor,
): Promise<{ dataset: Dataset; slug: string } | null> {
  const found = (await store.listDatasetSlugs()).find((entry) => entry.slug === slug);
  if (!found) return null;
  // Only a dataset the token's account sees (its groups' collections): anything else is a 404.
  const dataset = (await store.listDatasets({ seenBy: actor })).find(
    (entry) => entry.id === found.id,
  );
  return dataset ? { dataset, slug } : null;
}

/** A page of versions, newest first; the cursor is the last version given. */
export function versionsPage(
  versions: readonly EntityVersion[],
  page: PageRequest,
): { items: EntityVersion[]; nextCursor: string | null } {
  const before = page.after === null ? Number.POSITIVE_INFINITY : Number(page.after);
  const rest = versions.filter((entry) => entry.version < before);
  const items = rest.slice(0, page.limit);
  const last = items.at(-1);
  return {
    items,
    nextCursor: rest.length > page.limit && last ? cursorAfter(String(last.version)) : null,
  };
}

/** A chart's answer shape, its dataset by slug. */
export function chartAnswerOf(
  chart: Chart,
  slugs: readonly { id: string; slug: string }[],
): ChartAnswer {
  const slugOf = (id: string) => slugs.find((entry) => entry.id === id)?.slug;
  return {
    id: chart.id,
    title: chart.title,
    type: chart.type,
    dataset: slugOf(chart.datasetId) ?? "",
    query: chart.query,
    options: fileChartOptions(chart.options, slugOf),
    version: chart.version,
    createdAt: chart.createdAt,
    updatedAt: chart.updatedAt,
  };
}

/** A zod failure as problem details: each issue at its path in the body. */
export function zodProblem(
  issues: readonly { path: PropertyKey[]; message: string }[],
  what: string,
) {
  return problem(422, `${what} has problems; see errors.`, {
    errors: issues.map((issue) => ({
      path: issue.path.map(String).join("."),
      message: issue.message,
    })),
  });
}

/**
 * The If-Match of a write: the version it names, "*" (or none sent: any version), or a 412
 * problem when it names no ETag this API gave.
 */
export function expectedVersionOf(request: Request): number | "*" | { problem: Response } {
  const header = request.headers.get("if-match");
  if (header === null) return "*";
  const expected = ifMatchVersion(header);
  if (expected !== null) return expected;
  return { problem: problem(412, 'If-Match must be an ETag this API gave (like "v3") or *.') };
}

/**
 * A 403 before anything is read when the token's account (capped by its scope) may not write,
 * audited as a denial on the account (the store's recordDenial).
 */
export async function refuseReadOnly(
  actor: Actor,
  request: Request,
  store: Store,
): Promise<Response | null> {
  if (can(actor.role, "content.write")) return null;
  const where = `${request.method} ${new URL(request.url).pathname}`;
  await store.recordDenial(actor, { where, permission: "content.write" });
  return refuseReadOnlyProblem();
}

/** A version number from the address, or null when it is not a whole number from 1. */
export function versionParam(text: string): number | null {
  return /^[1-9]\d{0,8}$/.test(text) ? Number(text) : null;
}
