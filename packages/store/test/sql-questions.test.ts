import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ValidationError } from "@seed/model";
import fc from "fast-check";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Store } from "../src/index.js";
import { storeInternals } from "../src/raw-handles.js";
import { admin, editor, viewer } from "./actors.js";
import {
  engines,
  errorOf,
  openSuiteStore,
  openTestStore,
  salesInput,
  type TestEngine,
  textStream,
} from "./helpers.js";

// SQL questions: right answers over the datasets on every engine, and no way out of the sandbox.
// Each known escape is its own test; a property then wraps the escapes in comments, case,
// whitespace and statement separators. The oracle is the same for all: the attempt is refused or
// answers without any secret, and afterwards the app's tables, the dataset and the file system
// are as they were.

const seed = Number(process.env.FC_SEED ?? Date.now() % 2_147_483_647);
console.log(`sql questions property seed: ${seed} (set FC_SEED to replay)`);

const secret = `canary-${crypto.randomUUID()}`;
const folder = mkdtempSync(path.join(tmpdir(), "seed-sql-escape-"));
const secretFile = path.join(folder, "secret.csv");
const outFile = path.join(folder, "out.csv");
writeFileSync(secretFile, `secret\n${secret}\n`);
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Attempts every engine must refuse (or answer without reaching anything). */
const escapes: Record<string, string> = {
  "an app table": "select * from store_meta",
  "an app table, schema-qualified": "select * from main.store_meta",
  "an app table of PostgreSQL's public schema": "select * from public.store_meta",
  "the audit log": "select * from audit_events",
  "the datasets' definitions": "select * from datasets",
  "a file by read_csv": `select * from read_csv('${secretFile}')`,
  "a file by read_text": `select * from read_text('${secretFile}')`,
  "a file by a replacement scan": `select * from '${secretFile}'`,
  "a file by glob": `select * from glob('${folder}/*')`,
  "a file by sniff_csv": `select * from sniff_csv('${secretFile}')`,
  "a file by pg_read_file": `select pg_read_file('${secretFile}')`,
  "a file by pg_read_binary_file": `select pg_read_binary_file('${secretFile}')`,
  "a folder by pg_ls_dir": "select pg_ls_dir('.')",
  "a file by lo_import": `select lo_import('${secretFile}')`,
  "a large object written": "select lo_from_bytea(0, 'x'::bytea)",
  "a file written by COPY": `copy (select 1) to '${outFile}'`,
  "a file written by COPY in a select": `select 1; copy (select 1) to '${outFile}'`,
  "a program by COPY": `copy sales from program 'touch ${outFile}'`,
  "EXPORT DATABASE": `export database '${folder}/export'`,
  ATTACH: `attach '${folder}/other.db' as other`,
  "ATTACH the network": "attach 'http://127.0.0.1:9/x.db' as other",
  "the network by read_csv": "select * from read_csv('http://127.0.0.1:9/x.csv')",
  "the network by dblink": "select * from dblink('host=127.0.0.1', 'select 1') as t(x int)",
  "an extension installed": "install httpfs",
  "an extension loaded": "load httpfs",
  "an extension created": "create extension dblink",
  "a SQLite file by sqlite_scan": `select * from sqlite_scan('${folder}/x.db', 'store_meta')`,
  "the environment by getenv": "select getenv('HOME')",
  "a setting changed by SET": "set enable_external_access = true",
  "a setting changed by RESET": "reset all",
  "a setting changed by PRAGMA": "pragma enable_external_access",
  "the role changed by set_config": "select set_config('role', 'postgres', false)",
  "the session authorization changed": "set session authorization postgres",
  "read-write by set_config": "select set_config('transaction_read_only', 'off', false)",
  "an insert": "insert into sales values ('2025-04-01', 'East', 1, 1)",
  "an update": "update sales set revenue = 0",
  "a delete": "delete from sales",
  "a drop": "drop table sales",
  "a table created": "create table stolen as select * from sales",
  "a temporary table created": "create temp table stolen as select 1 as x",
  "a view created": "create view stolen as select 1 as x",
  "a macro created": "create macro stolen() as 1",
  "two statements": "select 1; delete from sales",
  "two statements after a comment": "select 1 /* ; */ ; drop table sales",
  "a statement after a line comment": "select 1 -- harmless\n; delete from sales",
  "a wrapper broken out of": "select 1) as q; delete from sales; select * from (select 1",
  "a union into the app tables": "select 1 as x) as q union all select count(*) from store_meta --",
  "a transaction ended": "commit; delete from sales",
  CALL: "call checkpoint()",
  "a checkpoint": "checkpoint",
  VACUUM: "vacuum",
  "a prepared statement": "prepare p as delete from sales",
  "a sequence advanced": "select nextval('audit_events_seq')",
  "a secret created": "create secret s (type s3, key_id 'x', secret 'y')",
  "the settings' data directory": "select current_setting('data_directory')",
  "another dataset's snapshot": "select * from read_parquet('/tmp/*.parquet')",
};

async function contents(store: Store) {
  const { db } = storeInternals.get(store) ?? {};
  if (!db) throw new Error("no db");
  const meta = await db.selectFrom("store_meta").selectAll().orderBy("key").execute();
  const datasets = await db.selectFrom("datasets").select(["id", "version"]).execute();
  return { meta, datasets };
}

async function salesRows(store: Store) {
  const answer = await store.runSqlQuestion(admin, {
    sql: "select month, region, revenue, orders from sales order by month",
  });
  return answer.rows;
}

describe.each(engines)("SQL questions on %s", (engine: TestEngine) => {
  let store: Store;
  let close: () => Promise<void>;
  afterAll(() => close());
  beforeAll(async () => {
    ({ store, close } = await openSuiteStore(engine, { seedDemo: false }));
    await store.createDataset(salesInput(), editor);
    const { db } = storeInternals.get(store) ?? {};
    if (!db) throw new Error("no db");
    await db.insertInto("store_meta").values({ key: "canary", value: secret }).execute();
  });

  it("answers over the datasets by name, typed, with calculated fields", async () => {
    const created = await store.createDataset(salesInput("Store sales 2025!"), editor);
    await store.updateDataset(
      created.id,
      created.version,
      { calculatedFields: [{ name: "per order", expression: "[revenue] / [orders]" }] },
      editor,
    );
    const answer = await store.runSqlQuestion(editor, {
      sql: `select region, sum(revenue) as revenue, count(*) as n, min(month) as first,
        avg("per order") as per_order
        from store_sales_2025 group by region order by region;`,
    });
    expect(answer.columns).toEqual([
      { name: "region", type: "string" },
      { name: "revenue", type: "number" },
      { name: "n", type: "number" },
      { name: "first", type: "date" },
      { name: "per_order", type: "number" },
    ]);
    expect(answer.rows).toEqual([
      ["North", 220, 2, "2025-01-01", 24.5],
      ["South", 150, 1, "2025-02-01", 25],
    ]);
    expect(answer.truncated).toBe(false);
  });

  it("sees a dataset's newest rows, and caps the rows it returns", async () => {
    const created = await store.createDataset(salesInput("Capped"), editor);
    const before = await store.runSqlQuestion(editor, { sql: "select count(*) as n from capped" });
    expect(before.rows).toEqual([[3]]);
    await store.importIntoDataset(
      {
        datasetId: created.id,
        expectedVersion: created.version,
        mode: "append",
        source: textStream("month,region,revenue,orders\n2025-04-01,East,90,3\n"),
      },
      editor,
    );
    const after = await store.runSqlQuestion(editor, { sql: "select count(*) as n from capped" });
    expect(after.rows).toEqual([[4]]);
    const capped = await store.runSqlQuestion(
      editor,
      { sql: "select * from capped" },
      { rowCap: 2 },
    );
    expect(capped.rows).toHaveLength(2);
    expect(capped.truncated).toBe(true);
  });

  it("says what is wrong with a question, on the sql field", async () => {
    const error = await errorOf(store.runSqlQuestion(editor, { sql: "select nope from sales" }));
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).fieldErrors.sql?.[0]).toMatch(/nope/);
    const empty = await errorOf(store.runSqlQuestion(editor, { sql: "  " }));
    expect((empty as ValidationError).fieldErrors.sql).toEqual(["Write one SELECT statement."]);
  });

  it("tells a write apart from a mistake, on the embedded engine by the parser's word", async () => {
    const error = await errorOf(store.runSqlQuestion(editor, { sql: "delete from sales" }));
    expect(error).toBeInstanceOf(ValidationError);
    const code = (error as ValidationError).problems[0]?.code;
    // PostgreSQL has no parse-only call: the wrapper makes a DELETE a syntax error there.
    expect(code).toBe(engine === "postgres" ? "sql" : "read_only");
  });

  it("binds {{from}} and {{to}} as days, the widest days when not given", async () => {
    const question = "select count(*) as n from sales where month between {{from}} and {{ to }}";
    const all = await store.runSqlQuestion(editor, { sql: question });
    expect(all.rows).toEqual([[3]]);
    const some = await store.runSqlQuestion(editor, {
      sql: question,
      parameters: { from: "2025-02-01", to: "2025-03-31" },
    });
    expect(some.rows).toEqual([[2]]);
    const unknown = await errorOf(store.runSqlQuestion(editor, { sql: "select {{region}}" }));
    expect((unknown as ValidationError).problems[0]).toMatchObject({
      field: "sql",
      code: "parameter",
    });
  });

  it("binds any text given for a day only when it is a real day (property)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string({ maxLength: 12 }),
          fc.constantFrom(
            "2025-02-30",
            "2024-02-29",
            "0001-01-01",
            "9999-12-31",
            "1'; drop",
            "2025-1-1",
          ),
        ),
        async (from) => {
          const run = store.runSqlQuestion(editor, {
            sql: "select count(*) as n from sales where month >= {{from}}",
            parameters: { from },
          });
          const real =
            /^\d{4}-\d{2}-\d{2}$/.test(from) &&
            new Date(`${from}T00:00:00Z`).toISOString().slice(0, 10) === from;
          if (from === "" || real) {
            const answer = await run;
            expect(answer.rows[0]?.[0]).toBe(
              salesInput().rows.filter((row) => from === "" || row.month >= from).length,
            );
          } else {
            const error = await errorOf(run);
            expect((error as ValidationError).problems[0]?.code, from).toBe("parameter");
          }
        },
      ),
      { seed, numRuns: 25 },
    );
  });

  it("stops a question at its time limit", async () => {
    const error = await errorOf(
      store.runSqlQuestion(
        editor,
        {
          sql:
            engine === "postgres"
              ? "select count(*) from generate_series(1, 1000000000)"
              : "select count(*) from range(100000000000)",
        },
        { timeoutMs: 300 },
      ),
    );
    expect((error as ValidationError).problems[0]?.code).toBe("timeout");
  });

  it("audits every run, refused ones too, and refuses viewers", async () => {
    await store.runSqlQuestion(editor, { sql: "select 42 as answer" });
    await errorOf(store.runSqlQuestion(editor, { sql: "delete from sales" }));
    const events = await store.listAuditEvents({ action: "question.run", limit: 200 });
    const mine = events.events.filter((event) => event.actor.id === editor.id);
    expect(mine.find((event) => event.detail.sql === "select 42 as answer")?.detail).toMatchObject({
      ok: true,
      rows: 1,
    });
    expect(mine.find((event) => event.detail.sql === "delete from sales")?.detail).toMatchObject({
      ok: false,
    });
    const refused = await errorOf(store.runSqlQuestion(viewer, { sql: "select 1" }));
    expect(refused).toMatchObject({ kind: "forbidden", permission: "sql.run" });
  });

  it("can be turned off by an admin, and on again", async () => {
    await store.setSqlQuestionsEnabled(admin, { enabled: false });
    try {
      const status = await store.sqlQuestionsStatus(editor);
      expect(status).toMatchObject({ enabled: false, available: false });
      const error = await errorOf(store.runSqlQuestion(editor, { sql: "select 1" }));
      expect((error as ValidationError).formError).toBe("An admin has turned SQL questions off.");
      expect(await errorOf(store.setSqlQuestionsEnabled(editor, { enabled: true }))).toMatchObject({
        kind: "forbidden",
      });
    } finally {
      await store.setSqlQuestionsEnabled(admin, { enabled: true });
    }
    const status = await store.sqlQuestionsStatus(editor);
    expect(status.available).toBe(true);
    expect(status.tables.find((table) => table.name === "sales")?.columns).toEqual([
      { name: "month", type: "date" },
      { name: "region", type: "string" },
      { name: "revenue", type: "number" },
      { name: "orders", type: "number" },
    ]);
  });

  /** The oracle: refused, or answered without a secret; nothing changed anywhere. */
  async function attempt(text: string): Promise<void> {
    const before = await contents(store);
    const rowsBefore = await salesRows(store);
    let answer: unknown = null;
    try {
      answer = await store.runSqlQuestion(editor, { sql: text });
    } catch (error) {
      expect(error, text).toBeInstanceOf(ValidationError);
    }
    expect(JSON.stringify(answer), text).not.toContain(secret);
    expect(JSON.stringify(answer), text).not.toContain("canary");
    expect(await contents(store), text).toEqual(before);
    expect(await salesRows(store), text).toEqual(rowsBefore);
    expect(existsSync(outFile), text).toBe(false);
    expect(readFileSync(secretFile, "utf8")).toContain(secret);
  }

  for (const [name, text] of Object.entries(escapes)) {
    it(`cannot reach ${name}`, async () => {
      await attempt(text);
    });
  }

  it("cannot reach any of them dressed up in comments, case, spacing and separators (property)", async () => {
    const dress = fc.record({
      text: fc.constantFrom(...Object.values(escapes)),
      upper: fc.boolean(),
      before: fc.constantFrom("", " ", "\n", "/* x */", "-- x\n", "select 1;", "(", "\t;"),
      after: fc.constantFrom("", ";", " ;;", "\n--", "/*", ")", ";select 1"),
    });
    await fc.assert(
      fc.asyncProperty(dress, async ({ text, upper, before, after }) => {
        await attempt(`${before}${upper ? text.toUpperCase() : text}${after}`);
      }),
      { seed, numRuns: 40, verbose: true },
    );
  });

  it("cannot read the app's tables by any spelling of their names (property)", async () => {
    const { db } = storeInternals.get(store) ?? {};
    if (!db) throw new Error("no db");
    const tables = (await db.introspection.getTables()).map((table) => table.name);
    expect(tables).toContain("store_meta");
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...tables),
        fc.constantFrom("", "main.", "public.", "memory.", "main.main."),
        fc.boolean(),
        async (table, schema, quoted) => {
          const name = quoted ? `"${table}"` : table;
          await attempt(`select * from ${schema}${name}`);
        },
      ),
      { seed, numRuns: 30 },
    );
  });
});

describe("SQL questions on PostgreSQL's reader role", () => {
  it("grants the reader SELECT on dataset tables only, and refuses a reader that may do more", async () => {
    const store = await openTestStore("postgres", { seedDemo: false });
    await store.createDataset(salesInput(), editor);
    await store.runSqlQuestion(editor, { sql: "select count(*) from sales" });
    const { db } = storeInternals.get(store) ?? {};
    if (!db) throw new Error("no db");
    const granted = await sql<{
      table_name: string;
    }>`select table_name from information_schema.role_table_grants where grantee = 'seed_sql_reader' and table_catalog = current_database()`.execute(
      db,
    );
    expect(granted.rows.length).toBeGreaterThan(0);
    for (const row of granted.rows) expect(row.table_name).toMatch(/^ds_/);

    // The app's own (superuser) role as the reader: refused by name, before any statement runs.
    const url = new URL(String((await import("vitest")).inject("postgresUrl")));
    const powerful = await openTestStore("postgres", {
      seedDemo: false,
      sqlDatabaseUrl: url.toString(),
    });
    const error = await errorOf(powerful.runSqlQuestion(editor, { sql: "select 1" }));
    expect((error as ValidationError).fieldErrors.sql?.[0]).toMatch(/must only read.*superuser/);
  });
});
