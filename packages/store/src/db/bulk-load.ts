import { once } from "node:events";
import type BetterSqlite3 from "better-sqlite3";
import { sql } from "kysely";
import type pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import type { Executor } from "../context.js";
import { type DatasetTable, isSafeIdentifier } from "./dataset-table.js";
import { batchSize } from "./rows-table.js";

// The bulk path of a CSV import: rows go to the engine's fastest load inside the import's own
// transaction: prepared multi-row INSERTs reused for every batch on SQLite, COPY FROM STDIN on
// PostgreSQL. Values arrive already checked and in stored form (the dialect's `stored`).

/** An engine's bulk load, made when the store opens (it needs the driver objects). */
export interface BulkLoader {
  /** Starts loading rows into the descriptor's table inside `trx`. */
  openWriter(trx: Executor, descriptor: DatasetTable): Promise<RowWriter>;
}

export interface RowWriter {
  /** One row, values in the descriptor's column order; await it to respect backpressure. */
  write(values: unknown[]): void | Promise<void>;
  /** Writes what is buffered; the rows are in the table (uncommitted) once it resolves. */
  close(): Promise<void>;
  /** Stops the load so the transaction can roll back (a COPY in progress blocks its connection). */
  abort(): Promise<void>;
}

function quoted(identifier: string): string {
  if (!isSafeIdentifier(identifier)) throw new Error(`Unsafe identifier ${identifier}`);
  return `"${identifier}"`;
}

/** SQLite: prepared multi-row INSERTs on the store's own connection. */
export function sqliteBulkLoader(database: BetterSqlite3.Database): BulkLoader {
  return { openWriter: async (_trx, descriptor) => sqliteWriter(database, descriptor) };
}

/** PostgreSQL: COPY on the pg client behind the Kysely transaction (found among `clients`). */
export function postgresBulkLoader(clients: ReadonlySet<pg.ClientBase>): BulkLoader {
  const clientOf = postgresClientFinder(clients);
  return {
    openWriter: async (trx, descriptor) => postgresWriter(await clientOf(trx), descriptor),
  };
}

function sqliteWriter(database: BetterSqlite3.Database, descriptor: DatasetTable): RowWriter {
  const columns = descriptor.columns.map((column) => quoted(column.id)).join(", ");
  const tuple = `(${descriptor.columns.map(() => "?").join(", ")})`;
  const head = `insert into ${quoted(descriptor.table)} (${columns}) values `;
  // Large enough to amortise each call, small enough that the statement compiles fast.
  const rowsPerStatement = Math.max(1, Math.min(500, batchSize(descriptor.columns.length)));
  const many = database.prepare(head + Array(rowsPerStatement).fill(tuple).join(", "));
  const one = database.prepare(head + tuple);
  const width = descriptor.columns.length;
  let buffer: unknown[] = [];
  return {
    write(values) {
      for (let index = 0; index < width; index++) buffer.push(values[index]);
      if (buffer.length === rowsPerStatement * width) {
        many.run(buffer);
        buffer = [];
      }
    },
    async close() {
      for (let start = 0; start < buffer.length; start += width) {
        one.run(buffer.slice(start, start + width));
      }
      buffer = [];
    },
    async abort() {
      buffer = [];
    },
  };
}

/** A value as a field of COPY's CSV format: unquoted empty is NULL, everything else quoted. */
function copyField(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return String(value);
  if (typeof value === "boolean") return value ? "t" : "f";
  const text = String(value);
  return `"${text.includes('"') ? text.replaceAll('"', '""') : text}"`;
}

async function postgresWriter(client: pg.ClientBase, descriptor: DatasetTable): Promise<RowWriter> {
  const columns = descriptor.columns.map((column) => quoted(column.id)).join(", ");
  return openCsvCopy(client, `copy ${quoted(descriptor.table)} (${columns})`);
}

/**
 * COPY FROM STDIN in CSV format on the client's current transaction. `copyInto` is the statement
 * up to its column list ("copy <table> (<columns>)"), identifiers already quoted by the caller.
 */
export function openCsvCopy(client: pg.ClientBase, copyInto: string): RowWriter {
  const stream = client.query(copyFrom(`${copyInto} from stdin with (format csv)`));
  let failure: Error | null = null;
  stream.on("error", (error: Error) => {
    failure ??= error;
  });
  let chunk = "";
  const send = async () => {
    if (failure) throw failure;
    if (chunk === "") return;
    const ok = stream.write(chunk);
    chunk = "";
    if (!ok) await once(stream, "drain");
  };
  return {
    write(values) {
      let line = copyField(values[0]);
      for (let index = 1; index < values.length; index++) line += `,${copyField(values[index])}`;
      chunk += `${line}\n`;
      if (chunk.length >= 256 * 1024) return send();
    },
    async close() {
      await send();
      const finished = once(stream, "finish");
      stream.end();
      await finished;
      if (failure) throw failure;
    },
    async abort() {
      if (stream.closed) return;
      // The server answers the CopyFail with an error; that is the expected end here.
      const closed = new Promise((resolve) => stream.once("close", resolve));
      stream.destroy(new Error("The import stopped."));
      await closed;
    },
  };
}

/** The pg client running this transaction, found by its server process id. */
function postgresClientFinder(clients: ReadonlySet<pg.ClientBase>) {
  return async (trx: Executor): Promise<pg.ClientBase> => {
    const result = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
    const pid = Number(result.rows[0]?.pid);
    for (const client of clients) {
      if ((client as pg.ClientBase & { processID?: number }).processID === pid) return client;
    }
    throw new Error("The transaction's PostgreSQL connection is not one of the store's.");
  };
}
