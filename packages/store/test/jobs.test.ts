import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { type Job, openStore, type StoreDialect } from "../src/index.js";
import { createTestDatabase } from "./helpers.js";

// Jobs run once, on time, and survive their runner: on PostgreSQL through pg-boss, shared by
// instances; on SQLite through the jobs table in one process. The same tests hold both.

const child = fileURLToPath(new URL("./job-runner-child.mjs", import.meta.url));
const fast = { pollMs: 100, retryDelayMs: 1_000, leaseMs: 2_000 };

function startChild(args: object): { process: ChildProcess; lines: Record<string, string>[] } {
  const lines: Record<string, string>[] = [];
  const started = spawn(process.execPath, [child, JSON.stringify(args)], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  let buffer = "";
  started.stdout?.on("data", (chunk: Buffer) => {
    buffer += chunk.toString("utf8");
    const parts = buffer.split("\n");
    buffer = parts.pop() ?? "";
    for (const line of parts) if (line.trim()) lines.push(JSON.parse(line));
  });
  return { process: started, lines };
}

describe.each(["sqlite", "postgres"] as StoreDialect[])("jobs on %s", (dialect) => {
  async function twoInstances() {
    const database = await createTestDatabase(dialect);
    const first = await openStore({ ...database.options, seedDemo: false });
    database.openStores.push(first);
    const second = await openStore({ ...database.options, seedDemo: false });
    database.openStores.push(second);
    return { database, first, second };
  }

  it("runs a job once however often and by whom it is enqueued, with its data", async () => {
    const { first, second } = await twoInstances();
    const a = await first.openJobQueue(fast);
    const b = await second.openJobQueue(fast);
    const runAt = new Date(Date.now() - 1_000);
    const keys = Array.from(
      { length: 12 },
      (_, index) => `report-${index}@2026-11-30T08:00:00.000Z`,
    );
    const added = await Promise.all(
      keys.flatMap((key) =>
        [a, b].map((queue) => queue.enqueue({ queue: "reports", key, runAt, data: { key, n: 1 } })),
      ),
    );
    // Each key was added by exactly one of its two enqueues.
    expect(added.filter(Boolean)).toHaveLength(keys.length);
    const seen: Job[] = [];
    const handler = async (job: Job) => {
      seen.push(job);
    };
    await a.work("reports", handler);
    // On SQLite the one process works its jobs; the second instance stands for a second loop.
    await b.work("reports", handler);
    await expect.poll(() => seen.length, { timeout: 20_000 }).toBe(keys.length);
    expect(seen.map((job) => job.key).sort()).toEqual([...keys].sort());
    expect(seen.every((job) => job.data.key === job.key && job.data.n === 1)).toBe(true);
    // Each handler has returned; the queue records its job done just after, so that is awaited.
    for (const key of keys) {
      await expect
        .poll(async () => (await a.status("reports", key))?.state, { timeout: 10_000 })
        .toBe("done");
      expect(await a.status("reports", key)).toMatchObject({ state: "done", tries: 1 });
    }
    // Done: nothing runs it again.
    await expect.poll(async () => (await b.status("reports", keys[0] ?? ""))?.state).toBe("done");
    expect(seen).toHaveLength(keys.length);
  });

  it("queues opened at once by several instances on an empty database: each opens, none fails", async () => {
    const database = await createTestDatabase(dialect);
    const stores = [];
    for (let index = 0; index < 4; index += 1) {
      const store = await openStore({ ...database.options, seedDemo: false });
      database.openStores.push(store);
      stores.push(store);
    }
    // Every instance installs the queue's tables at the same moment (pg-boss's schema on PostgreSQL).
    const opened = await Promise.allSettled(stores.map((store) => store.openJobQueue(fast)));
    expect(
      opened.map((result) => (result.status === "rejected" ? String(result.reason) : "ok")),
    ).toEqual(stores.map(() => "ok"));
    const queues = opened.flatMap((result) =>
      result.status === "fulfilled" ? [result.value] : [],
    );
    const added = await Promise.all(
      queues.map((queue) =>
        queue.enqueue({ queue: "reports", key: "once", runAt: new Date(), data: {} }),
      ),
    );
    expect(added.filter(Boolean)).toHaveLength(1);
  });

  it("does not run a job before its time", async () => {
    const { first } = await twoInstances();
    const jobs = await first.openJobQueue(fast);
    const runAt = new Date(Date.now() + 1_500);
    await jobs.enqueue({ queue: "alerts", key: "later", runAt, data: {} });
    let ranAt = 0;
    await jobs.work("alerts", async () => {
      ranAt = Date.now();
    });
    expect(await jobs.status("alerts", "later")).toMatchObject({ state: "waiting" });
    await expect.poll(() => ranAt, { timeout: 15_000 }).toBeGreaterThan(0);
    // pg-boss compares with the database's clock, which may run a little apart from ours.
    expect(ranAt).toBeGreaterThanOrEqual(runAt.getTime() - 250);
  });

  it("retries a failing job after growing waits, then fails it for good with its reason", async () => {
    const { first } = await twoInstances();
    const jobs = await first.openJobQueue({ ...fast, retryLimit: 2 });
    await jobs.enqueue({ queue: "deliveries", key: "flaky", runAt: new Date(), data: {} });
    const tries: number[] = [];
    await jobs.work("deliveries", async () => {
      tries.push(Date.now());
      throw new Error(`SMTP 451: try ${tries.length} refused`);
    });
    await expect
      .poll(async () => (await jobs.status("deliveries", "flaky"))?.state, { timeout: 30_000 })
      .toBe("failed");
    expect(tries).toHaveLength(3);
    const [one = 0, two = 0, three = 0] = tries;
    expect(two - one).toBeGreaterThanOrEqual(900);
    expect(three - two).toBeGreaterThanOrEqual(1_800);
    expect(await jobs.status("deliveries", "flaky")).toEqual({
      state: "failed",
      tries: 3,
      lastError: "SMTP 451: try 3 refused",
    });
  });

  it("runs a job whose runner was killed mid-job once its lease ends, on the instance left", async () => {
    const database = await createTestDatabase(dialect);
    const store = await openStore({ ...database.options, seedDemo: false });
    database.openStores.push(store);
    const jobs = await store.openJobQueue(fast);
    const runner = startChild({
      dataDir: database.dataDir,
      databaseUrl: database.options.databaseUrl ?? null,
      queue: "reports",
    });
    try {
      await expect
        .poll(() => runner.lines.some((line) => line.working), { timeout: 20_000 })
        .toBe(true);
      await jobs.enqueue({ queue: "reports", key: "due-now", runAt: new Date(), data: {} });
      await expect
        .poll(() => runner.lines.some((line) => line.taken === "due-now"), { timeout: 20_000 })
        .toBe(true);
    } finally {
      runner.process.kill("SIGKILL");
    }
    const ran: string[] = [];
    await jobs.work("reports", async (job) => {
      ran.push(job.key);
    });
    await expect.poll(() => ran, { timeout: 30_000 }).toEqual(["due-now"]);
    // The handler has returned; the queue records the job done just after, so that is awaited.
    await expect
      .poll(async () => (await jobs.status("reports", "due-now"))?.state, { timeout: 10_000 })
      .toBe("done");
    expect(await jobs.status("reports", "due-now")).toMatchObject({ state: "done", tries: 2 });
  });

  it("runs a job that fell due while no instance was up, once, when one comes back", async () => {
    const database = await createTestDatabase(dialect);
    const before = await openStore({ ...database.options, seedDemo: false });
    const queue = await before.openJobQueue(fast);
    await queue.enqueue({
      queue: "reports",
      key: "while-down",
      runAt: new Date(Date.now() + 300),
      data: {},
    });
    await before.close();
    await expect.poll(() => Date.now() > Date.now() - 1 && Date.now()).toBeGreaterThan(0);
    const after = await openStore({ ...database.options, seedDemo: false });
    database.openStores.push(after);
    const jobs = await after.openJobQueue(fast);
    const ran: string[] = [];
    await jobs.work("reports", async (job) => {
      ran.push(job.key);
    });
    await expect.poll(() => ran, { timeout: 20_000 }).toEqual(["while-down"]);
    await expect
      .poll(async () => (await jobs.status("reports", "while-down"))?.state, { timeout: 10_000 })
      .toBe("done");
    expect(await jobs.status("reports", "while-down")).toMatchObject({ state: "done", tries: 1 });
    expect(ran).toEqual(["while-down"]);
  });
});
