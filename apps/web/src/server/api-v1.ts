import "server-only";
import { apiTokenRole, type DashboardFile, isRole } from "@seed/model";
import { readDashboardFile } from "@seed/model/file";
import type { Actor, Store } from "@seed/store";
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
export function storeProblem(error: unknown): Response {
  const kind = (error as { kind?: string } | null)?.kind;
  if (kind === "forbidden")
    return problem(403, "This token's account or scope does not allow this.");
  if (kind === "not_found") return problem(404, "Not found.");
  if (kind === "conflict") {
    return problem(412, "The dashboard changed since the version you sent in If-Match.");
  }
  if (kind === "invalid") {
    const { fieldErrors = {}, formError } = error as {
      fieldErrors?: Record<string, string[]>;
      formError?: string;
    };
    const errors = Object.entries(fieldErrors).flatMap(([path, messages]) =>
      messages.map((message) => ({ path, message })),
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
