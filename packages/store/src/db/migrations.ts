import { flowLayout, type TileKind } from "@seed/model";
import { type Kysely, type Migration, type MigrationProvider, sql } from "kysely";
import { columnIdsFor, datasetTableName, type TableColumn } from "./dataset-table.js";
import { createRowsTable, insertRows } from "./rows-table.js";

// Migrations live in code (not files read at runtime) so bundlers such as Next.js keep them.
// They use only portable types: text ids, integer versions, ISO text timestamps, JSON as text.
export const migrations: Record<string, Migration> = {
  "0001_initial": {
    // biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on today's schema types.
    async up(db: Kysely<any>) {
      await db.schema
        .createTable("datasets")
        .addColumn("id", "text", (col) => col.primaryKey())
        .addColumn("name", "text", (col) => col.notNull())
        .addColumn("description", "text", (col) => col.notNull().defaultTo(""))
        .addColumn("columns_json", "text", (col) => col.notNull())
        .addColumn("rows_json", "text", (col) => col.notNull())
        .addColumn("row_count", "integer", (col) => col.notNull())
        .addColumn("version", "integer", (col) => col.notNull())
        .addColumn("created_at", "text", (col) => col.notNull())
        .addColumn("updated_at", "text", (col) => col.notNull())
        .execute();

      await db.schema
        .createTable("charts")
        .addColumn("id", "text", (col) => col.primaryKey())
        .addColumn("title", "text", (col) => col.notNull())
        .addColumn("type", "text", (col) => col.notNull())
        .addColumn("dataset_id", "text", (col) =>
          col.notNull().references("datasets.id").onDelete("restrict"),
        )
        .addColumn("index_column", "text", (col) => col.notNull())
        .addColumn("series_json", "text", (col) => col.notNull())
        .addColumn("options_json", "text", (col) => col.notNull())
        .addColumn("version", "integer", (col) => col.notNull())
        .addColumn("created_at", "text", (col) => col.notNull())
        .addColumn("updated_at", "text", (col) => col.notNull())
        .execute();
      await db.schema.createIndex("charts_dataset_id").on("charts").column("dataset_id").execute();

      await db.schema
        .createTable("dashboards")
        .addColumn("id", "text", (col) => col.primaryKey())
        .addColumn("title", "text", (col) => col.notNull())
        .addColumn("slug", "text", (col) => col.notNull().unique())
        .addColumn("description", "text", (col) => col.notNull().defaultTo(""))
        .addColumn("icon", "text")
        .addColumn("status", "text", (col) => col.notNull())
        .addColumn("published_at", "text")
        .addColumn("version", "integer", (col) => col.notNull())
        .addColumn("created_at", "text", (col) => col.notNull())
        .addColumn("updated_at", "text", (col) => col.notNull())
        .execute();

      await db.schema
        .createTable("dashboard_tiles")
        .addColumn("id", "text", (col) => col.primaryKey())
        .addColumn("dashboard_id", "text", (col) =>
          col.notNull().references("dashboards.id").onDelete("cascade"),
        )
        .addColumn("position", "integer", (col) => col.notNull())
        .addColumn("kind", "text", (col) => col.notNull())
        .addColumn("chart_id", "text", (col) => col.references("charts.id").onDelete("restrict"))
        .addColumn("dataset_id", "text", (col) =>
          col.references("datasets.id").onDelete("restrict"),
        )
        .addColumn("config_json", "text", (col) => col.notNull())
        .execute();
      await db.schema
        .createIndex("dashboard_tiles_dashboard_id")
        .on("dashboard_tiles")
        .columns(["dashboard_id", "position"])
        .execute();
      await db.schema
        .createIndex("dashboard_tiles_chart_id")
        .on("dashboard_tiles")
        .column("chart_id")
        .execute();
      await db.schema
        .createIndex("dashboard_tiles_dataset_id")
        .on("dashboard_tiles")
        .column("dataset_id")
        .execute();

      await db.schema
        .createTable("audit_events")
        .addColumn("id", "text", (col) => col.primaryKey())
        .addColumn("at", "text", (col) => col.notNull())
        .addColumn("actor_id", "text", (col) => col.notNull())
        .addColumn("actor_email", "text", (col) => col.notNull())
        .addColumn("action", "text", (col) => col.notNull())
        .addColumn("entity_type", "text", (col) => col.notNull())
        .addColumn("entity_id", "text", (col) => col.notNull())
        .addColumn("detail_json", "text", (col) => col.notNull())
        .execute();
      await db.schema
        .createIndex("audit_events_at_id")
        .on("audit_events")
        .columns(["at", "id"])
        .execute();
      await db.schema
        .createIndex("audit_events_actor_id")
        .on("audit_events")
        .columns(["actor_id", "at"])
        .execute();
      await db.schema
        .createIndex("audit_events_entity")
        .on("audit_events")
        .columns(["entity_type", "entity_id"])
        .execute();

      await db.schema
        .createTable("store_meta")
        .addColumn("key", "text", (col) => col.primaryKey())
        .addColumn("value", "text", (col) => col.notNull())
        .execute();
    },
  },
  "0003_dataset_tables": {
    // Moves every dataset's rows_json array into its own typed table, then drops rows_json.
    // biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on today's schema types.
    async up(db: Kysely<any>) {
      const datasets = await db
        .selectFrom("datasets")
        .select(["id", "columns_json", "rows_json"])
        .execute();
      for (const dataset of datasets) {
        const legacy = JSON.parse(dataset.columns_json) as { name: string; type: string }[];
        const rows = JSON.parse(dataset.rows_json) as Record<string, unknown>[];
        const ids = columnIdsFor(legacy.map((column) => column.name));
        const columns: TableColumn[] = legacy.map((column, index) => ({
          id: ids[index] ?? `c_${index}`,
          name: column.name,
          // Old date columns also took date-times: those become timestamps so no time is lost.
          type:
            column.type === "date" && rows.some((row) => hasTimeOfDay(row[column.name]))
              ? "timestamp"
              : (column.type as TableColumn["type"]),
        }));
        const descriptor = { table: datasetTableName(dataset.id), columns };
        await createRowsTable(db, descriptor);
        await insertRows(
          db,
          descriptor,
          rows.map((row) =>
            Object.fromEntries(
              columns.map((column) => [column.id, (row[column.name] ?? null) as string | null]),
            ),
          ),
        );
        await db
          .updateTable("datasets")
          .set({ columns_json: JSON.stringify(columns) })
          .where("id", "=", dataset.id)
          .execute();
      }
      await db.schema.alterTable("datasets").dropColumn("rows_json").execute();
    },
  },
  "0004_chart_queries": {
    // A chart becomes a query over its dataset (src/engine). An old chart's index column becomes
    // the x column and each series column a measure: raw values where every x value is unique,
    // sums where x repeats (the old charts silently drew only the first row of each repeated x).
    // Dashboards gain an optional IANA time zone for their date buckets.
    // biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on today's schema types.
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable("charts")
        .addColumn("query_json", "text", (col) => col.notNull().defaultTo("{}"))
        .execute();
      const charts = await db
        .selectFrom("charts")
        .innerJoin("datasets", "datasets.id", "charts.dataset_id")
        .select([
          "charts.id as id",
          "charts.dataset_id as datasetId",
          "charts.index_column as indexColumn",
          "charts.series_json as seriesJson",
          "datasets.columns_json as columnsJson",
        ])
        .execute();
      for (const chart of charts) {
        const columns = JSON.parse(chart.columnsJson) as TableColumn[];
        const x = columns.find((column) => column.name === chart.indexColumn);
        let repeats = false;
        if (x) {
          const table = datasetTableName(chart.datasetId);
          const result = await sql<{
            n: number | string;
          }>`select count(${sql.id(x.id)}) - count(distinct ${sql.id(x.id)}) as n from ${sql.table(table)}`.execute(
            db,
          );
          repeats = Number(result.rows[0]?.n ?? 0) > 0;
        }
        const series = JSON.parse(chart.seriesJson) as string[];
        const query = {
          x: { column: chart.indexColumn },
          measures: series.map((column) => ({ column, aggregate: repeats ? "sum" : "none" })),
          filters: [],
        };
        await db
          .updateTable("charts")
          .set({ query_json: JSON.stringify(query) })
          .where("id", "=", chart.id)
          .execute();
      }
      await db.schema.alterTable("charts").dropColumn("index_column").execute();
      await db.schema.alterTable("charts").dropColumn("series_json").execute();
      await db.schema.alterTable("dashboards").addColumn("time_zone", "text").execute();
    },
  },
  "0005_access": {
    // Sign-in throttling and first-run setup move into the database, so every instance of the
    // app sees the same counters, tokens and claim (src/access). The web app's old claim table,
    // made outside the store's migrations, goes.
    // biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on today's schema types.
    async up(db: Kysely<any>) {
      await db.schema
        .createTable("sign_in_throttle")
        .addColumn("key", "text", (col) => col.primaryKey())
        .addColumn("failures", "integer", (col) => col.notNull())
        .addColumn("window_started_at", "text", (col) => col.notNull())
        .addColumn("last_failure_at", "text", (col) => col.notNull())
        .execute();
      await db.schema
        .createTable("setup_tokens")
        .addColumn("token_hash", "text", (col) => col.primaryKey())
        .addColumn("created_at", "text", (col) => col.notNull())
        .execute();
      await db.schema
        .createTable("setup_claim")
        .addColumn("id", "text", (col) => col.primaryKey())
        .addColumn("claimed_at", "text", (col) => col.notNull())
        .execute();
      await db.schema.dropTable("seed_web_setup_claim").ifExists().execute();
    },
  },
  "0006_tile_layout": {
    // Tiles gain a place on a 12-column grid. Existing tiles keep their order, flowing left to
    // right at their kind's default size (stats 3 wide, charts 6), a new row when one is full.
    // biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on today's schema types.
    async up(db: Kysely<any>) {
      for (const [column, initial] of [
        ["x", 0],
        ["y", 0],
        ["w", 6],
        ["h", 4],
      ] as const) {
        await db.schema
          .alterTable("dashboard_tiles")
          .addColumn(column, "integer", (col) => col.notNull().defaultTo(initial))
          .execute();
      }
      const tiles = await db
        .selectFrom("dashboard_tiles")
        .select(["id", "dashboard_id", "kind"])
        .orderBy("dashboard_id")
        .orderBy("position")
        .execute();
      const byDashboard = new Map<string, { id: string; kind: TileKind }[]>();
      for (const tile of tiles) {
        const list = byDashboard.get(tile.dashboard_id) ?? [];
        list.push({ id: tile.id, kind: tile.kind === "chart" ? "chart" : "stat" });
        byDashboard.set(tile.dashboard_id, list);
      }
      for (const list of byDashboard.values()) {
        const layouts = flowLayout(list.map((tile) => tile.kind));
        for (const [index, tile] of list.entries()) {
          const layout = layouts[index];
          if (!layout) continue;
          await db.updateTable("dashboard_tiles").set(layout).where("id", "=", tile.id).execute();
        }
      }
    },
  },
  "0007_page_cache": {
    // The web app's page cache shares which tags were expired, so a write through one instance
    // is on the next page any instance serves (src/ops/page-cache-tags.ts).
    // biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on today's schema types.
    async up(db: Kysely<any>) {
      await db.schema
        .createTable("page_cache_tags")
        .addColumn("tag", "text", (col) => col.primaryKey())
        .addColumn("generation", "bigint", (col) => col.notNull())
        .execute();
    },
  },
  "0008_dataset_tokens": {
    // The push API: tokens that write one dataset (only their hashes are kept), each with its
    // own request counter, and the answers of pushes sent with an Idempotency-Key.
    // biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on today's schema types.
    async up(db: Kysely<any>) {
      await db.schema
        .createTable("dataset_tokens")
        .addColumn("id", "text", (col) => col.primaryKey())
        .addColumn("dataset_id", "text", (col) =>
          col.notNull().references("datasets.id").onDelete("cascade"),
        )
        .addColumn("name", "text", (col) => col.notNull())
        .addColumn("scope", "text", (col) => col.notNull())
        .addColumn("token_hash", "text", (col) => col.notNull().unique())
        .addColumn("token_prefix", "text", (col) => col.notNull())
        .addColumn("created_by_id", "text", (col) => col.notNull())
        .addColumn("created_by_email", "text", (col) => col.notNull())
        .addColumn("created_at", "text", (col) => col.notNull())
        .addColumn("expires_at", "text")
        .addColumn("last_used_at", "text")
        .addColumn("revoked_at", "text")
        .addColumn("rate_count", "integer", (col) => col.notNull().defaultTo(0))
        .addColumn("rate_window_started_at", "text")
        .execute();
      await db.schema
        .createIndex("dataset_tokens_dataset_id")
        .on("dataset_tokens")
        .columns(["dataset_id", "created_at"])
        .execute();
      await db.schema
        .createTable("dataset_push_requests")
        .addColumn("token_id", "text", (col) =>
          col.notNull().references("dataset_tokens.id").onDelete("cascade"),
        )
        .addColumn("idempotency_key", "text", (col) => col.notNull())
        .addColumn("fingerprint", "text", (col) => col.notNull())
        .addColumn("status", "integer", (col) => col.notNull())
        .addColumn("response_json", "text", (col) => col.notNull())
        .addColumn("created_at", "text", (col) => col.notNull())
        .addPrimaryKeyConstraint("dataset_push_requests_pk", ["token_id", "idempotency_key"])
        .execute();
      await db.schema
        .createIndex("dataset_push_requests_created_at")
        .on("dataset_push_requests")
        .column("created_at")
        .execute();
    },
  },
  "0009_embed_settings": {
    // Per-dashboard embedding (the origins allowed to frame it) and auto-refresh. Every existing
    // dashboard starts closed to framing and with refresh off.
    // biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on today's schema types.
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable("dashboards")
        .addColumn("embed_origins_json", "text", (col) => col.notNull().defaultTo("[]"))
        .execute();
      await db.schema.alterTable("dashboards").addColumn("refresh_seconds", "integer").execute();
    },
  },
  "0010_entity_versions": {
    // Charts and dashboards keep every saved state, for history, differences and restore
    // (src/repo/history.ts). Entities made before this start their history at their next save.
    // biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on today's schema types.
    async up(db: Kysely<any>) {
      await db.schema
        .createTable("entity_versions")
        .addColumn("entity_type", "text", (col) => col.notNull())
        .addColumn("entity_id", "text", (col) => col.notNull())
        .addColumn("version", "integer", (col) => col.notNull())
        .addColumn("at", "text", (col) => col.notNull())
        .addColumn("actor_id", "text", (col) => col.notNull())
        .addColumn("actor_email", "text", (col) => col.notNull())
        .addColumn("action", "text", (col) => col.notNull())
        .addColumn("snapshot_json", "text", (col) => col.notNull())
        .addColumn("restored_from", "integer")
        .addPrimaryKeyConstraint("entity_versions_pk", ["entity_type", "entity_id", "version"])
        .execute();
    },
  },
  "0011_live_sources": {
    // Live database sources (src/repo/sources): PostgreSQL connections whose tables and views are
    // datasets queried where they live; the password is kept only encrypted (AES-256-GCM).
    // biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on today's schema types.
    async up(db: Kysely<any>) {
      await db.schema
        .createTable("data_sources")
        .addColumn("id", "text", (col) => col.primaryKey())
        .addColumn("name", "text", (col) => col.notNull().unique())
        .addColumn("host", "text", (col) => col.notNull())
        .addColumn("port", "integer", (col) => col.notNull())
        .addColumn("database_name", "text", (col) => col.notNull())
        .addColumn("user_name", "text", (col) => col.notNull())
        .addColumn("password_encrypted", "text", (col) => col.notNull())
        .addColumn("ssl_mode", "text", (col) => col.notNull())
        .addColumn("statement_timeout_ms", "integer", (col) => col.notNull())
        .addColumn("row_cap", "integer", (col) => col.notNull())
        .addColumn("cache_ttl_seconds", "integer", (col) => col.notNull())
        .addColumn("version", "integer", (col) => col.notNull())
        .addColumn("created_at", "text", (col) => col.notNull())
        .addColumn("updated_at", "text", (col) => col.notNull())
        .addColumn("created_by_id", "text", (col) => col.notNull())
        .addColumn("created_by_email", "text", (col) => col.notNull())
        .execute();
      await db.schema
        .alterTable("datasets")
        .addColumn("source_id", "text", (col) => col.references("data_sources.id"))
        .execute();
      await db.schema.alterTable("datasets").addColumn("source_schema", "text").execute();
      await db.schema.alterTable("datasets").addColumn("source_table", "text").execute();
      await db.schema.alterTable("datasets").addColumn("source_note", "text").execute();
      await db.schema
        .createIndex("datasets_source_id")
        .on("datasets")
        .column("source_id")
        .execute();
    },
  },
  "0012_dashboard_filters": {
    // The columns a dashboard's filter bar filters by; existing dashboards start with none.
    // biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on today's schema types.
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable("dashboards")
        .addColumn("filters_json", "text", (col) =>
          col.notNull().defaultTo('{"dateColumn":null,"categories":[]}'),
        )
        .execute();
    },
  },
  "0013_rows_generation": {
    // Which generation table holds a dataset's committed rows when they live in the DuckDB data
    // file (src/db/data-file.ts); rows kept in this database's own ds_<id> table ignore it.
    // biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on today's schema types.
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable("datasets")
        .addColumn("rows_generation", "integer", (col) => col.notNull().defaultTo(0))
        .execute();
    },
  },
  "0014_calculated_fields": {
    // A dataset's calculated fields ([{ name, expression }], @seed/model calculated-fields.ts).
    // biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on today's schema types.
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable("datasets")
        .addColumn("fields_json", "text", (col) => col.notNull().defaultTo("[]"))
        .execute();
    },
  },
  "0015_question_datasets": {
    // A saved SQL question is a dataset whose rows are its answer: its text here, no rows table.
    // biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on today's schema types.
    async up(db: Kysely<any>) {
      await db.schema.alterTable("datasets").addColumn("question_sql", "text").execute();
    },
  },
  "0016_managed_dashboards": {
    // A dashboard provisioned from a file of the dashboards folder names it here (read-only in
    // the app while the file is there); null for a dashboard made in the app.
    // biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on today's schema types.
    async up(db: Kysely<any>) {
      await db.schema.alterTable("dashboards").addColumn("managed_file", "text").execute();
    },
  },
  "0017_api_tokens": {
    // Personal API tokens for /api/v1 and the CLI: each acts as its user, within its scope; only
    // the SHA-256 of the secret is kept.
    // biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on today's schema types.
    async up(db: Kysely<any>) {
      await db.schema
        .createTable("api_tokens")
        .addColumn("id", "text", (col) => col.primaryKey())
        .addColumn("user_id", "text", (col) => col.notNull())
        .addColumn("user_email", "text", (col) => col.notNull())
        .addColumn("name", "text", (col) => col.notNull())
        .addColumn("scope", "text", (col) => col.notNull())
        .addColumn("token_hash", "text", (col) => col.notNull().unique())
        .addColumn("token_prefix", "text", (col) => col.notNull())
        .addColumn("created_at", "text", (col) => col.notNull())
        .addColumn("expires_at", "text", (col) => col.notNull())
        .addColumn("last_used_at", "text")
        .addColumn("revoked_at", "text")
        .execute();
      await db.schema
        .createIndex("api_tokens_user_id")
        .on("api_tokens")
        .columns(["user_id", "created_at"])
        .execute();
    },
  },
  "0018_jobs": {
    // The embedded (SQLite) job queue: scheduled reports, alert checks and deliveries that must
    // run once, on time, and survive a restart. PostgreSQL's jobs live in pg-boss's own schema.
    // biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on today's schema types.
    async up(db: Kysely<any>) {
      await db.schema
        .createTable("jobs")
        .addColumn("id", "text", (col) => col.primaryKey())
        .addColumn("queue", "text", (col) => col.notNull())
        .addColumn("key", "text", (col) => col.notNull())
        .addColumn("data_json", "text", (col) => col.notNull())
        .addColumn("state", "text", (col) => col.notNull())
        .addColumn("run_at", "text", (col) => col.notNull())
        .addColumn("attempts", "integer", (col) => col.notNull())
        .addColumn("locked_until", "text")
        .addColumn("last_error", "text")
        .addColumn("created_at", "text", (col) => col.notNull())
        .addColumn("finished_at", "text")
        .execute();
      // One waiting or running job per key: a second enqueue of the same key adds nothing.
      await db.schema
        .createIndex("jobs_open_key")
        .on("jobs")
        .columns(["queue", "key"])
        .unique()
        .where(sql.ref("state"), "in", ["created", "retry", "active"])
        .execute();
      await db.schema
        .createIndex("jobs_due")
        .on("jobs")
        .columns(["queue", "state", "run_at"])
        .execute();
    },
  },
  "0019_reports": {
    // Scheduled reports: a published dashboard mailed on a schedule to recipients who each have
    // their own unsubscribe link, with a mark per recipient and run so a retry mails nobody twice.
    // biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on today's schema types.
    async up(db: Kysely<any>) {
      await db.schema
        .createTable("reports")
        .addColumn("id", "text", (col) => col.primaryKey())
        .addColumn("name", "text", (col) => col.notNull())
        .addColumn("owner_id", "text", (col) => col.notNull())
        .addColumn("owner_email", "text", (col) => col.notNull())
        .addColumn("dashboard_id", "text", (col) => col.notNull())
        .addColumn("filter_query", "text", (col) => col.notNull())
        .addColumn("schedule_json", "text", (col) => col.notNull())
        .addColumn("enabled", "integer", (col) => col.notNull())
        .addColumn("next_run_at", "text")
        .addColumn("last_due_at", "text")
        .addColumn("last_run_at", "text")
        .addColumn("last_status", "text")
        .addColumn("last_error", "text")
        .addColumn("version", "integer", (col) => col.notNull())
        .addColumn("created_at", "text", (col) => col.notNull())
        .addColumn("updated_at", "text", (col) => col.notNull())
        .execute();
      await db.schema.createIndex("reports_due").on("reports").column("next_run_at").execute();
      await db.schema
        .createIndex("reports_owner")
        .on("reports")
        .columns(["owner_id", "created_at"])
        .execute();
      await db.schema
        .createTable("report_recipients")
        .addColumn("report_id", "text", (col) => col.notNull())
        .addColumn("address", "text", (col) => col.notNull())
        .addColumn("address_key", "text", (col) => col.notNull())
        .addColumn("unsubscribe_token", "text", (col) => col.notNull().unique())
        .addColumn("unsubscribed_at", "text")
        .addPrimaryKeyConstraint("report_recipients_pk", ["report_id", "address_key"])
        .execute();
      await db.schema
        .createTable("report_sends")
        .addColumn("report_id", "text", (col) => col.notNull())
        .addColumn("due_at", "text", (col) => col.notNull())
        .addColumn("address_key", "text", (col) => col.notNull())
        .addColumn("sent_at", "text", (col) => col.notNull())
        .addColumn("message_id", "text")
        .addPrimaryKeyConstraint("report_sends_pk", ["report_id", "due_at", "address_key"])
        .execute();
    },
  },
  "0020_alerts": {
    // Alerts: a stat tile's value or a chart's measure watched against a condition, checked on a
    // schedule and after each write of its dataset's rows; the state it is in (so it fires and
    // resolves once), its history with the value seen, and a mark per event and destination so a
    // retried delivery reaches nobody twice. Datasets learn when rows last came in.
    // biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on today's schema types.
    async up(db: Kysely<any>) {
      await db.schema.alterTable("datasets").addColumn("rows_added_at", "text").execute();
      await db.schema
        .createTable("alerts")
        .addColumn("id", "text", (col) => col.primaryKey())
        .addColumn("name", "text", (col) => col.notNull())
        .addColumn("owner_id", "text", (col) => col.notNull())
        .addColumn("owner_email", "text", (col) => col.notNull())
        .addColumn("target_json", "text", (col) => col.notNull())
        .addColumn("dataset_id", "text")
        .addColumn("condition_json", "text", (col) => col.notNull())
        .addColumn("check_every_minutes", "integer", (col) => col.notNull())
        .addColumn("enabled", "integer", (col) => col.notNull())
        .addColumn("state", "text", (col) => col.notNull())
        .addColumn("snoozed_until", "text")
        .addColumn("next_check_at", "text")
        .addColumn("last_checked_at", "text")
        .addColumn("last_value", "double precision")
        .addColumn("last_error", "text")
        .addColumn("version", "integer", (col) => col.notNull())
        .addColumn("created_at", "text", (col) => col.notNull())
        .addColumn("updated_at", "text", (col) => col.notNull())
        .execute();
      await db.schema.createIndex("alerts_due").on("alerts").column("next_check_at").execute();
      await db.schema.createIndex("alerts_dataset").on("alerts").column("dataset_id").execute();
      await db.schema
        .createIndex("alerts_owner")
        .on("alerts")
        .columns(["owner_id", "created_at"])
        .execute();
      await db.schema
        .createTable("alert_recipients")
        .addColumn("alert_id", "text", (col) => col.notNull())
        .addColumn("address", "text", (col) => col.notNull())
        .addColumn("address_key", "text", (col) => col.notNull())
        .addColumn("unsubscribe_token", "text", (col) => col.notNull().unique())
        .addColumn("unsubscribed_at", "text")
        .addPrimaryKeyConstraint("alert_recipients_pk", ["alert_id", "address_key"])
        .execute();
      await db.schema
        .createTable("alert_webhooks")
        .addColumn("id", "text", (col) => col.primaryKey())
        .addColumn("alert_id", "text", (col) => col.notNull())
        .addColumn("url", "text", (col) => col.notNull())
        .addColumn("format", "text", (col) => col.notNull())
        .addColumn("position", "integer", (col) => col.notNull())
        .execute();
      await db.schema
        .createIndex("alert_webhooks_alert")
        .on("alert_webhooks")
        .column("alert_id")
        .execute();
      await db.schema
        .createTable("alert_events")
        .addColumn("id", "text", (col) => col.primaryKey())
        .addColumn("alert_id", "text", (col) => col.notNull())
        .addColumn("kind", "text", (col) => col.notNull())
        .addColumn("value", "double precision")
        .addColumn("previous", "double precision")
        .addColumn("at", "text", (col) => col.notNull())
        .addColumn("notify", "integer", (col) => col.notNull())
        .addColumn("delivery_status", "text", (col) => col.notNull())
        .addColumn("delivery_error", "text")
        .execute();
      await db.schema
        .createIndex("alert_events_alert")
        .on("alert_events")
        .columns(["alert_id", "at"])
        .execute();
      await db.schema
        .createTable("alert_deliveries")
        .addColumn("event_id", "text", (col) => col.notNull())
        .addColumn("destination", "text", (col) => col.notNull())
        .addColumn("sent_at", "text", (col) => col.notNull())
        .addPrimaryKeyConstraint("alert_deliveries_pk", ["event_id", "destination"])
        .execute();
    },
  },
  "0021_used_one_time_codes": {
    // A two-factor code counts once (NIST SP 800-63B 5.1.4.2): each accepted code is kept, by a
    // hash, until it could no longer be accepted, and a second use of it is refused.
    // biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on today's schema types.
    async up(db: Kysely<any>) {
      await db.schema
        .createTable("used_one_time_codes")
        .addColumn("key_hash", "text", (col) => col.primaryKey())
        .addColumn("expires_at", "text", (col) => col.notNull())
        .execute();
    },
  },
  "0022_account_groups": {
    // Groups of accounts, made by an admin or named by the identity provider's claim; a member
    // is in a group by an admin's choice, by the claim, or both (one row each).
    // biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on today's schema types.
    async up(db: Kysely<any>) {
      await db.schema
        .createTable("account_groups")
        .addColumn("id", "text", (col) => col.primaryKey())
        .addColumn("name", "text", (col) => col.notNull())
        .addColumn("name_key", "text", (col) => col.notNull().unique())
        .addColumn("created_by", "text", (col) => col.notNull())
        .addColumn("created_at", "text", (col) => col.notNull())
        .execute();
      await db.schema
        .createTable("account_group_members")
        .addColumn("group_id", "text", (col) => col.notNull())
        .addColumn("user_id", "text", (col) => col.notNull())
        .addColumn("source", "text", (col) => col.notNull())
        .addColumn("added_at", "text", (col) => col.notNull())
        .addPrimaryKeyConstraint("account_group_members_pk", ["group_id", "user_id", "source"])
        .execute();
      await db.schema
        .createIndex("account_group_members_user")
        .on("account_group_members")
        .column("user_id")
        .execute();
    },
  },
  "0023_collections": {
    // Collections hold datasets, charts, dashboards and sources and grant groups a level there;
    // a record with no collection is Shared, as every record was before.
    // biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on today's schema types.
    async up(db: Kysely<any>) {
      await db.schema
        .createTable("collections")
        .addColumn("id", "text", (col) => col.primaryKey())
        .addColumn("name", "text", (col) => col.notNull())
        .addColumn("name_key", "text", (col) => col.notNull().unique())
        .addColumn("description", "text", (col) => col.notNull())
        .addColumn("created_at", "text", (col) => col.notNull())
        .addColumn("updated_at", "text", (col) => col.notNull())
        .execute();
      await db.schema
        .createTable("collection_grants")
        .addColumn("collection_id", "text", (col) => col.notNull())
        .addColumn("group_id", "text", (col) => col.notNull())
        .addColumn("level", "text", (col) => col.notNull())
        .addPrimaryKeyConstraint("collection_grants_pk", ["collection_id", "group_id"])
        .execute();
      await db.schema
        .createIndex("collection_grants_group")
        .on("collection_grants")
        .column("group_id")
        .execute();
      for (const table of ["datasets", "charts", "dashboards", "data_sources"]) {
        await db.schema.alterTable(table).addColumn("collection_id", "text").execute();
        await db.schema
          .createIndex(`${table}_collection`)
          .on(table)
          .column("collection_id")
          .execute();
      }
    },
  },
  "0024_row_limits": {
    // A group's access to a dataset narrowed to the rows meeting its conditions (a JSON list of
    // query filters or account attributes, all of which hold); one limit per group and dataset.
    // biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on today's schema types.
    async up(db: Kysely<any>) {
      await db.schema
        .createTable("row_limits")
        .addColumn("group_id", "text", (col) => col.notNull())
        .addColumn("dataset_id", "text", (col) => col.notNull())
        .addColumn("conditions_json", "text", (col) => col.notNull())
        .addColumn("updated_at", "text", (col) => col.notNull())
        .addPrimaryKeyConstraint("row_limits_pk", ["group_id", "dataset_id"])
        .execute();
      await db.schema
        .createIndex("row_limits_dataset")
        .on("row_limits")
        .column("dataset_id")
        .execute();
      // What a limit may compare with: an account's attributes from its provider's claims.
      await db.schema
        .createTable("account_attributes")
        .addColumn("user_id", "text", (col) => col.notNull())
        .addColumn("name", "text", (col) => col.notNull())
        .addColumn("values_json", "text", (col) => col.notNull())
        .addColumn("updated_at", "text", (col) => col.notNull())
        .addPrimaryKeyConstraint("account_attributes_pk", ["user_id", "name"])
        .execute();
    },
  },
  "0025_dataset_hierarchies": {
    // A dataset's category hierarchies, the columns a chart drills through, coarsest first
    // ([["region", "country", "city"]], @seed/model hierarchies.ts).
    // biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on today's schema types.
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable("datasets")
        .addColumn("hierarchies_json", "text", (col) => col.notNull().defaultTo("[]"))
        .execute();
    },
  },
};

function hasTimeOfDay(value: unknown): boolean {
  return typeof value === "string" && value.includes("T");
}

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};

export const migrationTableName = "seed_store_migration";
export const migrationLockTableName = "seed_store_migration_lock";
