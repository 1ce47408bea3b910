export {
  type DatasetToken,
  type DatasetTokenInput,
  datasetTokenPrefix,
} from "./access/dataset-tokens.js";
export type { Actor, PolicyTarget } from "./access/policy.js";
export { setupTokenLifetimeMs } from "./access/setup.js";
export {
  accountDelayMs,
  type SignInAttempt,
  type SignInVerdict,
  signInThrottlePolicy,
} from "./access/throttle.js";
export type {
  AuditEvent,
  AuditEventFilter,
  AuditEventInput,
  AuditEventPage,
  OverviewCounts,
} from "./audit/queries.js";
export {
  BackupError,
  type BackupResult,
  backupDatabase,
  type DatabaseLocation,
  restoreDatabase,
} from "./backup.js";
export { pageCacheTagLimits } from "./cache/page-cache-tags.js";
export type { Chart } from "./charts/queries.js";
export {
  type CsvDataset,
  type CsvLimits,
  type CsvParseOptions,
  type CsvParseResult,
  type CsvProblem,
  type CsvProblemCode,
  defaultCsvLimits,
  parseCsvDataset,
} from "./csv.js";
export type { DashboardFilterColumns } from "./dashboards/queries.js";
export type {
  ChartTile,
  Dashboard,
  DashboardCategoryFilter,
  DashboardStatus,
  DashboardSummary,
  DashboardTile,
  DashboardWithTiles,
  RenderedChartTile,
  RenderedDashboard,
  RenderedStatTile,
  RenderedTile,
  StatTile,
  TextTile,
} from "./dashboards/types.js";
export {
  type CsvSource,
  DatasetImportError,
  type ImportIntoDatasetInput,
  type ImportMode,
  type ImportNewDatasetInput,
  type ImportProgress,
  type ImportResult,
} from "./datasets/import.js";
export {
  type DatasetPushAnswer,
  type DatasetPushInput,
  DatasetPushRefusal,
  type DatasetPushResult,
  type PushFormat,
  type PushMode,
  type PushRefusalReason,
  pushRefusalOf,
  tokenActorPrefix,
} from "./datasets/push.js";
export type {
  Dataset,
  DatasetRowEdits,
  DatasetRowsPage,
  DatasetWithRows,
  LiveDatasetOrigin,
} from "./datasets/queries.js";
export type { KeyedRow, RowsPageOptions } from "./datasets/rows-table.js";
export {
  type DatasetColumn as DatasetTableColumn,
  type DatasetColumnType,
  type DatasetTable,
  datasetTableName,
} from "./datasets/table.js";
export { migrations } from "./db/migrations.js";
export type { StoreDatabase } from "./db/schema.js";
export {
  type EmbedLinkSubject,
  type EmbedLinkVerdict,
  embedLinkKey,
  embedLinkLimits,
  signEmbedLink,
  verifyEmbedLink,
} from "./embeds/signed-links.js";
export type {
  EntityVersion,
  EntityVersionWithSnapshot,
  VersionChange,
  VersionedEntity,
} from "./history/versions.js";
export type { AuditAction, RecordedActor, UserAuditAction } from "./internal.js";
export {
  type AnyKysely,
  type MigratedSequence,
  type MigratedTable,
  type MigrateToPostgresOptions,
  type MigrateToPostgresResult,
  MigrationRefusedError,
  MigrationVerificationError,
  migrateSqliteToPostgres,
} from "./migrate-to-postgres.js";
export {
  parseQuery,
  QueryError,
  type QueryObserver,
  type QueryResult,
  type QueryResultColumn,
  type QueryTiming,
  type RunQueryOptions,
} from "./query/index.js";
export { runStat, type StatQuery, type StatValue } from "./query/stat.js";
export type {
  EmbedAccess,
  EmbedKind,
  EmbedTarget,
  RenderedChartEmbed,
} from "./render/embeds.js";
export { demoDashboardSlug, draftDemoDashboardSlug, systemActor } from "./seed.js";
export type { ConnectionTestResult, DataSource, RemoteTable } from "./sources/queries.js";
export { sourcesKeyProblem, sourcesKeyVariable } from "./sources/secret.js";
export {
  type BetterAuthDatabase,
  type OpenStoreOptions,
  openStore,
  type Store,
  type StoreDialect,
} from "./store.js";
