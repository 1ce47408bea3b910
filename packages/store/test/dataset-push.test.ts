import { pushLimits, storeErrorOf, type ValidationError } from "@seed/model";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type DatasetPushRefusal, openStore, pushRefusalOf } from "../src/index.js";
import { storeInternals } from "../src/raw-handles.js";
import { editor } from "./actors.js";
import {
  clock,
  createTestDatabase,
  engines,
  errorOf,
  openTestStore,
  salesInput,
} from "./helpers.js";

const row = { month: "2025-04-01", region: "East", revenue: 90, orders: 3 };

async function refusalOf(promise: Promise<unknown>): Promise<DatasetPushRefusal> {
  const refusal = pushRefusalOf(await errorOf(promise));
  if (!refusal) throw new Error("Expected a push refusal.");
  return refusal;
}

describe.each(engines)("push API on %s", (dialect) => {
  it("keeps only the token's hash, shows the secret once, and lists it without it", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });
    const dataset = await store.createDataset(salesInput(), editor);

    const { token, secret } = await store.createDatasetToken(
      { datasetId: dataset.id, name: "Nightly job", scope: "append" },
      editor,
    );

    expect(secret).toMatch(/^seed_[A-Za-z0-9_-]{43}$/);
    expect(token).toMatchObject({
      name: "Nightly job",
      scope: "append",
      createdBy: { id: editor.id, email: editor.email },
    });
    expect(token.prefix).toBe(secret.slice(0, 9));
    const { db } = storeInternals.get(store) ?? {};
    const stored = await db?.selectFrom("dataset_tokens").selectAll().execute();
    expect(JSON.stringify(stored)).not.toContain(secret);
    expect(stored?.[0]?.token_hash).toMatch(/^[0-9a-f]{64}$/);
    const listed = await store.listDatasetTokens(dataset.id, editor);
    expect(listed.map((item) => item.id)).toEqual([token.id]);
    expect(JSON.stringify(listed)).not.toContain(secret);
    const audit = await store.listAuditEvents({ action: "dataset.token-create" });
    expect(audit.events[0]?.detail).toMatchObject({ tokenId: token.id, scope: "append" });
  });

  it("appends JSON and CSV rows, one audit event per request, and records the last use", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });
    const dataset = await store.createDataset(salesInput(), editor);
    const { token, secret } = await store.createDatasetToken(
      { datasetId: dataset.id, name: "Pusher", scope: "append" },
      editor,
    );

    const json = await store.pushDatasetRows({
      token: secret,
      datasetId: dataset.id,
      format: "json",
      body: JSON.stringify({ rows: [row, { ...row, region: "West" }] }),
    });
    const csv = await store.pushDatasetRows({
      token: secret,
      datasetId: dataset.id,
      format: "csv",
      body: "month,region,revenue,orders\n2025-05-01,North,10,1\n",
    });

    expect(json).toMatchObject({
      status: 201,
      replayed: false,
      body: { imported: 2, rowCount: 5 },
    });
    expect(csv).toMatchObject({ status: 201, body: { imported: 1, rowCount: 6, version: 3 } });
    expect((await store.getDataset(dataset.id))?.rows.at(-1)).toMatchObject({ region: "North" });
    const pushes = await store.listAuditEvents({ action: "dataset.push" });
    expect(pushes.events).toHaveLength(2);
    expect(pushes.events[0]?.actor.id).toBe(`api-token:${token.id}`);
    expect((await store.listDatasetTokens(dataset.id, editor))[0]?.lastUsedAt).not.toBeNull();
  });

  it("refuses an unknown, expired or revoked token", async () => {
    const time = clock();
    const store = await openTestStore(dialect, { seedDemo: false, now: time.now });
    const dataset = await store.createDataset(salesInput(), editor);
    const expiring = await store.createDatasetToken(
      { datasetId: dataset.id, name: "Short", scope: "append", expiresAt: "2026-06-03" },
      editor,
    );
    const revoked = await store.createDatasetToken(
      { datasetId: dataset.id, name: "Gone", scope: "append" },
      editor,
    );
    await store.revokeDatasetToken(dataset.id, revoked.token.id, editor);
    const push = (token: string) =>
      store.pushDatasetRows({
        token,
        datasetId: dataset.id,
        format: "json",
        body: JSON.stringify([row]),
      });

    expect((await refusalOf(push(revoked.secret))).reason).toBe("unauthenticated");
    expect((await refusalOf(push(`seed_${"A".repeat(43)}`))).reason).toBe("unauthenticated");
    expect((await refusalOf(push("not a token"))).reason).toBe("unauthenticated");
    expect((await push(expiring.secret)).status).toBe(201);
    time.advance(2 * 24 * 60 * 60 * 1000);
    expect((await refusalOf(push(expiring.secret))).reason).toBe("unauthenticated");
    expect((await store.getDataset(dataset.id))?.rowCount).toBe(4);
    const revokedEvent = await store.listAuditEvents({ action: "dataset.token-revoke" });
    expect(revokedEvent.events[0]?.detail).toMatchObject({ tokenId: revoked.token.id });
    // Revoking twice, or through another dataset, is refused.
    expect(
      await errorOf(store.revokeDatasetToken(dataset.id, revoked.token.id, editor)),
    ).toMatchObject({ kind: "invalid" });
    expect(
      await errorOf(store.revokeDatasetToken("other-dataset", expiring.token.id, editor)),
    ).toMatchObject({ kind: "invalid" });
  });

  it("keeps a token to its dataset and its scope", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });
    const mine = await store.createDataset(salesInput("Mine"), editor);
    const other = await store.createDataset(salesInput("Other"), editor);
    const append = await store.createDatasetToken(
      { datasetId: mine.id, name: "Append", scope: "append" },
      editor,
    );
    const replace = await store.createDatasetToken(
      { datasetId: mine.id, name: "Replace", scope: "replace" },
      editor,
    );
    const body = JSON.stringify([row]);

    const elsewhere = await refusalOf(
      store.pushDatasetRows({ token: append.secret, datasetId: other.id, format: "json", body }),
    );
    const scoped = await refusalOf(
      store.pushDatasetRows({
        token: append.secret,
        datasetId: mine.id,
        format: "json",
        body: JSON.stringify({ mode: "replace", rows: [row] }),
      }),
    );
    const replaced = await store.pushDatasetRows({
      token: replace.secret,
      datasetId: mine.id,
      format: "json",
      body,
      mode: "replace",
    });

    expect(elsewhere.reason).toBe("wrong_dataset");
    expect(scoped.reason).toBe("scope");
    expect(replaced).toMatchObject({ status: 200, body: { imported: 1, rowCount: 1 } });
    expect((await store.getDataset(other.id))?.rowCount).toBe(3);
    const refusals = await store.listAuditEvents({ action: "dataset.push" });
    expect(refusals.events.map((event) => event.detail.reason ?? event.detail.outcome)).toEqual([
      "written",
      "scope",
      "wrong_dataset",
    ]);
  });

  it("writes nothing when one row is bad, and names its row and column", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });
    const dataset = await store.createDataset(salesInput(), editor);
    const { secret } = await store.createDatasetToken(
      { datasetId: dataset.id, name: "Pusher", scope: "replace" },
      editor,
    );

    const jsonError = (await errorOf(
      store.pushDatasetRows({
        token: secret,
        datasetId: dataset.id,
        format: "json",
        mode: "replace",
        body: JSON.stringify([row, { ...row, revenue: "lots" }]),
      }),
    )) as ValidationError;
    const csvError = (await errorOf(
      store.pushDatasetRows({
        token: secret,
        datasetId: dataset.id,
        format: "csv",
        mode: "replace",
        body: "month,region,revenue,orders\n2025-05-01,North,10,1\n2025-13-01,North,10,1\n",
      }),
    )) as ValidationError;

    expect(jsonError.problems).toEqual([
      expect.objectContaining({ row: 2, column: "revenue", code: "invalid_cell" }),
    ]);
    expect(csvError.problems).toEqual([
      expect.objectContaining({ row: 2, column: "month", code: "not_a_date" }),
    ]);
    const after = await store.getDataset(dataset.id);
    expect(after?.rowCount).toBe(3);
    expect(after?.rows).toHaveLength(3);
    expect(after?.version).toBe(1);
  });

  it("refuses a push of more rows than one push carries, JSON or CSV, and writes nothing", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });
    const dataset = await store.createDataset(salesInput(), editor);
    const { secret } = await store.createDatasetToken(
      { datasetId: dataset.id, name: "Pusher", scope: "append" },
      editor,
    );
    const count = pushLimits.maxRows + 1;

    const json = await refusalOf(
      store.pushDatasetRows({
        token: secret,
        datasetId: dataset.id,
        format: "json",
        body: JSON.stringify(Array.from({ length: count }, () => row)),
      }),
    );
    const csv = (await errorOf(
      store.pushDatasetRows({
        token: secret,
        datasetId: dataset.id,
        format: "csv",
        body: `month,region,revenue,orders\n${"2025-05-01,North,10,1\n".repeat(count)}`,
      }),
    )) as ValidationError;

    expect(json.reason).toBe("too_many_rows");
    expect(csv.problems).toEqual([expect.objectContaining({ code: "too_many_rows", row: count })]);
    expect(csv.problems[0]?.message).toContain("one push adds at most 10,000 rows");
    expect((await store.getDataset(dataset.id))?.rowCount).toBe(3);
  });

  it("answers a retried Idempotency-Key without writing, and refuses the key for other content", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });
    const dataset = await store.createDataset(salesInput(), editor);
    const { secret } = await store.createDatasetToken(
      { datasetId: dataset.id, name: "Pusher", scope: "append" },
      editor,
    );
    const push = (body: string) =>
      store.pushDatasetRows({
        token: secret,
        datasetId: dataset.id,
        format: "json",
        body,
        idempotencyKey: "batch-2026-06-01",
      });

    const first = await push(JSON.stringify([row]));
    const retry = await push(JSON.stringify([row]));
    const other = await refusalOf(push(JSON.stringify([{ ...row, orders: 4 }])));

    expect(first).toMatchObject({ status: 201, replayed: false });
    expect(retry).toEqual({ ...first, replayed: true });
    expect(other.reason).toBe("idempotency_mismatch");
    expect((await store.getDataset(dataset.id))?.rowCount).toBe(4);
  });

  it("lets two requests with one key race and still writes once", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });
    const dataset = await store.createDataset(salesInput(), editor);
    const { secret } = await store.createDatasetToken(
      { datasetId: dataset.id, name: "Pusher", scope: "append" },
      editor,
    );
    const push = () =>
      store.pushDatasetRows({
        token: secret,
        datasetId: dataset.id,
        format: "json",
        body: JSON.stringify([row]),
        idempotencyKey: "same",
      });

    const results = await Promise.all([push(), push(), push()]);

    expect(results.filter((result) => !result.replayed)).toHaveLength(1);
    expect(new Set(results.map((result) => result.body.version))).toEqual(new Set([2]));
    expect((await store.getDataset(dataset.id))?.rowCount).toBe(4);
  });

  it("counts the rate limit in the database, across two stores on one database", async () => {
    const time = clock();
    const database = await createTestDatabase(dialect);
    const first = await openStore({ ...database.options, seedDemo: false, now: time.now });
    database.openStores.push(first);
    const second = await openStore({ ...database.options, seedDemo: false, now: time.now });
    database.openStores.push(second);
    const dataset = await first.createDataset(salesInput(), editor);
    const { secret } = await first.createDatasetToken(
      { datasetId: dataset.id, name: "Busy", scope: "append" },
      editor,
    );
    const push = (store: typeof first) =>
      store.pushDatasetRows({
        token: secret,
        datasetId: dataset.id,
        format: "json",
        body: JSON.stringify([row]),
      });

    for (let index = 0; index < pushLimits.requestsPerWindow; index++) {
      await push(index % 2 === 0 ? first : second);
    }
    const limited = await refusalOf(push(second));
    time.advance(pushLimits.windowMs);
    const later = await push(first);

    expect(limited.reason).toBe("rate_limited");
    expect(limited.retryAfterSeconds).toBe(60);
    expect(later.status).toBe(201);
    expect((await second.getDataset(dataset.id))?.rowCount).toBe(
      3 + pushLimits.requestsPerWindow + 1,
    );
  });
});

const seed = Number(process.env.SEED_PROPERTY_SEED ?? Date.now() % 2_147_483_647);
console.log(`dataset-push seed: ${seed} (rerun with SEED_PROPERTY_SEED=${seed})`);

/** `inner` inside `levels` arrays and objects (mixed by `kinds`), as text: up to 100,000 deep. */
function nestedText(levels: number, kinds: readonly boolean[], inner: string): string {
  const openers: string[] = [];
  const closers: string[] = [];
  for (let level = 0; level < levels; level++) {
    const isArray = kinds[level % kinds.length];
    openers.push(isArray ? "[" : '{"k":');
    closers.push(isArray ? "]" : "}");
  }
  return `${openers.join("")}${inner}${closers.reverse().join("")}`;
}

const levels = fc.oneof(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 100_000 }));
const kinds = fc.array(fc.boolean(), { minLength: 1, maxLength: 8 });
const cellOf = (value: string) => `{"month":"2025-05-01","region":"East","revenue":${value}}`;

/** Push bodies that are deep or wide where rows are expected, wrapped in either JSON form. */
const hostileBody = fc
  .tuple(
    fc.oneof(
      // A cell holding deep nesting.
      fc.tuple(levels, kinds).map(([depth, mix]) => `[${cellOf(nestedText(depth, mix, "1"))}]`),
      // The rows themselves nested.
      fc.tuple(levels, kinds).map(([depth, mix]) => nestedText(depth, mix, `[${cellOf("1")}]`)),
      // A row with many unknown keys, some of them long.
      fc
        .tuple(fc.integer({ min: 1, max: 200_000 }), fc.integer({ min: 1, max: 2_000 }))
        .map(([keys, length]) => {
          const prefix = "k".repeat(length);
          const extra = Array.from({ length: keys }, (_, key) => `"${prefix}${key}":${key}`);
          return `[{"month":"2025-05-01",${extra.join(",")}}]`;
        }),
      // Many rows with an unknown column, often more than one push carries.
      fc
        .integer({ min: 1, max: 600_000 })
        .map((rows) => `[${Array.from({ length: rows }, () => '{"nope":1}').join(",")}]`),
      // One long text cell.
      fc
        .integer({ min: 1, max: 9_000_000 })
        .map((length) => `[${cellOf(`"${"x".repeat(length)}"`)}]`),
    ),
    fc.boolean(),
  )
  .map(([rows, wrapped]) => (wrapped ? `{"mode":"append","rows":${rows}}` : rows));

describe.each(engines)("push API on %s, deep and wide JSON", (dialect) => {
  it("refuses with a push refusal or row problems, never another error, and writes nothing", async () => {
    const time = clock();
    const database = await createTestDatabase(dialect);
    const store = await openStore({ ...database.options, seedDemo: false, now: time.now });
    database.openStores.push(store);
    const dataset = await store.createDataset(salesInput(), editor);
    const { secret } = await store.createDatasetToken(
      { datasetId: dataset.id, name: "Hostile", scope: "append" },
      editor,
    );

    await fc.assert(
      fc.asyncProperty(hostileBody, async (body) => {
        // A fresh request budget for each run: the rate limit is not what is tested here.
        time.advance(pushLimits.windowMs);
        const error = await errorOf(
          store.pushDatasetRows({ token: secret, datasetId: dataset.id, format: "json", body }),
        );
        const refusal = pushRefusalOf(error);
        const invalid = storeErrorOf(error);
        if (refusal) {
          expect([
            "bad_request",
            "too_deep",
            "too_many_values",
            "too_many_rows",
            "too_large",
          ]).toContain(refusal.reason);
          expect(refusal.message.length).toBeGreaterThan(0);
          expect(refusal.message.length).toBeLessThan(200);
        } else {
          expect(invalid?.kind).toBe("invalid");
          const problems = (error as ValidationError).problems;
          expect(problems.length).toBeGreaterThan(0);
          expect(problems.length).toBeLessThanOrEqual(60);
          for (const problem of problems) expect(problem.message.length).toBeLessThan(300);
        }
        const after = await store.getDataset(dataset.id);
        expect(after?.rowCount).toBe(3);
        expect(after?.version).toBe(1);
      }),
      { seed, numRuns: 40 },
    );
  }, 300_000);
});
