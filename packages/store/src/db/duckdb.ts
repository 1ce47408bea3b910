import type {
  DuckDBConnection,
  DuckDBInstance,
  DuckDBResult,
  DuckDBType,
  DuckDBValue,
  DuckDBValueConverter,
} from "@duckdb/node-api";
import type { DatasetColumnType } from "@seed/model";
import {
  type CompiledQuery,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type DatabaseMetadata,
  type Dialect,
  type DialectAdapter,
  type Driver,
  Kysely,
  PostgresQueryCompiler,
  type QueryCompiler,
  type QueryResult,
  type SchemaMetadata,
  sql,
  type TableMetadata,
} from "kysely";
import { DuckDbAdapter } from "./duckdb-adapter.js";

// A Kysely dialect for DuckDB on @duckdb/node-api: DuckDB speaks PostgreSQL's SQL closely enough
// for Kysely's PostgreSQL query compiler ($1 parameters, double-quoted identifiers), with its own
// adapter (no advisory locks), introspector (information_schema) and driver. Results come back as
// plain JS: integers as numbers (as text past 2^53), decimals as numbers, dates as yyyy-mm-dd,
// timestamps as Dates. The native library is loaded only when a database is opened.

type NodeApi = typeof import("@duckdb/node-api");

export interface DuckDbOptions {
  /** Worker threads; default 2 (a small machine). */
  threads?: number;
  /** DuckDB's memory_limit, e.g. "1GB"; default "1GB". */
  memoryLimit?: string;
  /** Opened read-only: nothing is ever written to the file (its log is replayed in memory). */
  readOnly?: boolean;
}

/** A plain JS value for each DuckDB value: what the rest of the store reads from any engine. */
export function converterOf(api: NodeApi): DuckDBValueConverter<unknown> {
  const { DuckDBTypeId, JSDuckDBValueConverter } = api;
  const integer = (value: DuckDBValue) => {
    const big = value as bigint;
    return big >= BigInt(Number.MIN_SAFE_INTEGER) && big <= BigInt(Number.MAX_SAFE_INTEGER)
      ? Number(big)
      : big.toString();
  };
  const convert: DuckDBValueConverter<unknown> = (value, type: DuckDBType, converter) => {
    if (value === null) return null;
    switch (type.typeId) {
      case DuckDBTypeId.BIGINT:
      case DuckDBTypeId.UBIGINT:
      case DuckDBTypeId.HUGEINT:
      case DuckDBTypeId.UHUGEINT:
        return integer(value);
      case DuckDBTypeId.DATE:
        // DuckDBDateValue prints as yyyy-mm-dd (infinity and BC dates as DuckDB spells them).
        return String(value);
      default:
        // Nested values (lists, structs) come back through this converter.
        return JSDuckDBValueConverter(value, type, converter as never);
    }
  };
  return convert;
}

/** A bound parameter as DuckDB takes it: Dates as ISO instants, everything else as is. */
function parameterOf(value: unknown): DuckDBValue {
  if (value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  return value as DuckDBValue;
}

class DuckDbConnection implements DatabaseConnection {
  constructor(
    readonly connection: DuckDBConnection,
    private readonly convert: DuckDBValueConverter<unknown>,
  ) {}

  private async run(compiledQuery: CompiledQuery): Promise<DuckDBResult> {
    return this.connection.run(compiledQuery.sql, compiledQuery.parameters.map(parameterOf));
  }

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const reader = await this.connection.runAndReadAll(
      compiledQuery.sql,
      compiledQuery.parameters.map(parameterOf),
    );
    const rows = reader.convertRowObjects(this.convert) as R[];
    const kind = compiledQuery.query.kind;
    const writes =
      kind === "InsertQueryNode" || kind === "UpdateQueryNode" || kind === "DeleteQueryNode";
    // A write without RETURNING answers one row, {Count: n}.
    if (writes && rows.length === 1 && reader.columnNames().join() === "Count") {
      return { rows: [], numAffectedRows: BigInt(Number((rows[0] as { Count: unknown }).Count)) };
    }
    return { rows };
  }

  async *streamQuery<R>(
    compiledQuery: CompiledQuery,
    chunkSize = 2048,
  ): AsyncIterableIterator<QueryResult<R>> {
    const result = await this.connection.stream(
      compiledQuery.sql,
      compiledQuery.parameters.map(parameterOf),
    );
    let rows: R[] = [];
    for await (const chunk of result.yieldConvertedRowObjects(this.convert)) {
      rows.push(...(chunk as R[]));
      if (rows.length >= chunkSize) {
        yield { rows };
        rows = [];
      }
    }
    if (rows.length > 0) yield { rows };
  }

  /** Runs a statement whose result nobody reads (transaction control, settings). */
  async exec(text: string): Promise<void> {
    await this.run({ sql: text, parameters: [] } as unknown as CompiledQuery);
  }
}

class DuckDbDriver implements Driver {
  private readonly idle: DuckDbConnection[] = [];
  private readonly all: DuckDbConnection[] = [];

  constructor(
    private readonly instance: DuckDBInstance,
    private readonly convert: DuckDBValueConverter<unknown>,
    private readonly setZone: boolean,
    private readonly onConnection?: (connection: DuckDBConnection) => void,
  ) {}

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    const ready = this.idle.pop();
    if (ready) return ready;
    const connection = new DuckDbConnection(await this.instance.connect(), this.convert);
    // Casts of TIMESTAMPTZ to text and date parts follow the session zone: keep it UTC, zones are
    // always named in the SQL (dialect.ts). Needs ICU, which node-api builds link statically.
    if (this.setZone) await connection.exec("set TimeZone = 'UTC'");
    this.onConnection?.(connection.connection);
    this.all.push(connection);
    return connection;
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    // DuckDB's transactions are snapshot isolated; there are no levels to choose.
    await (connection as DuckDbConnection).exec("begin transaction");
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as DuckDbConnection).exec("commit");
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as DuckDbConnection).exec("rollback");
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    this.idle.push(connection as DuckDbConnection);
  }

  async destroy(): Promise<void> {
    for (const connection of this.all) connection.connection.closeSync();
    this.all.length = 0;
    this.idle.length = 0;
    this.instance.closeSync();
  }
}

// biome-ignore lint/suspicious/noExplicitAny: introspection reads the catalog, outside any schema type.
type AnyKysely = Kysely<any>;

class DuckDbIntrospector implements DatabaseIntrospector {
  constructor(private readonly db: AnyKysely) {}

  async getSchemas(): Promise<SchemaMetadata[]> {
    const result = await sql<{
      name: string;
    }>`select schema_name as name from information_schema.schemata where catalog_name = current_database()`.execute(
      this.db,
    );
    return result.rows.map((row) => ({ name: row.name }));
  }

  async getTables(): Promise<TableMetadata[]> {
    const result = await sql<{
      schema: string;
      table: string;
      type: string;
      column: string;
      data_type: string;
      nullable: string;
      default_value: string | null;
    }>`select t.table_schema as schema, t.table_name as "table", t.table_type as type, c.column_name as "column", c.data_type, c.is_nullable as nullable, c.column_default as default_value
      from information_schema.tables t join information_schema.columns c
        on c.table_catalog = t.table_catalog and c.table_schema = t.table_schema and c.table_name = t.table_name
      where t.table_catalog = current_database() and t.table_schema not in ('information_schema', 'pg_catalog')
      order by t.table_schema, t.table_name, c.ordinal_position`.execute(this.db);
    const tables = new Map<
      string,
      TableMetadata & { columns: TableMetadata["columns"][number][] }
    >();
    for (const row of result.rows) {
      const key = `${row.schema}.${row.table}`;
      let table = tables.get(key);
      if (!table) {
        table = { name: row.table, schema: row.schema, isView: row.type === "VIEW", columns: [] };
        tables.set(key, table);
      }
      table.columns.push({
        name: row.column,
        dataType: row.data_type,
        isNullable: row.nullable === "YES",
        isAutoIncrementing: (row.default_value ?? "").startsWith("nextval("),
        hasDefaultValue: row.default_value !== null,
      });
    }
    return [...tables.values()];
  }

  async getMetadata(): Promise<DatabaseMetadata> {
    return { tables: await this.getTables() };
  }
}

/** Kysely's Dialect for one open DuckDB instance. */
export class DuckDbDialect implements Dialect {
  constructor(
    private readonly instance: DuckDBInstance,
    private readonly convert: DuckDBValueConverter<unknown>,
    /** False for an instance whose zone is set globally and whose settings are locked. */
    private readonly setZone = true,
    /** Told each connection the driver opens (so a time limit can interrupt them). */
    private readonly onConnection?: (connection: DuckDBConnection) => void,
  ) {}

  createDriver(): Driver {
    return new DuckDbDriver(this.instance, this.convert, this.setZone, this.onConnection);
  }

  createQueryCompiler(): QueryCompiler {
    return new PostgresQueryCompiler();
  }

  createAdapter(): DialectAdapter {
    return new DuckDbAdapter();
  }

  createIntrospector(db: AnyKysely): DatabaseIntrospector {
    return new DuckDbIntrospector(db);
  }
}

let loadedApi: NodeApi | null = null;

/** @duckdb/node-api, loaded on first use (the native library loads with it). */
export async function duckDbApi(): Promise<NodeApi> {
  loadedApi ??= await import("@duckdb/node-api");
  return loadedApi;
}

/**
 * The DuckDB connection behind a Kysely executor: a transaction's own connection (so an appender
 * on it writes inside that transaction), or a pool connection for a plain executor.
 */
export async function duckDbConnectionOf(executor: AnyKysely): Promise<DuckDBConnection> {
  return executor.getExecutor().provideConnection(async (connection) => {
    if (!(connection instanceof DuckDbConnection)) {
      throw new Error("Not a DuckDB executor.");
    }
    return connection.connection;
  });
}

/**
 * Opens a DuckDB database (a file, or ":memory:") as a Kysely executor. `close` ends its
 * connections and the instance.
 */
export async function openDuckDbKysely(
  path: string,
  options: DuckDbOptions = {},
): Promise<{ db: AnyKysely; close: () => Promise<void> }> {
  const api = await duckDbApi();
  const instance = await api.DuckDBInstance.create(path, {
    threads: String(options.threads ?? 2),
    memory_limit: options.memoryLimit ?? "1GB",
    ...(options.readOnly ? { access_mode: "READ_ONLY" } : {}),
  });
  const db = new Kysely({ dialect: new DuckDbDialect(instance, converterOf(api)) });
  return { db, close: () => db.destroy() };
}

/**
 * What a DuckDB value type is among the kinds the store reads (numbers, text, true/false, days,
 * instants), with what the reader must take care of: integers (which may pass 2^53) and float32
 * (whose shortest text is its own). Lists, structs, maps, blobs and intervals are text.
 */
export function valueKindOf(
  api: NodeApi,
  type: DuckDBType,
): { kind: DatasetColumnType; integer: boolean; float32: boolean; plainText: boolean } {
  const id = api.DuckDBTypeId;
  const of = (
    kind: DatasetColumnType,
    extra: Partial<{ integer: boolean; float32: boolean; plainText: boolean }> = {},
  ) => ({
    kind,
    integer: false,
    float32: false,
    plainText: false,
    ...extra,
  });
  switch (type.typeId) {
    case id.TINYINT:
    case id.SMALLINT:
    case id.INTEGER:
    case id.BIGINT:
    case id.HUGEINT:
    case id.UTINYINT:
    case id.USMALLINT:
    case id.UINTEGER:
    case id.UBIGINT:
    case id.UHUGEINT:
      return of("number", { integer: true });
    case id.FLOAT:
      return of("number", { float32: true });
    case id.DOUBLE:
    case id.DECIMAL:
      return of("number");
    case id.BOOLEAN:
      return of("boolean");
    case id.DATE:
      return of("date");
    case id.TIMESTAMP:
    case id.TIMESTAMP_TZ:
    case id.TIMESTAMP_S:
    case id.TIMESTAMP_MS:
    case id.TIMESTAMP_NS:
      return of("timestamp");
    case id.VARCHAR:
      return of("string", { plainText: true });
    default:
      return of("string");
  }
}
