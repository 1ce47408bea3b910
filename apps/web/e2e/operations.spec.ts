import { expect, test } from "@playwright/test";
import { appRoutes, nextAssetsRoute, routeLabel, unmatchedRoute } from "../src/lib/route-label";
import { createAdminWithCli, startServer } from "./server-process";
import { randomPassword, signInThroughForm, specPort } from "./support";

// What a load balancer asks: /api/health (the process is up), /api/ready (database reached and
// migrated). Issue 12's cluster tests build on these.

test("/api/ready answers 200 once the database is migrated and reachable, naming nothing else (no engine)", async ({
  request,
}) => {
  for (const path of ["/api/ready", "/api/ready?verbose=1"]) {
    const response = await request.get(path);
    expect(response.status()).toBe(200);
    expect(response.headers()["cache-control"]).toBe("no-store");
    expect(await response.json()).toEqual({ status: "ready" });
    const text = (await response.text()).toLowerCase();
    for (const word of ["sqlite", "postgres", "duckdb", "database", "version"]) {
      expect(text).not.toContain(word);
    }
  }
});

test("with its database down the server still starts: health 200, ready 503 naming no secret", async () => {
  const unreachable = "postgresql://seed:db-password-0123@127.0.0.1:9/nowhere";
  const server = await startServer(specPort("operations"), {
    databaseUrl: unreachable,
  });
  try {
    const health = await fetch(`${server.url}/api/health`);
    expect(health.status).toBe(200);

    const ready = await fetch(`${server.url}/api/ready`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ status: "unavailable" });
    // why goes to the log, never the password
    await expect.poll(() => server.output()).toContain("not ready");
    expect(server.output()).not.toContain("db-password-0123");
  } finally {
    await server.stop();
  }
});

test("every response carries a request id: a well-formed one sent in is kept, others replaced", async ({
  request,
}) => {
  const fresh = await request.get("/api/health");
  expect(fresh.headers()["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
  const kept = await request.get("/api/health", {
    headers: { "X-Request-Id": "lb-0123456789abcdef" },
  });
  expect(kept.headers()["x-request-id"]).toBe("lb-0123456789abcdef");
  for (const bad of ["short", "x".repeat(65), "has space here!", "<script>alert(1)</script>"]) {
    const replaced = await request.get("/api/health", { headers: { "X-Request-Id": bad } });
    expect(replaced.headers()["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
  }
});

test("metrics: off without a token; behind a Bearer token they count requests by route and chart queries, and the log has one JSON line per request", async ({
  request,
  page,
}) => {
  // A server of its own, a sign-in and 400 requests: minutes on a busy machine, not seconds.
  test.setTimeout(240_000);
  expect((await request.get("/api/metrics")).status()).toBe(404);

  const token = "metrics-token-0123456789";
  const server = await startServer(specPort("operations") + 1, {
    env: { SEED_METRICS_TOKEN: token },
  });
  try {
    for (const path of ["/d/demo", "/d/demo", "/d/no-such-dashboard"]) {
      await fetch(`${server.url}${path}`, {
        headers: { "X-Request-Id": `trace-${path.length}-abcdef` },
      });
    }
    // Public pages may come from the build's shared page cache; a signed-in preview always
    // renders, so its chart and stat queries run on this server.
    const admin = {
      email: "metrics@e2e.seed-charts.test",
      name: "Metrics",
      password: randomPassword(),
    };
    await createAdminWithCli(server, admin);
    await page.goto(`${server.url}/login?next=/admin/preview/demo`);
    await signInThroughForm(page, admin.email, admin.password);
    await page.waitForURL((url) => url.pathname === "/admin/preview/demo");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();

    for (const authorization of [undefined, "Bearer wrong", `Basic ${token}`, token]) {
      const refused = await fetch(`${server.url}/api/metrics`, {
        headers: authorization ? { Authorization: authorization } : {},
      });
      expect(refused.status).toBe(401);
    }
    const metrics = await fetch(`${server.url}/api/metrics`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(metrics.status).toBe(200);
    const text = await metrics.text();
    expect(text).toMatch(
      /seed_http_request_duration_seconds_count\{method="GET",route="\/d\/:slug",status="200"\} [1-9]/,
    );
    expect(text).toMatch(
      /seed_http_request_duration_seconds_count\{method="GET",route="\/d\/:slug",status="404"\} 1/,
    );
    expect(text).toMatch(
      /seed_chart_query_duration_seconds_count\{engine="(sqlite|postgres)",outcome="ok"\} [1-9]/,
    );
    expect(text).toContain("seed_dataset_imports_total");
    expect(text).not.toContain("no-such-dashboard");

    // Labels come from the route table: 400 distinct paths (unknown pages, draft slugs in every
    // embed form, odd methods; over three times the bound below) add no series beyond the
    // table's, and no path text reaches the body.
    const seriesBefore = requestSeries(text);
    const seed = Date.now() % 1_000_000;
    console.log(`metrics label paths seed: ${seed}`);
    const shapes = [
      (token: string) => `/zz${token}`,
      (token: string) => `/embed/d/${token}`,
      (token: string) => `/embed/c/${token}`,
      (token: string) => `/embed/signed/d/${token}`,
      (token: string) => `/d/${token}/f/${token}`,
      (token: string) => `/admin/${token}`,
      (token: string) => `/api/${token}/x`,
      (token: string) => `/${token}/${token}/${token}/${token}/${token}`,
    ];
    const tokens = Array.from({ length: 400 }, (_, i) => `p${seed}x${i.toString(36)}`);
    const methods = ["GET", "HEAD", "POST", "PROPFIND", "PURGE"];
    for (let start = 0; start < tokens.length; start += 16) {
      await Promise.all(
        tokens.slice(start, start + 16).map((token, i) =>
          fetch(`${server.url}${shapes[(start + i) % shapes.length]?.(token)}`, {
            method: methods[(start + i) % methods.length],
            redirect: "manual",
          }).then((response) => response.arrayBuffer()),
        ),
      );
    }
    const after = await (
      await fetch(`${server.url}/api/metrics`, { headers: { Authorization: `Bearer ${token}` } })
    ).text();
    expect(after).not.toContain(`p${seed}x`);
    const routes = new Set(
      [...requestSeries(after)].map((series) => /route="([^"]*)"/.exec(series)?.[1]),
    );
    // every route label is a pattern of the table, /_next or the one "(unmatched)" label
    const allowed = new Set([...appRoutes.map(routeLabel), unmatchedRoute, nextAssetsRoute]);
    for (const route of routes) expect(allowed).toContain(route);
    // at most one series per shape, method and status class: nothing grows with the path count
    expect(requestSeries(after).size - seriesBefore.size).toBeLessThanOrEqual(
      shapes.length * methods.length * 3,
    );

    const lines = server
      .output()
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const logged = lines.find((line) => line.requestId === "trace-7-abcdef");
    expect(logged).toMatchObject({
      msg: "request",
      method: "GET",
      path: "/d/demo",
      route: "/d/:slug",
      status: 200,
    });
    expect(typeof logged?.ms).toBe("number");
  } finally {
    await server.stop();
  }
});

/** The distinct label sets of the request histogram in a metrics body. */
function requestSeries(metrics: string): Set<string> {
  return new Set(
    metrics
      .split("\n")
      .filter((line) => line.startsWith("seed_http_request_duration_seconds_count{"))
      .map((line) => line.slice(0, line.lastIndexOf("}") + 1)),
  );
}
