export type { Actor, PolicyTarget } from "./access/policy.js";
export { setupTokenLifetimeMs } from "./access/setup.js";
export type { EmbedKind } from "./access/signed-links.js";
export {
  type EmbedLinkSubject,
  type EmbedLinkVerdict,
  embedLinkKey,
  embedLinkLimits,
  signEmbedLink,
  verifyEmbedLink,
} from "./access/signed-links.js";
export {
  accountDelayMs,
  type SignInAttempt,
  type SignInVerdict,
  signInThrottlePolicy,
} from "./access/throttle.js";
export type { AuditAction, RecordedActor, UserAuditAction } from "./context.js";
export { type DatasetTable, datasetTableName, type TableColumn } from "./db/dataset-table.js";
export { migrations } from "./db/migrations.js";
export type { KeyedRow, RowsPageOptions } from "./db/rows-table.js";
export type { StoreDatabase } from "./db/schema.js";
export {
  createMailer,
  type DeliveryOutcome,
  describeMailSettings,
  type MailAttachment,
  type Mailer,
  type MailImage,
  type MailMessage,
  type MailSettings,
  MailSettingsError,
  mailSettingsFromEnv,
  mailSubject,
} from "./delivery/mail.js";
export {
  type AllowedNetworks,
  addressRefusal,
  parseAllowedNetworks,
  type Resolve,
  type ResolvedAddress,
} from "./delivery/public-address.js";
export {
  callWebhook,
  type DeliveryEvent,
  type WebhookCall,
  webhookBody,
  webhookSignature,
  webhookSignatureHeader,
} from "./delivery/webhook.js";
export {
  parseQuery,
  QueryError,
  type QueryObserver,
  type QueryResult,
  type QueryResultColumn,
  type QueryTiming,
  type RunQueryOptions,
} from "./engine/index.js";
export { runStat, type StatQuery, type StatValue } from "./engine/stat.js";
export {
  BackupError,
  type BackupResult,
  backupDatabase,
  type DatabaseLocation,
  restoreDatabase,
} from "./ops/backup.js";
export {
  defaultJobPolicy,
  type Job,
  type JobHandler,
  type JobPolicy,
  type JobQueue,
  type JobRequest,
  type JobStatus,
} from "./ops/jobs.js";
export {
  type AnyKysely,
  type MigratedSequence,
  type MigratedTable,
  type MigrateToPostgresOptions,
  type MigrateToPostgresResult,
  MigrationRefusedError,
  MigrationVerificationError,
  migrateSqliteToPostgres,
} from "./ops/migrate-to-postgres.js";
export { pageCacheTagLimits } from "./ops/page-cache-tags.js";
export {
  type ProvisionedFile,
  type ProvisionReport,
  provisioningActor,
  provisioningLimits,
} from "./ops/provision.js";
export { demoDashboardSlug, draftDemoDashboardSlug, systemActor } from "./ops/seed.js";
export type { EmbedAccess, EmbedTarget, RenderedChartEmbed } from "./render/embeds.js";
export type {
  Alert,
  AlertCheck,
  AlertDeliveryOutcome,
  AlertDeliveryPlan,
  AlertEvent,
  AlertRecipient,
  AlertTargetChoices,
  AlertWebhook,
  SavedAlert,
} from "./repo/alerts.js";
export {
  type ApiToken,
  type ApiTokenGrant,
  type ApiTokenInput,
  apiTokenPrefix,
} from "./repo/api-tokens.js";
export type {
  AuditEvent,
  AuditEventFilter,
  AuditEventInput,
  AuditEventPage,
  OverviewCounts,
} from "./repo/audit.js";
export { type Chart, chartAlreadyIs } from "./repo/charts.js";
export type {
  Collection,
  CollectionAccess,
  CollectionGrant,
  RecordPlace,
} from "./repo/collections.js";
export type {
  ExportedDashboardFile,
  ImportedDashboardFile,
} from "./repo/dashboards/file.js";
export type { DashboardFilterColumns } from "./repo/dashboards/filters.js";
export type {
  CategoryDrill,
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
  TileCrossFilter,
  TileDrill,
  TimeDrill,
} from "./repo/dashboards/types.js";
export {
  type DatasetToken,
  type DatasetTokenInput,
  datasetTokenPrefix,
} from "./repo/dataset-tokens.js";
export {
  type CsvDataset,
  type CsvEncoding,
  type CsvLimits,
  type CsvParseOptions,
  type CsvParseResult,
  type CsvProblem,
  type CsvProblemCode,
  defaultCsvLimits,
  parseCsvDataset,
} from "./repo/datasets/csv.js";
export { parseCsvBytes } from "./repo/datasets/csv-bytes.js";
export type {
  Dataset,
  DatasetRowsPage,
  DatasetWithRows,
  LiveDatasetOrigin,
} from "./repo/datasets/datasets.js";
export type {
  ImportIntoDatasetInput,
  ImportMode,
  ImportNewDatasetInput,
  ImportProgress,
  ImportResult,
} from "./repo/datasets/import.js";
export type { ColumnReading } from "./repo/datasets/import-columns.js";
export {
  type CsvSource,
  DatasetImportError,
  type ImportFormat,
  importFormats,
} from "./repo/datasets/import-input.js";
export {
  type ImportPreview,
  type ImportPreviewInput,
  type PreviewRow,
  previewSampleRows,
  previewShownRows,
} from "./repo/datasets/import-preview.js";
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
} from "./repo/datasets/push.js";
export type { DatasetRowEdits } from "./repo/datasets/row-edits.js";
export type { AccountGroup, GroupMembership } from "./repo/groups.js";
export type {
  EntityVersion,
  EntityVersionWithSnapshot,
  VersionChange,
  VersionedEntity,
} from "./repo/history.js";
export type { MailKind, MailSubscription } from "./repo/recipients.js";
export type {
  Report,
  ReportRecipient,
  ReportRunOutcome,
  ReportRunPlan,
  ReportRunTarget,
} from "./repo/reports.js";
export { limitedQuestionReason, limitedSqlReason, type RowLimit } from "./repo/row-limits.js";
export type { ConnectionTestResult, RemoteTable } from "./repo/sources/remote.js";
export { sourcesKeyProblem, sourcesKeyVariable } from "./repo/sources/secret.js";
export type { DataSource } from "./repo/sources/sources.js";
export {
  type BetterAuthDatabase,
  type OpenStoreOptions,
  openStore,
  type Store,
  type StoreDialect,
} from "./store.js";
