import { expect, test } from "@playwright/test";
import { startServer } from "./server-process";

// What a load balancer asks: /api/health (the process is up), /api/ready (database reached and
// migrated). Issue 12's cluster tests build on these.

test("/api/ready answers 200 with the engine once the database is migrated and reachable", async ({
  request,
}) => {
  const response = await request.get("/api/ready");

  expect(response.status()).toBe(200);
  expect(response.headers()["cache-control"]).toBe("no-store");
  const expected = process.env.SEED_E2E_DATABASE === "postgres" ? "postgres" : "sqlite";
  expect(await response.json()).toEqual({ status: "ready", database: expected });
});

test("with its database down the server still starts: health 200, ready 503 naming no secret", async () => {
  const unreachable = "postgresql://seed:db-password-0123@127.0.0.1:9/nowhere";
  const server = await startServer(Number(process.env.SEED_E2E_PORT ?? 3100) + 7, {
    databaseUrl: unreachable,
  });
  try {
    const health = await fetch(`${server.url}/api/health`);
    expect(health.status).toBe(200);

    const ready = await fetch(`${server.url}/api/ready`);
    const body = await ready.text();
    expect(ready.status).toBe(503);
    expect(body).toContain("unavailable");
    for (const secret of ["db-password-0123", "127.0.0.1:9", "nowhere"]) {
      expect(body).not.toContain(secret);
    }
    expect(server.output()).not.toContain("db-password-0123");
  } finally {
    await server.stop();
  }
});
