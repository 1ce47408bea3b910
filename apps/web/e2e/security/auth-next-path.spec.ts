import { expect, test } from "@playwright/test";
import fc from "fast-check";
import { loginPath, safeNextPath } from "../../src/lib/safe-next-path";

// Ten thousand generated values per property: room for a busy machine.
test.describe.configure({ timeout: 120_000 });

const seed = Number(process.env.FC_SEED ?? process.env.SEED ?? Date.now() % 2 ** 31);
console.log(`[auth-next-path] fast-check seed ${seed} (FC_SEED=${seed} repeats this run)`);

const origins = ["http://localhost", "https://charts.example.com:8443", "http://[::1]:3000"];
const hosts = [
  "evil.example",
  "evil.example:443",
  "user@evil.example",
  "EVIL.example.",
  "127.0.0.1",
  "[::1]",
];

// The pieces an open redirect is spelled from: slashes, backslashes, dot segments plain and
// encoded, encoded slashes, tabs and newlines, userinfo, schemes and hosts.
const piece = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom("/", "//", "\\", ".", "..", "./", "../", "/./", "/../") },
  {
    weight: 4,
    arbitrary: fc.constantFrom("%2e", "%2E", "%2e%2e", ".%2e", "%2f", "%2F", "%5c", "%5C", "%252f"),
  },
  { weight: 2, arbitrary: fc.constantFrom("\t", "\n", "\r", " ", "%09", "%0a", "\u0000") },
  { weight: 2, arbitrary: fc.constantFrom("@", ":", "?", "#", "&", "=", "next=") },
  { weight: 2, arbitrary: fc.constantFrom("https:", "http:", "javascript:", "data:", "//") },
  { weight: 4, arbitrary: fc.constantFrom(...hosts) },
  { weight: 3, arbitrary: fc.constantFrom("admin", "a", "x", "login", "datasets", "ü", "%zz") },
  { weight: 1, arbitrary: fc.string({ maxLength: 4 }) },
);
const nextValue = fc.oneof(
  fc.array(piece, { maxLength: 12 }).map((parts) => parts.join("")),
  fc.array(piece, { maxLength: 12 }).map((parts) => `/${parts.join("")}`),
  // Near the length limit, where escaping can make the result longer than the input.
  fc
    .tuple(fc.constantFrom(" ", "a", "%2e", "ü", "/"), fc.integer({ min: 600, max: 2100 }))
    .map(([unit, count]) => `/${unit.repeat(count)}`.slice(0, 2048)),
);

/** Every %XX of an ASCII character decoded: what a lenient decoder on the way could make of it. */
function decodedOnce(path: string): string {
  return path.replace(/%([0-7][0-9a-f])/gi, (_, hex: string) =>
    String.fromCharCode(Number.parseInt(hex, 16)),
  );
}

/** What a browser does with `location` on a page of `origin`: the URL it goes to. */
function followed(location: string, origin: string): URL {
  return new URL(location, origin);
}

/** A plain throw: cheap enough for thousands of runs, and fast-check prints the input. */
function check(condition: boolean, message: string): void {
  if (!condition) throw new Error(message);
}

test("whatever next is, the returned path keeps the browser on the app's origin", () => {
  fc.assert(
    fc.property(nextValue, (value) => {
      const result = safeNextPath(value);
      check(result.startsWith("/") && !result.startsWith("//"), `returned ${result}`);
      for (const origin of origins) {
        check(followed(result, origin).origin === origin, `${result} leaves ${origin}`);
        // Also if anything on the way decodes it once more before a browser reads it.
        check(followed(decodedOnce(result), origin).origin === origin, `${result}, decoded`);
        // The browser lands exactly on the returned path: nothing left to resolve.
        const landed = followed(result, origin);
        check(`${landed.pathname}${landed.search}${landed.hash}` === result, `${result} moves`);
      }
    }),
    { seed, numRuns: 10_000 },
  );
});

test("the returned path is stable, also through the sign-in link's round trip", () => {
  fc.assert(
    fc.property(nextValue, (value) => {
      const result = safeNextPath(value);
      check(safeNextPath(result) === result, `${result} becomes ${safeNextPath(result)}`);
      // loginPath puts it in /login?next=…, which the login page reads back.
      const link = new URL(loginPath(value), "http://localhost");
      check(link.pathname === "/login", `${link}`);
      check(safeNextPath(link.searchParams.get("next")) === result, `${link} reads back otherwise`);
    }),
    { seed, numRuns: 10_000 },
  );
});

// Every prefix x host form, and the same with a path after it.
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
  "/.//",
  "/a/..//",
  "/%2e%2e//",
  "/x/../..//",
  "/.///",
];

test("no prefix x host spelling leaves the app's origin", () => {
  for (const value of prefixes.flatMap((prefix) =>
    hosts.flatMap((host) => [`${prefix}${host}`, `${prefix}${host}/admin`]),
  )) {
    const accepted = safeNextPath(value);
    expect(followed(accepted, "http://localhost").origin, `${value} -> ${accepted}`).toBe(
      "http://localhost",
    );
    expect(accepted.startsWith("//"), accepted).toBe(false);
  }
});

test("the reported spellings go to the fallback, and same-origin paths are kept as given", () => {
  for (const value of [
    "/.//evil.example",
    "/a/..//evil.example",
    "/%2e%2e//evil.example",
    "/x/../..//evil.example",
    "/.///evil.example",
    "/%2F%2Fevil.example",
    "/a/%2e%2e%2f%2fevil.example",
  ]) {
    expect(safeNextPath(value), value).toBe("/admin");
  }
  for (const value of ["/admin", "/admin/audit?entityType=dashboard", "/admin/users#new", "/"]) {
    expect(safeNextPath(value)).toBe(value);
  }
  fc.assert(
    fc.property(
      fc.array(fc.stringMatching(/^[a-z0-9_-]{1,12}$/), { maxLength: 6 }),
      fc.option(fc.stringMatching(/^[a-z]{1,6}=[a-z0-9]{0,6}$/), { nil: undefined }),
      (segments, query) => {
        const path = `/${segments.join("/")}${query ? `?${query}` : ""}`;
        check(safeNextPath(path) === path, `${path} becomes ${safeNextPath(path)}`);
      },
    ),
    { seed, numRuns: 2_000 },
  );
});
