import { afterAll, describe, expect, it } from "vitest";
import {
  closedPort,
  type FakeListener,
  startFakeListener,
} from "../../../scripts/fake-postgres-listener.mjs";
import { sourceConnectFailed } from "../src/repo/sources/connections.js";
import { admin } from "./actors.js";
import { openTestStore, settle, sourceSettings } from "./helpers.js";
import { key, useLiveSource } from "./live-source.js";

// Every way a live source can fail to connect or sign in gives the user the same sentence.

describe("a failure to connect or sign in", () => {
  const live = useLiveSource();
  const listeners: FakeListener[] = [];
  afterAll(async () => {
    await Promise.all(listeners.map((listener) => listener.close()));
  });

  it("reads the same whatever failed, naming no host or port; the reason is kept for the log", async () => {
    const store = await openTestStore("sqlite", { seedDemo: false, sourcesKey: key });
    const listen = async (kind: Parameters<typeof startFakeListener>[0]) => {
      const listener = await startFakeListener(kind);
      listeners.push(listener);
      return listener.port;
    };
    const real = {
      host: live.remote.host,
      port: live.remote.port,
      database: live.remote.database,
      user: live.remote.user,
      password: live.remote.password,
    };
    const local = (port: number) => ({ ...real, host: "127.0.0.1", port });
    const cases: Record<string, Record<string, unknown>> = {
      "refused port": local(await closedPort()),
      "privileged closed port": local(1),
      "silent listener": local(await listen("silent")),
      "web server": local(await listen("http")),
      "ssh server": local(await listen("ssh-banner")),
      "asks for the password, refuses it": local(await listen("cleartext-password")),
      "lies about a statement timeout": local(
        await listen({ startupError: "57014", message: "canceling statement due to timeout" }),
      ),
      "lies about a missing table": local(
        await listen({ startupError: "42P01", message: 'relation "x" does not exist' }),
      ),
      "says too many connections": local(
        await listen({ startupError: "53300", message: "sorry, too many clients already" }),
      ),
      "unknown host": { ...real, host: "no-such-host.invalid" },
      "wrong password": { ...real, password: "not-the-password" },
      "unknown user": { ...real, user: "no_such_user" },
      "unknown database": { ...real, database: "no_such_database" },
      "SSL the server does not offer": { ...real, sslMode: "require" },
      "certificate that cannot be verified": { ...real, sslMode: "verify-full" },
    };
    const outcomes = await Promise.all(
      Object.entries(cases).map(async ([name, settings]) => {
        const result = await store.testSourceConnection(
          { name: "Probe", ...sourceSettings, ...settings } as never,
          admin,
        );
        return { name, result };
      }),
    );
    for (const { name, result } of outcomes) {
      expect({ name, ok: result.ok, reason: !result.ok && result.reason }).toEqual({
        name,
        ok: false,
        reason: sourceConnectFailed,
      });
      if (!result.ok) {
        expect(result.detail.stage).toBe("connect");
        expect(result.detail.message).not.toContain(live.remote.password);
      }
    }
    expect(sourceConnectFailed).not.toMatch(/\d/);

    // The same on a saved source's pool (listing its tables, rendering its tiles).
    const saved = await Promise.all(
      ["refused port", "web server", "lies about a missing table", "wrong password"].map(
        async (name) => {
          const source = await store.createSource(
            { name, ...sourceSettings, ...cases[name] } as never,
            admin,
          );
          const outcome = await settle(store.listSourceTables(source.id, admin));
          return { name, message: outcome.status === "rejected" && outcome.reason.message };
        },
      ),
    );
    expect(saved).toEqual(saved.map(({ name }) => ({ name, message: sourceConnectFailed })));
  });
});
