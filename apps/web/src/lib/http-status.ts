// The statuses this app answers with on purpose; anything else falls back to its number.
export const statusNames = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  413: "Content Too Large",
  500: "Internal Server Error",
} as const;

export type KnownStatus = keyof typeof statusNames;

export function statusName(status: number): string {
  return statusNames[status as KnownStatus] ?? `HTTP ${status}`;
}

/** A JSON error body `{ status, error, message? }` for route handlers. */
export function errorResponse(
  status: KnownStatus,
  message?: string,
  init?: ResponseInit,
): Response {
  const headers = new Headers(init?.headers);
  headers.set("Cache-Control", "no-store");
  return Response.json(
    { status, error: statusNames[status], ...(message ? { message } : {}) },
    { ...init, status, headers },
  );
}

/** 405 with the Allow header that RFC 9110 asks for. */
export function methodNotAllowed(allowed: readonly string[]): Response {
  return errorResponse(405, undefined, { headers: { Allow: allowed.join(", ") } });
}
