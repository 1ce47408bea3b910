const fallbackPath = "/admin";

/**
 * Accepts only same-site relative paths for the post-login redirect, so `next` can't send a
 * signed-in user to another origin (no "//host", "/\\host", schemes or control characters).
 */
export function safeNextPath(value: unknown, fallback = fallbackPath): string {
  if (typeof value !== "string" || value.length === 0 || value.length > 2048) return fallback;
  if (!value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return fallback;
  // Browsers drop tabs/newlines and treat "\" as "/", which would turn "/\t/evil" into "//evil".
  for (const char of value) {
    const code = char.charCodeAt(0);
    if (code < 0x20 || code === 0x7f || char === "\\") return fallback;
  }
  try {
    const base = "http://seed.invalid";
    const url = new URL(value, base);
    if (url.origin !== base) return fallback;
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return fallback;
  }
}

export function loginPath(next: string): string {
  return `/login?next=${encodeURIComponent(safeNextPath(next))}`;
}
