import { randomBytes } from "node:crypto";
import { type Browser, expect, test } from "@playwright/test";
import fc from "fast-check";
import { startCluster } from "../../scripts/cluster.mjs";
import { importEventsHeader } from "../../src/features/datasets/import-events";
import {
  createAdminWithCli,
  type ServerProcess,
  startServer,
  startServerWithAdmin,
} from "../server-process";
import { randomPassword, specPort } from "../support";

// One same-origin rule (src/lib/same-origin.mjs) for the streamed import route, every server
// action and every other state-changing request: against the configured public address
// (BETTER_AUTH_URL), or on a default start against the origin the browser used (scheme + Host).
// Real `next start` servers, opened by name, by IPv4, by IPv6 and through nginx: the page's own
// origin is accepted; generated foreign origins get a plain 403, never a 500 or a stack.

const seed = Number(process.env.FC_SEED ?? process.env.SEED ?? Date.now() % 2 ** 31);
console.log(`[same-origin] fast-check seed ${seed} (FC_SEED=${seed} repeats this run)`);

const basePort = specPort("sameOrigin");
// Soft assertions in the checks below: one run reports every class that fails (an import
// refused, an action's 500, the start-up warning), not only the first.
test.describe.configure({ timeout: 180_000 });

let stopAfter: (() => Promise<void>) | undefined;
test.afterEach(async () => {
  await stopAfter?.();
  stopAfter = undefined;
});

interface SignedIn {
  cookie: string;
  /** The sign-in form's server action as the browser sent it, to replay with other origins. */
  action: { id: string; contentType: string; body: Buffer };
}

/** Signs in through the form at `base` (a real browser, so the Origin is the page's own). */
async function signInAt(
  browser: Browser,
  base: string,
  account: { email: string; password: string },
): Promise<SignedIn> {
  const context = await browser.newContext({ baseURL: base });
  const page = await context.newPage();
  await page.goto("/login");
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  const actionRequest = page.waitForRequest(
    (request) => request.method() === "POST" && Boolean(request.headers()["next-action"]),
  );
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  const request = await actionRequest;
  const headers = await request.allHeaders();
  expect(headers.origin, "the browser sent its own origin").toBe(new URL(base).origin);
  await page.waitForURL(/\/admin(?:$|[/?])/);
  const cookie = (await context.cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
  await context.close();
  return {
    cookie,
    action: {
      id: headers["next-action"] ?? "",
      contentType: headers["content-type"] ?? "text/plain;charset=UTF-8",
      body: request.postDataBuffer() ?? Buffer.alloc(0),
    },
  };
}

/** Origins that are not `own` for the rule: other hosts, ports, schemes, and tricks. */
function foreignOrigins(own: string, alsoForeign: string[], count: number): string[] {
  const url = new URL(own);
  const host = url.hostname;
  const bare = host.replace(/^\[|\]$/g, "");
  const port = Number(url.port || 80);
  const tricks = fc.oneof(
    fc.constantFrom(
      "null",
      "http://evil.example",
      `http://evil.example:${port}`,
      `http://${bare}.evil.example:${port}`,
      `http://evil.${bare}:${port}`,
      `http://127.0.0.2:${port}`,
      `http://[::2]:${port}`,
      `https://${url.host}`,
      `http://${host}`,
      `http://${url.host}.`.replace(/(:\d+)\.$/, ".$1"),
      `${own}@evil.example`,
      `http://evil.example@${url.host}`,
      `${own}/`,
      `${own}/admin`,
      `ws://${url.host}`,
      `file://${url.host}`,
      ...alsoForeign,
    ),
    fc
      .integer({ min: 1, max: 65_535 })
      .filter((other) => other !== port)
      .map((other) => `http://${host}:${other}`),
    fc
      .stringMatching(/^[a-z][a-z0-9-]{0,12}(\.[a-z]{2,6}){1,2}$/)
      .map((name) => `http${name.length % 2 ? "s" : ""}://${name}:${port}`),
  );
  // A spelling the URL parser reads as this very origin (e.g. "127.0.0.1." is 127.0.0.1) is not
  // foreign: the unit test's oracle covers those; here only origins that differ.
  const sameOrigin = (value: string) => {
    try {
      return /^https?:\/\/[^/?#@\\\s]+$/i.test(value) && new URL(value).origin === own;
    } catch {
      return false;
    }
  };
  return fc.sample(
    tricks.filter((value) => !sameOrigin(value)),
    { seed: seed + port, numRuns: count },
  );
}

/** Variants of `own` the rule must accept: the same origin in other spellings. */
function ownSpellings(own: string): string[] {
  const upper = own
    .replace(/^http/, "HTTP")
    .replace(/\/\/([^:/]+|\[[^\]]+\])/, (m) => m.toUpperCase());
  return [...new Set([own, upper])];
}

async function importAt(base: string, cookie: string, origin: string | null) {
  const response = await fetch(
    new URL(
      `/api/datasets/import?name=${encodeURIComponent(`Origin ${randomBytes(4).toString("hex")}`)}`,
      base,
    ),
    {
      method: "POST",
      headers: {
        ...(origin === null ? {} : { Origin: origin }),
        Cookie: cookie,
        "Content-Type": "text/csv",
        [importEventsHeader]: "1",
      },
      body: "region,amount\nAlfa,1\nBravo,2\n",
    },
  );
  return { status: response.status, body: await response.text() };
}

/** A server action (or, without `actionId`, any other write) posted to `path` with `origin`. */
async function postAt(
  base: string,
  path: string,
  origin: string,
  cookie: string,
  action: SignedIn["action"] | null,
) {
  const response = await fetch(new URL(path, base), {
    method: "POST",
    redirect: "manual",
    headers: {
      Origin: origin,
      Cookie: cookie,
      ...(action
        ? {
            "Next-Action": action.id,
            "Content-Type": action.contentType,
            Accept: "text/x-component",
          }
        : { "Content-Type": "application/x-www-form-urlencoded" }),
    },
    body: action ? new Uint8Array(action.body) : "a=1",
  });
  return { status: response.status, body: await response.text() };
}

const writePaths = ["/login", "/admin", "/admin/datasets", "/admin/users", "/", "/setup"];

function expectPlainRefusal(answer: { status: number; body: string }, label: string) {
  expect.soft(answer.status, label).toBe(403);
  expect.soft(answer.body, label).not.toMatch(/\n\s+at |Error:|node_modules|\.js:\d+/);
}

/**
 * Everything the rule decides, at `base` (the address the browser opened): the page's own origin
 * (in any spelling) imports and runs actions; generated foreign origins are refused with a 403 at
 * the import route, for the server action on every action path, and for other writes.
 */
async function checkSite(base: string, signedIn: SignedIn, alsoForeign: string[]) {
  const own = new URL(base).origin;
  for (const origin of ownSpellings(own)) {
    const imported = await importAt(base, signedIn.cookie, origin);
    expect.soft(imported.status, `import from ${origin} at ${base}`).toBe(200);
    expect.soft(imported.body).toContain('"type":"done"');
    const acted = await postAt(base, "/login", origin, signedIn.cookie, signedIn.action);
    expect.soft(acted.status, `action from ${origin} at ${base}`).toBeLessThan(400);
  }
  expectPlainRefusal(
    await importAt(base, signedIn.cookie, null),
    `import without Origin at ${base}`,
  );
  for (const origin of foreignOrigins(own, alsoForeign, 24)) {
    const label = `${origin} at ${base}`;
    const imported = await importAt(base, signedIn.cookie, origin);
    expectPlainRefusal(imported, `import from ${label}`);
    expect.soft(imported.body).toContain("Uploads come from the dataset pages of this site.");
    for (const path of writePaths) {
      expectPlainRefusal(
        await postAt(base, path, origin, signedIn.cookie, signedIn.action),
        `action at ${path} from ${label}`,
      );
    }
    expectPlainRefusal(
      await postAt(base, "/api/auth/sign-out", origin, signedIn.cookie, null),
      `sign-out from ${label}`,
    );
  }
}

function expectQuietServer(output: string) {
  expect.soft(output).not.toContain("Base URL is not set");
  expect.soft(output).not.toContain("Invalid Server Actions request");
  expect.soft(output).not.toMatch(/"level":(?:50|60)|Unhandled|uncaught/i);
}

test("a default start: opened as localhost, 127.0.0.1 or [::1], the page's own origin is the one allowed", async ({
  browser,
}) => {
  const { server, admin } = await startServerWithAdmin(basePort, {
    env: { BETTER_AUTH_URL: "", BETTER_AUTH_TRUSTED_ORIGINS: "" },
  });
  stopAfter = () => server.stop();
  const port = new URL(server.url).port;
  const names = [`http://localhost:${port}`, `http://127.0.0.1:${port}`, `http://[::1]:${port}`];
  for (const base of names) {
    const signedIn = await signInAt(browser, base, admin);
    // The same machine by another name is another origin.
    await checkSite(
      base,
      signedIn,
      names.filter((name) => name !== base),
    );
  }
  expectQuietServer(server.output());
});

test("a configured public address (by IP) is the one allowed, whatever name the request came to", async ({
  browser,
}) => {
  const port = basePort + 1;
  const publicAddress = `http://127.0.0.1:${port}`;
  const admin = {
    email: `admin-${port}@e2e.seed-charts.test`,
    name: "Admin",
    password: randomPassword(),
  };
  const server: ServerProcess = await startServer(port, {
    env: { BETTER_AUTH_URL: publicAddress, BETTER_AUTH_TRUSTED_ORIGINS: "" },
  });
  stopAfter = () => server.stop();
  await createAdminWithCli(server, admin);
  const signedIn = await signInAt(browser, publicAddress, admin);
  await checkSite(publicAddress, signedIn, [`http://localhost:${port}`]);
  // Opened by a name that is not the public address, its own origin is foreign too.
  const local = `http://localhost:${port}`;
  expectPlainRefusal(await importAt(local, signedIn.cookie, local), "import at localhost");
  expectPlainRefusal(
    await postAt(local, "/login", local, signedIn.cookie, signedIn.action),
    "action at localhost",
  );
  expectQuietServer(server.output());
});

test("through the nginx balancer: the public address is accepted, the instance's own and foreign origins are not", async ({
  browser,
}) => {
  const port = basePort + 3;
  const cluster = await startCluster({ port, instances: 1 });
  stopAfter = () => cluster.stop();
  const admin = {
    email: "balancer@e2e.seed-charts.test",
    name: "Admin",
    password: randomPassword(),
  };
  await createAdminWithCli(
    { dataDir: cluster.dataDirs[0] ?? "", databaseUrl: cluster.databaseUrl },
    admin,
  );
  const signedIn = await signInAt(browser, cluster.url, admin);
  const instance = cluster.instances[0]?.url ?? "";
  await checkSite(cluster.url, signedIn, [instance, `http://127.0.0.1:${port}`]);
  for (const started of cluster.instances) expectQuietServer(started.output());
});
