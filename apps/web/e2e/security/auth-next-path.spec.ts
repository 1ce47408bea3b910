import { expect, test } from "@playwright/test";
import { safeNextPath } from "../../src/lib/safe-next-path";

const origin = "http://localhost";
const hosts = ["evil.example", "evil.example:443", "user@evil.example"];
const prefixes = [
  "//",
  "/\\",
  "\\\\",
  "\\/",
  "/\t/",
  "/\n/",
  "/\r/",
  " //",
  "/%2F",
  "/%2f%2f",
  "/%5C",
  "https://",
  "https:",
  "http:/",
  "javascript:",
  "JaVaScRiPt:",
  "data:text/html,",
  "///",
  "/./../",
];

// Every prefix x host form, and the same with a path after it, resolved the way a browser would.
const variants = prefixes.flatMap((prefix) =>
  hosts.flatMap((host) => [`${prefix}${host}`, `${prefix}${host}/admin`]),
);

test("no generated next value leaves the app's origin", () => {
  for (const value of variants) {
    const accepted = safeNextPath(value);
    const resolved = new URL(accepted, origin);
    expect(resolved.origin, `next=${JSON.stringify(value)} -> ${accepted}`).toBe(origin);
    expect(accepted.startsWith("/"), accepted).toBe(true);
    expect(accepted.startsWith("//"), accepted).toBe(false);
  }
});

test("same-origin paths are kept as given", () => {
  for (const value of ["/admin", "/admin/audit?entityType=dashboard", "/admin/users#new"]) {
    expect(safeNextPath(value)).toBe(value);
  }
});
