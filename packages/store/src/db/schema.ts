import type { Generated } from "kysely";
// Row shapes of the tables this package owns. Timestamps are ISO 8601 text, JSON is text: both
// sort and compare the same way on SQLite and PostgreSQL.

export interface DatasetsTable {
  id: string;
  name: string;
  description: string;
  // [{ id, name, type }]: id is the SQL column of the dataset's own table (datasets/table.ts),
  // where the rows live, one SQL row per dataset row.
  columns_json: string;
  row_count: number;
  version: number;
  created_at: string;
  updated_at: string;
  /** A live dataset's source (src/repo/sources); null for a dataset whose rows live here. */
  source_id: string | null;
  /** The remote schema and table or view, as the source's catalog names them. */
  source_schema: string | null;
  source_table: string | null;
  /** Why some remote columns were left out (unsupported types), or null. */
  source_note: string | null;
  /** The DuckDB data file's generation of the committed rows (0: rows kept in this database). */
  rows_generation: Generated<number>;
  /** Calculated fields, [{ name, expression }] (@seed/model calculated-fields.ts). */
  fields_json: Generated<string>;
  /** Category hierarchies, [["region", "country", "city"]] (@seed/model hierarchies.ts). */
  hierarchies_json: Generated<string>;
  /** A saved SQL question's text: the dataset's rows are its answer, kept nowhere; else null. */
  question_sql: Generated<string | null>;
  /** When rows last came in (created with rows, imported, appended, pushed); null: never since. */
  rows_added_at: Generated<string | null>;
  /** The collection it is in (src/repo/collections.ts); null: Shared. */
  collection_id: Generated<string | null>;
}

/** A live PostgreSQL source (src/repo/sources): its password only encrypted (AES-256-GCM). */
export interface DataSourcesTable {
  id: string;
  name: string;
  host: string;
  port: number;
  database_name: string;
  user_name: string;
  /** "v1:" + base64(iv | tag | ciphertext), key from SEED_SOURCES_KEY, the id as associated data. */
  password_encrypted: string;
  /** "disable", "require" or "verify-full". */
  ssl_mode: string;
  statement_timeout_ms: number;
  row_cap: number;
  cache_ttl_seconds: number;
  version: number;
  created_at: string;
  updated_at: string;
  created_by_id: string;
  created_by_email: string;
  /** The collection it is in (src/repo/collections.ts); null: Shared. */
  collection_id: Generated<string | null>;
}

export interface ChartsTable {
  id: string;
  title: string;
  type: string;
  dataset_id: string;
  // The chart's query (@seed/model, query/spec.ts) as JSON.
  query_json: string;
  options_json: string;
  version: number;
  created_at: string;
  updated_at: string;
  /** The collection it is in (src/repo/collections.ts); null: Shared. */
  collection_id: Generated<string | null>;
}

export interface DashboardsTable {
  id: string;
  title: string;
  slug: string;
  description: string;
  icon: string | null;
  status: string;
  published_at: string | null;
  /** IANA zone for day and coarser buckets; null means UTC. */
  time_zone: string | null;
  /** JSON list of origins allowed to frame the dashboard's embeds; "[]" allows none. */
  embed_origins_json: string;
  /** Seconds between the page's own refreshes (30, 60, 300 or 900); null is off. */
  refresh_seconds: number | null;
  /** JSON of the filter bar's columns: {"dateColumn": null | name, "categories": [names]}. */
  filters_json: string;
  /** The provisioning folder's file this dashboard is kept from (read-only in the app), or null. */
  managed_file: string | null;
  version: number;
  created_at: string;
  updated_at: string;
  /** The collection it is in (src/repo/collections.ts); null: Shared. */
  collection_id: Generated<string | null>;
}

export interface DashboardTilesTable {
  id: string;
  dashboard_id: string;
  /** Reading order of the grid (row, then column). */
  position: number;
  /** Place on the 12-column grid, in cells (@seed/model, dashboard/layout.ts). */
  x: number;
  y: number;
  w: number;
  h: number;
  /** "chart", "stat" or "text"; config_json holds a stat's or text's settings. */
  kind: string;
  chart_id: string | null;
  dataset_id: string | null;
  config_json: string;
}

export interface AuditEventsTable {
  id: string;
  at: string;
  actor_id: string;
  actor_email: string;
  action: string;
  entity_type: string;
  entity_id: string;
  detail_json: string;
}

export interface StoreMetaTable {
  key: string;
  value: string;
}

export interface StoreDatabase {
  datasets: DatasetsTable;
  api_tokens: ApiTokensTable;
  data_sources: DataSourcesTable;
  charts: ChartsTable;
  dashboards: DashboardsTable;
  dashboard_tiles: DashboardTilesTable;
  audit_events: AuditEventsTable;
  store_meta: StoreMetaTable;
  sign_in_throttle: SignInThrottleTable;
  used_one_time_codes: UsedOneTimeCodesTable;
  page_cache_tags: PageCacheTagsTable;
  entity_versions: EntityVersionsTable;
  setup_tokens: SetupTokensTable;
  setup_claim: SetupClaimTable;
  dataset_tokens: DatasetTokensTable;
  dataset_push_requests: DatasetPushRequestsTable;
  jobs: JobsTable;
  reports: ReportsTable;
  report_recipients: ReportRecipientsTable;
  report_sends: ReportSendsTable;
  alerts: AlertsTable;
  alert_recipients: AlertRecipientsTable;
  alert_webhooks: AlertWebhooksTable;
  alert_events: AlertEventsTable;
  alert_deliveries: AlertDeliveriesTable;
  account_groups: AccountGroupsTable;
  account_group_members: AccountGroupMembersTable;
  collections: CollectionsTable;
  collection_grants: CollectionGrantsTable;
  row_limits: RowLimitsTable;
  account_attributes: AccountAttributesTable;
}

/** Groups of accounts (src/repo/groups.ts); better-auth keeps the accounts themselves. */
export interface AccountGroupsTable {
  id: string;
  name: string;
  /** normalGroupName(name) in lower case: one group per key. */
  name_key: string;
  /** "admin" when an admin made it, "sign-on" when a provider's claim first named it. */
  created_by: string;
  created_at: string;
}

/** Who is in each group, and whether an admin or the provider's claim put them there. */
export interface AccountGroupMembersTable {
  group_id: string;
  user_id: string;
  /** "admin" or "sign-on" (@seed/model groupMemberSources); one row per source. */
  source: string;
  added_at: string;
}

/** Collections of content (src/repo/collections.ts); what is in none is Shared. */
export interface CollectionsTable {
  id: string;
  name: string;
  /** nameKey(name) (@seed/model): one collection per key. */
  name_key: string;
  description: string;
  created_at: string;
  updated_at: string;
}

/** What each group may do in a collection: "view", "edit" or "manage" (@seed/model collectionLevels). */
export interface CollectionGrantsTable {
  collection_id: string;
  group_id: string;
  level: string;
}

/** A group's row limit on a dataset (src/repo/row-limits.ts). */
export interface RowLimitsTable {
  group_id: string;
  dataset_id: string;
  /** RowLimitConditions as JSON. */
  conditions_json: string;
  updated_at: string;
}

/** An account's attribute from its provider's claims (src/repo/row-limits.ts). */
export interface AccountAttributesTable {
  user_id: string;
  name: string;
  /** The attribute's values (text) as JSON. */
  values_json: string;
  updated_at: string;
}

/** Scheduled reports (src/repo/reports.ts): a published dashboard mailed on a schedule. */
export interface ReportsTable {
  id: string;
  name: string;
  owner_id: string;
  owner_email: string;
  dashboard_id: string;
  /** The dashboard link's filter part the report reads with ("range=last-30-days"). */
  filter_query: string;
  /** JSON of @seed/model's ReportSchedule. */
  schedule_json: string;
  /** 1 while the report goes out, 0 while it is paused. */
  enabled: number;
  /** ISO instant of the next send; null while paused. */
  next_run_at: string | null;
  /** The scheduled instant of the last run that ended, and when it ended. */
  last_due_at: string | null;
  last_run_at: string | null;
  /** sent, partial or failed (@seed/model reportRunStatuses); null before the first run. */
  last_status: string | null;
  last_error: string | null;
  version: number;
  created_at: string;
  updated_at: string;
}

/** A report's recipients, each with the token of their own unsubscribe link. */
export interface ReportRecipientsTable {
  report_id: string;
  address: string;
  /** The address's lower-case form: one recipient per report and key. */
  address_key: string;
  unsubscribe_token: string;
  unsubscribed_at: string | null;
}

/** Who a run of a report (its scheduled instant) was sent to: a retry sends nobody twice. */
export interface ReportSendsTable {
  report_id: string;
  due_at: string;
  address_key: string;
  sent_at: string;
  message_id: string | null;
}

/** Alerts (src/repo/alerts.ts): a number watched against a condition. */
export interface AlertsTable {
  id: string;
  name: string;
  owner_id: string;
  owner_email: string;
  /** JSON of @seed/model's AlertTarget. */
  target_json: string;
  /** The dataset the target reads (checked again after each write of its rows); null if gone. */
  dataset_id: string | null;
  /** JSON of @seed/model's AlertCondition. */
  condition_json: string;
  check_every_minutes: number;
  enabled: number;
  /** ok or firing (@seed/model AlertState). */
  state: string;
  snoozed_until: string | null;
  /** ISO instant of the next scheduled check; null while off. */
  next_check_at: string | null;
  last_checked_at: string | null;
  last_value: number | null;
  /** Why the last check could not read a value, or null. */
  last_error: string | null;
  version: number;
  created_at: string;
  updated_at: string;
}

export interface AlertRecipientsTable {
  alert_id: string;
  address: string;
  address_key: string;
  unsubscribe_token: string;
  unsubscribed_at: string | null;
}

/** Where an alert posts; the signing secret is derived from the server's secret and the id. */
export interface AlertWebhooksTable {
  id: string;
  alert_id: string;
  url: string;
  /** json, slack or teams. */
  format: string;
  position: number;
}

/** An alert's history: each time it fired or resolved, with the value seen. */
export interface AlertEventsTable {
  id: string;
  alert_id: string;
  /** fired or resolved. */
  kind: string;
  value: number | null;
  previous: number | null;
  at: string;
  /** 0 while snoozed: recorded, nobody told. */
  notify: number;
  /** @seed/model alertDeliveryStatuses. */
  delivery_status: string;
  delivery_error: string | null;
}

/** Who an event reached ("mail:<address key>", "webhook:<id>"): a retry reaches nobody twice. */
export interface AlertDeliveriesTable {
  event_id: string;
  destination: string;
  sent_at: string;
}

/** The embedded job queue (src/ops/jobs.ts); PostgreSQL's jobs are pg-boss's. */
export interface JobsTable {
  id: string;
  queue: string;
  /** What makes two jobs the same: one waiting or running job per queue and key. */
  key: string;
  data_json: string;
  /** created, retry (waiting after a failure), active, completed or failed (no tries left). */
  state: string;
  /** ISO instant the job is due (or due again after a failure). */
  run_at: string;
  attempts: number;
  /** While active: when its runner counts as gone and another may take the job. */
  locked_until: string | null;
  last_error: string | null;
  created_at: string;
  finished_at: string | null;
}

/** Push API tokens (src/repo/dataset-tokens.ts): each writes one dataset. */
/** Personal API tokens (src/repo/api-tokens.ts): each acts as its user, within its scope. */
export interface ApiTokensTable {
  id: string;
  user_id: string;
  user_email: string;
  name: string;
  /** "read" or "write" (@seed/model apiTokenScopes). */
  scope: string;
  /** SHA-256 of the whole token, hex; the token itself is shown once and never kept. */
  token_hash: string;
  /** The token's first characters ("seed_pat_ab12"), so a listed token can be told apart. */
  token_prefix: string;
  created_at: string;
  expires_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

export interface DatasetTokensTable {
  id: string;
  dataset_id: string;
  name: string;
  /** "append" or "replace" (replace may also append). */
  scope: string;
  /** SHA-256 of the whole token, hex; the token itself is shown once and never kept. */
  token_hash: string;
  /** The token's first characters ("seed_ab12"), so a listed token can be told apart. */
  token_prefix: string;
  created_by_id: string;
  created_by_email: string;
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
  revoked_at: string | null;
  /** Requests counted in the current rate window, and when that window began. */
  rate_count: number;
  rate_window_started_at: string | null;
}

/** A push's answer kept under its Idempotency-Key, so a retry is answered without writing. */
export interface DatasetPushRequestsTable {
  token_id: string;
  idempotency_key: string;
  /** SHA-256 of what was sent (format, mode, body): the same key with other content is refused. */
  fingerprint: string;
  status: number;
  response_json: string;
  created_at: string;
}

/** Every saved state of a chart or dashboard (src/repo/history.ts). */
export interface EntityVersionsTable {
  entity_type: string;
  entity_id: string;
  version: number;
  at: string;
  actor_id: string;
  actor_email: string;
  action: string;
  /** The state in the shape its update takes, as JSON. */
  snapshot_json: string;
  restored_from: number | null;
}

/** When each page-cache tag was last expired (src/ops/page-cache-tags.ts). */
export interface PageCacheTagsTable {
  tag: string;
  generation: number;
}

export interface SignInThrottleTable {
  /** "address:<ip>" or "account:<lower-case email>". */
  key: string;
  failures: number;
  window_started_at: string;
  last_failure_at: string;
}

export interface UsedOneTimeCodesTable {
  /** SHA-256 (hex) of what was used, e.g. "totp:<user id>:<code>"; never the code itself. */
  key_hash: string;
  /** ISO time after which the code could not be accepted anyway, so the row may go. */
  expires_at: string;
}

export interface SetupTokensTable {
  /** SHA-256 of the token, hex; the token itself is only ever printed. */
  token_hash: string;
  created_at: string;
}

export interface SetupClaimTable {
  id: string;
  claimed_at: string;
}
