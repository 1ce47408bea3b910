import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type pg from "pg";
import PgBoss from "pg-boss";
import type { StoreDatabase } from "../db/schema.js";

// Work that must happen once, on time, and survive restarts (reports, alert checks, deliveries).
// On PostgreSQL, pg-boss: every instance works the queues, a job goes to one of them, and a job
// whose instance died is retried by another once its lease ends. On SQLite, the jobs table worked
// by this one process with the same rules. Either way a handler may see a job again after a crash,
// so handlers keep their own "done" marks (a report's sent recipients) and skip what is done.

export interface JobPolicy {
  /** Tries after the first before a job is failed for good. */
  retryLimit: number;
  /** The wait before the first retry; each further one doubles it. */
  retryDelayMs: number;
  /** How long a running job is its runner's; after that another may take it. */
  leaseMs: number;
  /** How often idle workers look for due jobs. */
  pollMs: number;
}

export const defaultJobPolicy: JobPolicy = {
  retryLimit: 5,
  retryDelayMs: 60_000,
  leaseMs: 15 * 60_000,
  pollMs: 2_000,
};

export interface JobRequest {
  queue: string;
  /** One waiting job per queue and key: enqueuing it again adds nothing. */
  key: string;
  runAt: Date;
  data: Record<string, unknown>;
}

export interface Job {
  id: string;
  queue: string;
  key: string;
  data: Record<string, unknown>;
}

export type JobHandler = (job: Job) => Promise<void>;

/** What admins see of a job: its state, how many tries it took, the last failure's reason. */
export interface JobStatus {
  state: "waiting" | "running" | "retrying" | "done" | "failed";
  tries: number;
  lastError: string | null;
}

export interface JobQueue {
  readonly kind: "embedded" | "pg-boss";
  /** True when the job was added; false when one with its key is already waiting. */
  enqueue(request: JobRequest): Promise<boolean>;
  /** Works one queue in this process, a job at a time. A throw is a failed try, retried later. */
  work(queue: string, handler: JobHandler): Promise<void>;
  /** The newest job of a key, or null when there is none. */
  status(queue: string, key: string): Promise<JobStatus | null>;
  /** Stops taking jobs and waits for the running ones (a running job past `waitMs` is retried). */
  stop(waitMs?: number): Promise<void>;
}

const queueNamePattern = /^[a-z][a-z0-9-]{0,39}$/;

function checkRequest(request: JobRequest): void {
  if (!queueNamePattern.test(request.queue)) throw new Error(`Not a queue name: ${request.queue}`);
  if (request.key.length === 0 || request.key.length > 200) {
    throw new Error("A job key has 1 to 200 characters.");
  }
  if (!Number.isFinite(request.runAt.getTime()))
    throw new Error("A job needs a valid time to run.");
}

function statusOf(state: string): JobStatus["state"] {
  switch (state) {
    case "active":
      return "running";
    case "retry":
      return "retrying";
    case "completed":
      return "done";
    case "failed":
    case "cancelled":
      return "failed";
    default:
      return "waiting";
  }
}

function errorText(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 1_000);
}

/** The embedded queue: the jobs table, worked by this process. */
export function embeddedJobQueue(
  db: Kysely<StoreDatabase>,
  now: () => Date,
  policy: JobPolicy,
): JobQueue {
  const timers = new Set<NodeJS.Timeout>();
  const running = new Set<Promise<void>>();
  let stopped = false;

  async function claim(queue: string): Promise<(Job & { attempts: number }) | null> {
    const at = now();
    const nowIso = at.toISOString();
    const leaseEnd = new Date(at.getTime() + policy.leaseMs).toISOString();
    // One statement picks and takes the job, so no two loops take the same one.
    const taken = await db
      .updateTable("jobs")
      .set((eb) => ({
        state: "active",
        attempts: eb("attempts", "+", 1),
        locked_until: leaseEnd,
      }))
      .where("id", "=", (eb) =>
        eb
          .selectFrom("jobs")
          .select("id")
          .where("queue", "=", queue)
          .where((inner) =>
            inner.or([
              inner.and([
                inner("state", "in", ["created", "retry"]),
                inner("run_at", "<=", nowIso),
              ]),
              // A runner that stopped mid-job (a crash, a kill) left it active past its lease.
              inner.and([inner("state", "=", "active"), inner("locked_until", "<=", nowIso)]),
            ]),
          )
          .orderBy("run_at")
          .limit(1),
      )
      .returning(["id", "queue", "key", "data_json", "attempts"])
      .executeTakeFirst();
    if (!taken) return null;
    if (taken.attempts > policy.retryLimit + 1) {
      await finish(
        taken.id,
        "failed",
        "Its runner stopped while running it, and no tries are left.",
      );
      return claim(queue);
    }
    return {
      id: taken.id,
      queue: taken.queue,
      key: taken.key,
      data: JSON.parse(taken.data_json) as Record<string, unknown>,
      attempts: taken.attempts,
    };
  }

  async function finish(id: string, state: "completed" | "failed", error: string | null) {
    await db
      .updateTable("jobs")
      .set({ state, finished_at: now().toISOString(), locked_until: null, last_error: error })
      .where("id", "=", id)
      .execute();
  }

  async function runOne(queue: string, handler: JobHandler): Promise<boolean> {
    const claimed = await claim(queue);
    if (!claimed) return false;
    const { attempts, ...job } = claimed;
    try {
      await handler(job);
      await finish(job.id, "completed", null);
    } catch (error) {
      if (attempts > policy.retryLimit) {
        await finish(job.id, "failed", errorText(error));
      } else {
        const wait = policy.retryDelayMs * 2 ** (attempts - 1);
        await db
          .updateTable("jobs")
          .set({
            state: "retry",
            run_at: new Date(now().getTime() + wait).toISOString(),
            locked_until: null,
            last_error: errorText(error),
          })
          .where("id", "=", job.id)
          .execute();
      }
    }
    return true;
  }

  return {
    kind: "embedded",
    async enqueue(request) {
      checkRequest(request);
      const result = await db
        .insertInto("jobs")
        .values({
          id: randomUUID(),
          queue: request.queue,
          key: request.key,
          data_json: JSON.stringify(request.data),
          state: "created",
          run_at: request.runAt.toISOString(),
          attempts: 0,
          locked_until: null,
          last_error: null,
          created_at: now().toISOString(),
          finished_at: null,
        })
        .onConflict((conflict) => conflict.doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    },
    async status(queue, key) {
      const row = await db
        .selectFrom("jobs")
        .select(["state", "attempts", "last_error"])
        .where("queue", "=", queue)
        .where("key", "=", key)
        .orderBy("created_at", "desc")
        .limit(1)
        .executeTakeFirst();
      return row
        ? { state: statusOf(row.state), tries: row.attempts, lastError: row.last_error }
        : null;
    },
    async work(queue, handler) {
      if (!queueNamePattern.test(queue)) throw new Error(`Not a queue name: ${queue}`);
      const loop = async () => {
        if (stopped) return;
        const pass = (async () => {
          try {
            while (!stopped && (await runOne(queue, handler))) {
              // Due jobs run back to back; the loop sleeps only when none is due.
            }
          } catch (error) {
            console.error(`[@seed/store] job queue ${queue}: ${errorText(error)}`);
          }
        })();
        running.add(pass);
        await pass;
        running.delete(pass);
        if (stopped) return;
        const timer = setTimeout(() => {
          timers.delete(timer);
          void loop();
        }, policy.pollMs);
        timers.add(timer);
      };
      void loop();
    },
    async stop(waitMs = 30_000) {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      let timeout: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.all(running),
        new Promise((resolve) => {
          timeout = setTimeout(resolve, waitMs);
        }),
      ]);
      clearTimeout(timeout);
    },
  };
}

/** The PostgreSQL queue: pg-boss in its own schema, on the store's pool. */
export async function pgBossJobQueue(
  pool: pg.Pool,
  policy: JobPolicy,
  runExclusive: <T>(work: () => Promise<T>) => Promise<T>,
): Promise<JobQueue> {
  const boss = new PgBoss({
    db: { executeSql: (text, values) => pool.query(text, values) },
    schema: "pgboss",
    // Timing is the app's (its own clock and schedules); pg-boss runs what is due, once.
    schedule: false,
    maintenanceIntervalSeconds: Math.max(1, Math.round(Math.min(policy.leaseMs, 60_000) / 1000)),
  });
  boss.on("error", (error) => console.error(`[@seed/store] pg-boss: ${errorText(error)}`));
  // pg-boss installs its schema at start under an advisory lock of its own, but a transaction that
  // waited on that lock still reads the catalog as it was before (CREATE SCHEMA IF NOT EXISTS then
  // fails on pg_namespace's unique index); the store's lock, taken on a connection of its own
  // before pg-boss's transaction begins, lets instances starting together install it once.
  await runExclusive(() => boss.start());
  // pg-boss makes a table per queue; instances starting together would deadlock making it, so
  // they take the store's database-wide lock, and each instance asks once per queue.
  const created = new Map<string, Promise<void>>();
  function ensureQueue(name: string): Promise<void> {
    let ready = created.get(name);
    if (!ready) {
      ready = runExclusive(async () => {
        if (await boss.getQueue(name)) return;
        await boss.createQueue(name, {
          name,
          // One job per key in each state: a waiting duplicate is refused.
          policy: "stately",
          retryLimit: policy.retryLimit,
          retryDelay: Math.max(1, Math.round(policy.retryDelayMs / 1000)),
          retryBackoff: true,
          expireInSeconds: Math.max(1, Math.round(policy.leaseMs / 1000)),
        });
      });
      ready.catch(() => created.delete(name));
      created.set(name, ready);
    }
    return ready;
  }
  return {
    kind: "pg-boss",
    async enqueue(request) {
      checkRequest(request);
      await ensureQueue(request.queue);
      const id = await boss.send(
        request.queue,
        { key: request.key, data: request.data },
        {
          singletonKey: request.key,
          startAfter: request.runAt,
        },
      );
      return id !== null;
    },
    async status(queue, key) {
      const { rows } = await pool.query<{ state: string; retry_count: number; output: unknown }>(
        "SELECT state, retry_count, output FROM pgboss.job WHERE name = $1 AND singleton_key = $2 ORDER BY created_on DESC LIMIT 1",
        [queue, key],
      );
      const row = rows[0];
      if (!row) return null;
      const state = statusOf(row.state);
      const output = row.output as { message?: unknown } | null;
      const lastError =
        state === "failed" || state === "retrying"
          ? typeof output?.message === "string"
            ? output.message
            : "failed"
          : null;
      const tries = row.retry_count + (state === "waiting" ? 0 : 1);
      return { state, tries, lastError };
    },
    async work(queue, handler) {
      await ensureQueue(queue);
      await boss.work<{ key: string; data: Record<string, unknown> }>(
        queue,
        { batchSize: 1, pollingIntervalSeconds: Math.max(0.5, policy.pollMs / 1000) },
        async ([job]) => {
          if (!job) return;
          await handler({ id: job.id, queue, key: job.data.key, data: job.data.data });
        },
      );
    },
    async stop(waitMs = 30_000) {
      await boss.stop({ graceful: true, timeout: waitMs, close: false, wait: true });
    },
  };
}
