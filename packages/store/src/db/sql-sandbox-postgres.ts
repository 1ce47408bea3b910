import type { DatasetColumnType } from "@seed/model";
import { Kysely, PostgresDialect, type RawBuilder, sql } from "kysely";
import pg from "pg";
import {
  composedQuestion,
  type SqlAnswer,
  type SqlLimits,
  type SqlParameterDays,
  type SqlRelation,
  sqlProblem,
} from "./sql-sandbox.js";

// SQL questions on PostgreSQL run on their own login role (SEED_SQL_DATABASE_URL): a role that
// owns nothing, belongs to no other role and may only SELECT the dataset tables it is granted, in
// a read-only transaction with a statement timeout. Connecting *as* that role (not SET ROLE from
// the app's) matters: set_config('role', ...) is checked against the session's user, so a session
// of the app's own role could climb back out of a SET ROLE inside a SELECT.

// biome-ignore lint/suspicious/noExplicitAny: dataset tables are made at runtime, outside the schema type.
type AnyExecutor = Kysely<any>;

/** A dataset table as a question's CTE: its relation and the select list that names its columns. */
export interface PostgresRelation {
  relation: SqlRelation;
  /** The dataset's own table (ds_<id>, a checked identifier) in the app's schema. */
  table: string;
  /** `<expression> as "<name>"` for each column, in order. */
  columns: readonly RawBuilder<unknown>[];
}

const numberTypes = new Set([20, 21, 23, 26, 700, 701, 1700]);
const typeKinds: Record<number, DatasetColumnType> = {
  16: "boolean",
  1082: "date",
  1114: "timestamp",
  1184: "timestamp",
};

function kindOf(oid: number): DatasetColumnType {
  if (numberTypes.has(oid)) return "number";
  return typeKinds[oid] ?? "string";
}

/** Values as answers carry them: numbers (text past 2^53), yyyy-mm-dd, ISO instants, text. */
function answerValue(value: unknown, kind: DatasetColumnType, oid: number): unknown {
  if (value === null || value === undefined) return null;
  if (kind === "number") {
    const number = Number(value);
    if (typeof value === "number") return value;
    return Number.isSafeInteger(number) || (oid !== 20 && Number.isFinite(number))
      ? number
      : String(value);
  }
  if (kind === "timestamp") {
    const text = String(value);
    const date = new Date(oid === 1114 ? `${text.replace(" ", "T")}Z` : text);
    return Number.isNaN(date.getTime()) ? text : date.toISOString();
  }
  if (kind === "boolean" || kind === "date") return value;
  if (typeof value === "string") return value;
  return JSON.stringify(value);
}

/** Dates, instants and big numbers stay text from the wire; answerValue reads them. */
const rawText = (value: string) => value;
const readerTypes = {
  getTypeParser(oid: number, format?: "text" | "binary") {
    if (oid === 1082 || oid === 1114 || oid === 1184 || oid === 20 || oid === 1700) return rawText;
    return pg.types.getTypeParser(oid, format);
  },
};

export class PostgresSqlReader {
  readonly #pool: pg.Pool;
  #checked: Promise<{ role: string; schema: string }> | null = null;

  constructor(
    url: string,
    private readonly app: AnyExecutor,
  ) {
    this.#pool = new pg.Pool({ connectionString: url, max: 2, types: readerTypes });
    // A reader connection the server ends (a restart, a timeout) must not crash the app.
    this.#pool.on("error", () => {});
  }

  /** The reader role, checked once: a plain login role on the app's database, nothing more. */
  #check(): Promise<{ role: string; schema: string }> {
    this.#checked ??= (async () => {
      const { rows } = await this.#pool.query<{
        role: string;
        database: string;
        powers: string[];
        memberships: number;
      }>(
        `select current_user as role, current_database() as database,
          array_remove(array[
            case when rolsuper then 'superuser' end, case when rolcreaterole then 'create roles' end,
            case when rolcreatedb then 'create databases' end, case when rolbypassrls then 'bypass row security' end,
            case when rolreplication then 'replication' end], null) as powers,
          (select count(*)::int from pg_auth_members m where m.member = r.oid) as memberships
        from pg_roles r where r.rolname = current_user`,
      );
      const reader = rows[0];
      const app = await sql<{
        role: string;
        database: string;
        schema: string;
      }>`select current_user as role, current_database() as database, current_schema() as schema`.execute(
        this.app,
      );
      const own = app.rows[0];
      if (!reader || !own) throw new Error("The SQL reader's role could not be read.");
      const problems = [
        ...reader.powers,
        ...(reader.memberships > 0 ? ["membership of other roles"] : []),
        ...(reader.role === own.role ? ["being the app's own role"] : []),
        ...(reader.database !== own.database ? [`another database (${reader.database})`] : []),
      ];
      if (problems.length > 0) {
        throw sqlProblem(
          `SQL questions are off: the role of SEED_SQL_DATABASE_URL (${reader.role}) must only read, but it has ${problems.join(", ")}. Use a plain login role (see the README).`,
          "sql_setup",
        );
      }
      return { role: reader.role, schema: own.schema };
    })();
    this.#checked.catch(() => {
      this.#checked = null;
    });
    return this.#checked;
  }

  /** Grants the reader SELECT on each dataset table a question names, where it has none yet. */
  async #grant(role: string, schema: string, tables: readonly string[]): Promise<void> {
    for (const table of tables) {
      const { rows } = await sql<{
        granted: boolean;
      }>`select has_table_privilege(${role}, ${`${schema}.${table}`}, 'SELECT') as granted`.execute(
        this.app,
      );
      if (rows[0]?.granted) continue;
      await sql`grant usage on schema ${sql.id(schema)} to ${sql.id(role)}`.execute(this.app);
      await sql`grant select on ${sql.id(schema, table)} to ${sql.id(role)}`.execute(this.app);
    }
  }

  /**
   * One run on one reader connection: the reader checked, the named tables granted, the question
   * (the datasets as CTEs, its parameters bound) handed to `use` inside a read-only transaction
   * with the time limit, always rolled back. The server's refusals become problems on `sql`.
   */
  async #session<T>(
    text: string,
    relations: readonly PostgresRelation[],
    limits: SqlLimits,
    days: SqlParameterDays,
    use: (client: pg.PoolClient, question: RawBuilder<unknown>) => Promise<T>,
  ): Promise<T> {
    const { role, schema } = await this.#check();
    await this.#grant(
      role,
      schema,
      relations.map((relation) => relation.table),
    );
    const body = text.replace(/[\s;]+$/, "");
    if (body.trim() === "") throw sqlProblem("Write one SELECT statement.", "empty");
    const question = sql`${this.#ctes(relations, schema)}select * from (\n${composedQuestion(
      body,
      days,
    )}\n) as question_body`;
    const client = await this.#pool.connect();
    let broken = false;
    try {
      await client.query("begin transaction read only");
      await client.query(
        `set local statement_timeout = ${Math.max(1, Math.floor(limits.timeoutMs))}`,
      );
      await client.query("set local search_path = pg_catalog");
      return await use(client, question);
    } catch (error) {
      throw this.#problemOf(error, limits, () => {
        broken = true;
      });
    } finally {
      await client.query("rollback").catch(() => {
        broken = true;
      });
      client.release(broken);
    }
  }

  async run(
    text: string,
    relations: readonly PostgresRelation[],
    limits: SqlLimits,
    days: SqlParameterDays = {},
  ): Promise<SqlAnswer> {
    return this.#session(text, relations, limits, days, async (client, question) => {
      // One statement with parameters goes through the extended protocol: a second statement
      // hidden in the text is refused by the server, not by us.
      const compiled =
        sql`select * from (${question}) as question limit ${limits.rowCap + 1}`.compile(this.app);
      const result = await client.query({
        text: compiled.sql,
        values: [...compiled.parameters],
        rowMode: "array",
      });
      const kinds = result.fields.map((field) => kindOf(field.dataTypeID));
      const rows = (result.rows as unknown[][]).map((row) =>
        row.map((value, index) =>
          answerValue(value, kinds[index] ?? "string", result.fields[index]?.dataTypeID ?? 25),
        ),
      );
      const truncated = rows.length > limits.rowCap;
      return {
        columns: result.fields.map((field, index) => ({
          name: field.name,
          type: kinds[index] ?? "string",
        })),
        rows: truncated ? rows.slice(0, limits.rowCap) : rows,
        truncated,
      };
    });
  }

  /**
   * Runs the engine's work (a chart's or stat's statements) over a saved question on one reader
   * connection, in one read-only transaction with the time limit; `work` gets an executor and
   * the question (with the datasets as CTEs and its parameters bound) to use as a subquery.
   */
  async withQuestion<T>(
    text: string,
    relations: readonly PostgresRelation[],
    limits: SqlLimits,
    days: SqlParameterDays,
    // biome-ignore lint/suspicious/noExplicitAny: the question's columns are known at runtime only.
    work: (executor: Kysely<any>, question: RawBuilder<unknown>) => Promise<T>,
  ): Promise<T> {
    return this.#session(text, relations, limits, days, async (client, question) => {
      // Every statement goes through the extended protocol, so none can carry a second one.
      const pool = {
        connect: async () => ({
          query: (statement: string, parameters: readonly unknown[]) =>
            client.query({
              text: statement,
              values: [...parameters],
              queryMode: "extended",
            } as never),
          release: () => {},
        }),
        end: async () => {},
      };
      const db = new Kysely({ dialect: new PostgresDialect({ pool: pool as never }) });
      try {
        return await work(db, question);
      } finally {
        await db.destroy().catch(() => undefined);
      }
    });
  }

  /** The datasets as CTEs named by their tables' names (nothing when the question names none). */
  #ctes(relations: readonly PostgresRelation[], schema: string): RawBuilder<unknown> {
    if (relations.length === 0) return sql``;
    const ctes = relations.map(
      (relation) =>
        sql`${sql.id(relation.relation.name)} as (select ${sql.join(relation.columns)} from ${sql.id(
          schema,
          relation.table,
        )})`,
    );
    return sql`with ${sql.join(ctes)} `;
  }

  /** A server's refusal as a problem with the question; anything else as it is (and the client dropped). */
  #problemOf(error: unknown, limits: SqlLimits, drop: () => void): unknown {
    const code = (error as { code?: string }).code;
    if (code === "57014") {
      return sqlProblem(
        `The question ran past its time limit of ${limits.timeoutMs / 1000} s and was stopped.`,
        "timeout",
      );
    }
    if (typeof code === "string" && code.length === 5) return sqlProblem((error as Error).message);
    drop();
    return error;
  }

  async close(): Promise<void> {
    if (this.#pool.ended) return;
    await this.#pool.end();
  }
}
