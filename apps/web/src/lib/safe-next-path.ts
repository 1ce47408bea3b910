const fallbackPath = "/admin";
const maxLength = 2048;
const probeOrigin = "http://seed.invalid";

/**
 * The post-login destination: the path a browser reaches from `value` on this origin, or
 * `/admin`. The check is made on the resolved path, which is what is returned: "/.//evil.example"
 * resolves to "//evil.example", a link to another host. Stable: applying it twice changes nothing.
 */
export function safeNextPath(value: unknown, fallback = fallbackPath): string {
  if (typeof value !== "string" || value.length === 0 || value.length > maxLength) return fallback;
  // Browsers drop tabs and newlines and read "\" as "/"; a path never needs any of them.
  if (!value.startsWith("/") || value.includes("\\") || hasControlCharacter(value)) return fallback;
  const path = resolvedPath(value);
  if (path === null || path.length > maxLength) return fallback;
  // Also once percent-decoded, in case anything on the way decodes it ("/%2F%2Fevil.example").
  return resolvedPath(asciiDecoded(path)) === null ? fallback : path;
}

function hasControlCharacter(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/** The path, query and fragment `value` resolves to on this origin; null unless that is a path. */
function resolvedPath(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value, probeOrigin);
  } catch {
    return null;
  }
  // "//host" or "/\host" would be read as another host when the result is used as a link.
  if (url.origin !== probeOrigin || /^\/[/\\]/.test(url.pathname)) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** Every %XX escape of an ASCII character decoded: only those can spell a slash, dot or backslash. */
function asciiDecoded(path: string): string {
  return path.replace(/%([0-7][0-9a-f])/gi, (_, hex: string) =>
    String.fromCharCode(Number.parseInt(hex, 16)),
  );
}

export function loginPath(next: string): string {
  return `/login?next=${encodeURIComponent(safeNextPath(next))}`;
}
