import { randomUUID } from "node:crypto";
import { ValidationError } from "@seed/model";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeListener, startFakeListener } from "../../../scripts/fake-postgres-listener.mjs";
import type { DataSource, Store } from "../src/index.js";
import { internalsOf } from "../src/raw-handles.js";
import { sourceConnectFailed } from "../src/repo/sources/connections.js";
import { admin } from "./actors.js";
import { dialects, openSuiteStore, openTestStore, settle } from "./helpers.js";
import { key, useLiveSource } from "./live-source.js";

// A saved source password goes only with the host, port, database and user it was saved for (and
// no weaker SSL setting): Test connection and Save with a blank password and anything else changed
// ask for it again. The oracle is a listener of our own that asks for the password in clear text
// and keeps every byte it receives. And every failure to connect or sign in reads the same.

const seed = Number(process.env.SEED ?? Date.now() % 2_147_483_647);
/** Thousands of store calls per property: room for a busy machine. */
const propertyTimeoutMs = 240_000;
console.log(`source-password-binding seed: ${seed} (rerun with SEED=${seed})`);

const sslModes = ["disable", "require", "verify-full"] as const;
type SslMode = (typeof sslModes)[number];

interface Endpoint {
  host: string;
  port: number;
  database: string;
  user: string;
  sslMode: SslMode;
}

/** What a form may send: the port as typed text or a number, any password field. */
interface Request {
  host: string;
  port: number | string;
  database: string;
  user: string;
  sslMode: SslMode;
  password?: string;
}

/** Other spellings of 127.0.0.1, every one a different host string (most reach the listener). */
const otherLoopbackHosts = [
  "localhost",
  "LOCALHOST",
  "LocalHost",
  "localhost.",
  "127.0.0.1.",
  "127.1",
  "127.0.1",
  "2130706433",
  "0x7f000001",
  "0x7f.0.0.1",
  "0177.0.0.1",
  "127.000.000.001",
  "::ffff:127.0.0.1",
  "::FFFF:127.0.0.1",
  "0:0:0:0:0:ffff:7f00:1",
];

/** Whitespace the schema trims: the same value as far as the connection goes. */
const padding = fc.constantFrom("", " ", "  ", "\t", " \n");
const padded = (value: string) =>
  fc.tuple(padding, padding).map(([before, after]) => `${before}${value}${after}`);

/** The same port as a form or an API caller might spell it. */
const samePort = (port: number) =>
  fc.constantFrom<number | string>(port, String(port), `0${port}`, ` ${port} `);

/** A database or user name the schema accepts (1-63 characters once trimmed). */
const schemaName = fc
  .oneof(
    fc.stringMatching(/^[a-z_][a-z0-9_]{0,62}$/),
    fc.string({ unit: "grapheme", minLength: 1, maxLength: 20 }),
    fc.constantFrom("postgres", "template1", "x".repeat(63), "Ünïcødé", 'quo"te', "sp ace"),
  )
  .filter((name) => name.trim().length >= 1 && name.trim().length <= 63)
  .map((name) => name.trim());

/** A name other than `saved` once trimmed (case variants included: identifiers are exact). */
const otherName = (saved: string) =>
  fc
    .oneof(
      schemaName,
      fc.constantFrom(saved.toUpperCase(), `${saved}_2`, `${saved}.`, `"${saved}"`),
    )
    .filter((name) => name.trim() !== "" && name.trim() !== saved && name.trim().length <= 63);

const savedEndpoint = (port: number, sslMode: fc.Arbitrary<SslMode>) =>
  fc.record({
    host: fc.constant("127.0.0.1"),
    port: fc.constant(port),
    database: schemaName,
    user: schemaName,
    sslMode,
  });

/** No weaker SSL setting than the saved one: the same or a stronger one. */
const sameOrStronger = (saved: SslMode) =>
  fc.constantFrom(...sslModes.slice(sslModes.indexOf(saved)));

interface Change {
  saved: Endpoint;
  request: Request;
  changed: string[];
}

/** A request changing a non-empty subset of the bound settings, the rest spelled as saved. */
function changedRequest(
  savedPort: number,
  otherPort: number,
  savedSsl: fc.Arbitrary<SslMode> = fc.constantFrom(...sslModes),
): fc.Arbitrary<Change> {
  return savedEndpoint(savedPort, savedSsl).chain((saved) => {
    const weaker = sslModes.slice(0, sslModes.indexOf(saved.sslMode));
    return fc
      .record({
        host: fc.option(fc.constantFrom(...otherLoopbackHosts).chain(padded), { nil: undefined }),
        port: fc.option(
          fc.constantFrom(otherPort, 1, 65_535).chain((port) => samePort(port)),
          { nil: undefined },
        ),
        database: fc.option(otherName(saved.database), { nil: undefined }),
        user: fc.option(otherName(saved.user), { nil: undefined }),
        sslMode:
          weaker.length > 0
            ? fc.option(fc.constantFrom(...weaker), { nil: undefined })
            : fc.constant(undefined),
        sameHost: padded(saved.host),
        samePort: samePort(saved.port),
        sameDatabase: padded(saved.database),
        sameUser: padded(saved.user),
        sameSsl: sameOrStronger(saved.sslMode),
        password: fc.constantFrom<string | undefined>("", undefined),
      })
      .filter((change) =>
        [change.host, change.port, change.database, change.user, change.sslMode].some(
          (value) => value !== undefined,
        ),
      )
      .map((change) => ({
        saved,
        request: {
          host: change.host ?? change.sameHost,
          port: change.port ?? change.samePort,
          database: change.database ?? change.sameDatabase,
          user: change.user ?? change.sameUser,
          sslMode: change.sslMode ?? change.sameSsl,
          ...(change.password === undefined ? {} : { password: change.password }),
        },
        changed: [
          change.host === undefined ? null : "host",
          change.port === undefined ? null : "port",
          change.database === undefined ? null : "database",
          change.user === undefined ? null : "user",
          change.sslMode === undefined ? null : "SSL setting",
        ].filter((label): label is string => label !== null),
      }));
  });
}

function fieldsOf(request: Request, name: string) {
  return { name, statementTimeoutMs: 2_000, rowCap: 100, cacheTtlSeconds: 60, ...request };
}

/** The password field's message when the call asked for the password, else null. */
function passwordRequest(outcome: PromiseSettledResult<unknown>): string | null {
  if (outcome.status === "fulfilled") return null;
  const error = outcome.reason;
  if (!(error instanceof ValidationError)) throw error;
  return error.fieldErrors.password?.join(" ") ?? null;
}

async function sourceState(store: Store, id: string) {
  const db = internalsOf(store).db;
  const row = await db
    .selectFrom("data_sources")
    .selectAll()
    .where("id", "=", id)
    .executeTakeFirstOrThrow();
  const events = await db
    .selectFrom("audit_events")
    .select((eb) => eb.fn.countAll().as("n"))
    .where("entity_id", "=", id)
    .executeTakeFirstOrThrow();
  return { row, events: Number(events.n) };
}

describe.each(dialects)("a saved source password with the app database on %s", (dialect) => {
  const numRuns = dialect === "sqlite" ? 1_000 : 300;
  let store: Store;
  let closeStore: () => Promise<void>;
  let savedAt: FakeListener;
  let elsewhere: FakeListener;
  let created = 0;

  beforeAll(async () => {
    ({ store, close: closeStore } = await openSuiteStore(dialect, {
      seedDemo: false,
      sourcesKey: key,
    }));
    savedAt = await startFakeListener("cleartext-password");
    elsewhere = await startFakeListener("cleartext-password");
  });
  afterAll(async () => {
    await closeStore();
    await savedAt.close();
    await elsewhere.close();
  });

  async function saveSource(saved: Endpoint): Promise<{ source: DataSource; password: string }> {
    const password = `saved-secret-${randomUUID()}`;
    created += 1;
    const source = await store.createSource(
      { ...fieldsOf(saved, `Fake ${created}`), password },
      admin,
    );
    return { source, password };
  }

  function reached(password: string): boolean {
    return (
      savedAt.received().includes(Buffer.from(password)) ||
      elsewhere.received().includes(Buffer.from(password))
    );
  }

  it(
    "is never sent, and is asked for again, when any bound setting changed",
    async () => {
      await fc.assert(
        fc.asyncProperty(
          changedRequest(savedAt.port, elsewhere.port),
          async ({ saved, request, changed }) => {
            const { source, password } = await saveSource(saved);
            const form = fieldsOf(request, source.name);
            savedAt.reset();
            elsewhere.reset();
            const before = await sourceState(store, source.id);

            const tested = await settle(
              store.testSourceConnection({ ...form, sourceId: source.id }, admin),
            );
            expect(reached(password)).toBe(false);
            const updated = await settle(
              store.updateSource(source.id, source.version, form, admin),
            );
            expect(reached(password)).toBe(false);

            for (const outcome of [tested, updated]) {
              const asked = passwordRequest(outcome);
              expect(asked).toMatch(/^Enter the password again: the .+ changed\.$/);
              for (const label of changed) expect(asked).toContain(label);
            }
            // Nothing written: the row and its audit trail as they were.
            expect(await sourceState(store, source.id)).toEqual(before);
          },
        ),
        { seed, numRuns },
      );
    },
    propertyTimeoutMs,
  );

  it(
    "is reused when every bound setting is the same (spelled with spaces, the port as text)",
    async () => {
      await fc.assert(
        fc.asyncProperty(
          savedEndpoint(savedAt.port, fc.constant("disable")),
          fc.record({
            pads: fc.tuple(padding, padding, padding),
            port: fc.constantFrom<(port: number) => number | string>(
              (port) => port,
              (port) => String(port),
              (port) => ` 0${port}`,
            ),
            password: fc.constantFrom<string | undefined>("", undefined),
            name: fc.constantFrom("", " (renamed)"),
          }),
          async (saved, spelling) => {
            const { source, password } = await saveSource(saved);
            const [a, b, c] = spelling.pads;
            const form = fieldsOf(
              {
                host: `${a}${saved.host}${b}`,
                port: spelling.port(saved.port),
                database: `${b}${saved.database}${c}`,
                user: `${c}${saved.user}${a}`,
                sslMode: "disable",
                ...(spelling.password === undefined ? {} : { password: spelling.password }),
              },
              `${source.name}${spelling.name}`,
            );
            savedAt.reset();
            const tested = await store.testSourceConnection(
              { ...form, sourceId: source.id },
              admin,
            );
            // The listener asked for the password in clear text and got the saved one: reused.
            expect(savedAt.received().includes(Buffer.from(password))).toBe(true);
            expect(tested).toMatchObject({ ok: false, reason: sourceConnectFailed });
            const before = await sourceState(store, source.id);
            const updated = await store.updateSource(source.id, source.version, form, admin);
            expect(updated.version).toBe(source.version + 1);
            const after = await sourceState(store, source.id);
            expect(after.row.password_encrypted).toBe(before.row.password_encrypted);
          },
        ),
        { seed, numRuns: Math.ceil(numRuns / 3) },
      );
    },
    propertyTimeoutMs,
  );

  it(
    "is never sent when a new password comes with the changed settings; the new one is saved",
    async () => {
      await fc.assert(
        fc.asyncProperty(
          changedRequest(savedAt.port, elsewhere.port, fc.constant("disable")),
          fc.string({ minLength: 1, maxLength: 40 }).map((text) => `new-${text}`),
          async ({ saved, request }, newPassword) => {
            const { source, password } = await saveSource(saved);
            const form = fieldsOf({ ...request, password: newPassword }, source.name);
            savedAt.reset();
            elsewhere.reset();
            const tested = await store.testSourceConnection(
              { ...form, sourceId: source.id },
              admin,
            );
            expect(tested).toMatchObject({ ok: false, reason: sourceConnectFailed });
            expect(reached(password)).toBe(false);
            const before = await sourceState(store, source.id);
            await store.updateSource(source.id, source.version, form, admin);
            expect(reached(password)).toBe(false);
            const after = await sourceState(store, source.id);
            expect(after.row.password_encrypted).not.toBe(before.row.password_encrypted);
          },
        ),
        { seed, numRuns: Math.ceil(numRuns / 3) },
      );
    },
    propertyTimeoutMs,
  );
});

describe("a saved source password on a real PostgreSQL source", () => {
  const live = useLiveSource();

  it("connects with the saved password when nothing bound changed, and asks when the database or user did", async () => {
    const store = await openTestStore("sqlite", { seedDemo: false, sourcesKey: key });
    const form = live.sourceInput();
    const source = await store.createSource(form, admin);
    const same = await store.testSourceConnection(
      {
        ...form,
        host: ` ${live.remote.host} `,
        port: String(live.remote.port) as unknown as number,
        sslMode: "disable",
        password: "",
        sourceId: source.id,
      },
      admin,
    );
    expect(same).toMatchObject({ ok: true });
    for (const changed of [{ database: "postgres" }, { user: "postgres" }]) {
      const outcome = await settle(
        store.testSourceConnection(
          { ...form, ...changed, password: "", sourceId: source.id },
          admin,
        ),
      );
      expect(passwordRequest(outcome)).toMatch(/^Enter the password again/);
    }
  });
});
