import type BetterSqlite3 from "better-sqlite3";
import { Kysely, PostgresDialect, type PostgresPoolClient } from "kysely";
import type pg from "pg";
import { openCsvCopy } from "../db/bulk-load.js";
import {
  canonicalValue,
  copyValue,
  quoteIdentifier,
  TableChecksum,
  type ValueKind,
  valueKindOf,
} from "./migrate-to-postgres-values.js";

// The PostgreSQL side of migrate-to-postgres, on one client inside its open transaction: what the
// target holds, the order tables are copied in, each table streamed from SQLite by COPY and read
// back for its checksum, and the identity sequences moved past the copied keys.

// biome-ignore lint/suspicious/noExplicitAny: the auth library's tables are outside the store's schema type.
export type AnyKysely = Kysely<any>;

export interface MigratedSequence {
  table: string;
  column: string;
  /** The value the next insert gets. */
  next: string;
}

/** A Kysely instance whose every query runs on this one client, inside its open transaction. */
export function kyselyOn(client: pg.Client): AnyKysely {
  const connection = {
    query: (text: string, parameters: unknown[]) => client.query(text, parameters),
    release: () => {},
  } as unknown as PostgresPoolClient;
  return new Kysely({
    dialect: new PostgresDialect({
      pool: { connect: async () => connection, end: async () => {} },
    }),
  });
}

/** The target's tables, views, sequences and other objects outside the system schemas. */
export async function targetObjects(client: pg.Client): Promise<string[]> {
  const result = await client.query<{ name: string }>(
    `select n.nspname || '.' || c.relname as name
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where c.relkind in ('r', 'p', 'v', 'm', 'S', 'f')
        and n.nspname not in ('pg_catalog', 'information_schema')
        and n.nspname not like 'pg\\_toast%' and n.nspname not like 'pg\\_temp%'
        and not exists (select 1 from pg_depend d where d.objid = c.oid and d.deptype = 'e')
      order by 1`,
  );
  return result.rows.map((row) => row.name);
}

/** Each target table's columns and how their values compare. */
export async function targetColumns(
  client: pg.Client,
): Promise<Map<string, Map<string, ValueKind>>> {
  const result = await client.query<{ table_name: string; column_name: string; data_type: string }>(
    `select table_name, column_name, data_type from information_schema.columns
      where table_schema = current_schema() order by table_name, ordinal_position`,
  );
  const tables = new Map<string, Map<string, ValueKind>>();
  for (const row of result.rows) {
    const columns = tables.get(row.table_name) ?? new Map<string, ValueKind>();
    columns.set(row.column_name, valueKindOf(row.data_type));
    tables.set(row.table_name, columns);
  }
  return tables;
}

/** Parents before children, by the target's foreign keys; ties in name order. */
export async function copyOrder(client: pg.Client, tables: readonly string[]): Promise<string[]> {
  const result = await client.query<{ child: string; parent: string }>(
    `select child.relname as child, parent.relname as parent
       from pg_constraint k
       join pg_class child on child.oid = k.conrelid
       join pg_class parent on parent.oid = k.confrelid
       join pg_namespace n on n.oid = child.relnamespace
      where k.contype = 'f' and n.nspname = current_schema()`,
  );
  const pending = new Set(tables);
  const order: string[] = [];
  while (pending.size > 0) {
    const ready = [...pending]
      .filter(
        (table) =>
          !result.rows.some(
            (row) => row.child === table && row.parent !== table && pending.has(row.parent),
          ),
      )
      .sort();
    // A cycle would leave nothing ready; copying the rest in name order then fails loudly.
    const next = ready.length > 0 ? ready : [...pending].sort();
    for (const table of next) {
      order.push(table);
      pending.delete(table);
    }
  }
  return order;
}

/** One table to copy: its columns, how each compares, and the order rows are read in. */
export interface TablePlan {
  table: string;
  columns: string[];
  kinds: ValueKind[];
  orderBy: string[];
}

function sourceSelect(plan: TablePlan): string {
  return `select ${plan.columns.map(quoteIdentifier).join(", ")} from ${quoteIdentifier(
    plan.table,
  )} order by ${plan.orderBy.map(quoteIdentifier).join(", ")}`;
}

/** Text of every column (timestamps as epoch ms), ordered like SQLite's BINARY collation. */
function targetSelect(plan: TablePlan): string {
  const values = plan.columns.map((column, index) =>
    plan.kinds[index] === "timestamp"
      ? `round(extract(epoch from ${quoteIdentifier(column)}) * 1000)::text`
      : `${quoteIdentifier(column)}::text`,
  );
  // Qualified, so ORDER BY sorts the stored column, not the text output column of that name.
  const order = plan.orderBy.map((column) => {
    const kind = plan.kinds[plan.columns.indexOf(column)];
    return kind === "text" || kind === "date" || kind === "json"
      ? `source.${quoteIdentifier(column)}::text collate "C"`
      : `source.${quoteIdentifier(column)}`;
  });
  return `select ${values.join(", ")} from ${quoteIdentifier(plan.table)} as source order by ${order.join(", ")}`;
}

/** Streams one table from the source into the target by COPY, with the checksum of what was read. */
export async function copyTable(
  source: BetterSqlite3.Database,
  client: pg.Client,
  plan: TablePlan,
): Promise<{ rows: number; checksum: string }> {
  const checksum = new TableChecksum(plan.columns);
  const writer = openCsvCopy(
    client,
    `copy ${quoteIdentifier(plan.table)} (${plan.columns.map(quoteIdentifier).join(", ")})`,
  );
  const statement = source.prepare(sourceSelect(plan)).raw(true).safeIntegers(true);
  try {
    for (const row of statement.iterate() as Iterable<unknown[]>) {
      checksum.add(row.map((value, index) => canonicalValue(plan.kinds[index] ?? "text", value)));
      const pending = writer.write(
        row.map((value, index) => copyValue(plan.kinds[index] ?? "text", value)),
      );
      if (pending) await pending;
    }
    await writer.close();
  } catch (error) {
    await writer.abort();
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`Copying ${plan.table} failed: ${reason}`, { cause: error });
  }
  return { rows: checksum.rows, checksum: checksum.digest() };
}

/** Reads one table back from the target (in batches through a cursor) into its checksum. */
export async function targetChecksum(
  client: pg.Client,
  plan: TablePlan,
  fetchRows: number,
): Promise<{ rows: number; checksum: string }> {
  const checksum = new TableChecksum(plan.columns);
  await client.query(`declare seed_verify no scroll cursor for ${targetSelect(plan)}`);
  for (;;) {
    const batch = await client.query<unknown[]>({
      text: `fetch forward ${fetchRows} from seed_verify`,
      rowMode: "array",
    });
    for (const row of batch.rows) {
      checksum.add(row.map((value, index) => canonicalValue(plan.kinds[index] ?? "text", value)));
    }
    if (batch.rows.length < fetchRows) break;
  }
  await client.query("close seed_verify");
  return { rows: checksum.rows, checksum: checksum.digest() };
}

/** Moves every identity and serial column's sequence past the largest copied value. */
export async function advanceSequences(client: pg.Client): Promise<MigratedSequence[]> {
  const columns = await client.query<{ table_name: string; column_name: string; seq: string }>(
    `select table_name, column_name,
            pg_get_serial_sequence(quote_ident(table_name), column_name) as seq
       from information_schema.columns
      where table_schema = current_schema()
        and (is_identity = 'YES' or column_default like 'nextval(%')
      order by table_name, column_name`,
  );
  const advanced: MigratedSequence[] = [];
  for (const { table_name: table, column_name: column, seq } of columns.rows) {
    if (!seq) continue;
    const result = await client.query<{ next: string }>(
      `select setval($1, coalesce((select max(${quoteIdentifier(column)}) from ${quoteIdentifier(
        table,
      )}), 0) + 1, false)::text as next`,
      [seq],
    );
    advanced.push({ table, column, next: result.rows[0]?.next ?? "1" });
  }
  return advanced;
}
