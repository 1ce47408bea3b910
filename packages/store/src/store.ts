import path from "node:path";
import type {
  AppliedDashboardFilters,
  ChartInput,
  ChartPatch,
  ChartQueryInput,
  DashboardInput,
  DashboardLayoutInput,
  DashboardPatch,
  DatasetInput,
  DatasetPatch,
  LiveDatasetInput,
  SourceInput,
  SourcePatch,
  TileInput,
} from "@seed/model";
import { type Kysely, sql } from "kysely";
import {
  createDatasetToken,
  type DatasetToken,
  type DatasetTokenInput,
  listDatasetTokens,
  revokeDatasetToken,
} from "./access/dataset-tokens.js";
import type { Actor } from "./access/policy.js";
import {
  claimFirstAdmin,
  createSetupToken,
  endSetup,
  isSetupTokenValid,
  releaseFirstAdminClaim,
} from "./access/setup.js";
import {
  checkSignIn,
  clearSignInFailures,
  recordSignInFailure,
  type SignInAttempt,
  type SignInVerdict,
} from "./access/throttle.js";
import {
  type AuditEvent,
  type AuditEventFilter,
  type AuditEventInput,
  type AuditEventPage,
  getOverviewCounts,
  listAuditEvents,
  listAuditFilterChoices,
  type OverviewCounts,
  recordAuditEvent,
} from "./audit/queries.js";
import {
  currentPageCacheGeneration,
  expirePageCacheTags,
  pageCacheTagsGeneration,
} from "./cache/page-cache-tags.js";
import {
  type Chart,
  createChart,
  deleteChart,
  getChartIn,
  listCharts,
  restoreChartVersion,
  updateChart,
} from "./charts/queries.js";
import {
  addDashboardTile,
  createDashboard,
  type DashboardFilterColumns,
  deleteDashboard,
  getDashboard,
  getDashboardFilterColumns,
  listDashboards,
  listPublishedDashboards,
  publishDashboard,
  removeDashboardTile,
  restoreDashboardVersion,
  saveDashboardLayout,
  unpublishDashboard,
  updateDashboard,
} from "./dashboards/queries.js";
import type {
  DashboardStatus,
  DashboardSummary,
  DashboardWithTiles,
  RenderedDashboard,
} from "./dashboards/types.js";
import {
  type ImportIntoDatasetInput,
  type ImportNewDatasetInput,
  type ImportResult,
  importIntoDataset,
  importNewDataset,
} from "./datasets/import.js";
import { type DatasetPushInput, type DatasetPushResult, pushDatasetRows } from "./datasets/push.js";
import {
  createDataset,
  type Dataset,
  type DatasetRowEdits,
  type DatasetRowsPage,
  type DatasetWithRows,
  deleteDataset,
  editDatasetRows,
  getDatasetIn,
  getDatasetTableIn,
  listDatasetRowsIn,
  listDatasets,
  replaceDatasetRows,
  updateDataset,
} from "./datasets/queries.js";
import type { RowsPageOptions } from "./datasets/rows-table.js";
import type { DatasetTable } from "./datasets/table.js";
import { openDatabase, resolveDatabaseUrl } from "./db/open.js";
import {
  diffSnapshots,
  type EntityVersion,
  type EntityVersionWithSnapshot,
  getVersionIn,
  listVersions,
  type VersionChange,
  type VersionedEntity,
} from "./history/versions.js";
import type { AuditAction, RecordedActor, StoreContext } from "./internal.js";
import {
  type QueryObserver,
  type QueryResult,
  type RunQueryOptions,
  runDatasetQuery,
} from "./query/index.js";
import { getDashboardBySlug, getRenderedDashboard } from "./render/dashboard.js";
import {
  type EmbedAccess,
  type EmbedTarget,
  getChartEmbed,
  getEmbedAccess,
  type RenderedChartEmbed,
} from "./render/embeds.js";
import { seedDemoOnce } from "./seed.js";
import { SourcePools } from "./sources/connections.js";
import {
  type ConnectionTestResult,
  createLiveDataset,
  createSource,
  type DataSource,
  deleteSource,
  getSource,
  listSources,
  listSourceTables,
  type RemoteTable,
  testSourceConnection,
  updateSource,
} from "./sources/queries.js";
import { storeInternals } from "./store-internals.js";

export type StoreDialect = "sqlite" | "postgres";

export interface OpenStoreOptions {
  /**
   * postgres:// or postgresql:// selects PostgreSQL. Undefined falls back to the DATABASE_URL
   * environment variable; "" or null forces the SQLite file.
   */
  databaseUrl?: string | null;
  /** Folder for seed.db; defaults to SEED_DATA_DIR, else ./data under the working directory. */
  dataDir?: string;
  /** Seed the demo dashboards on first open (default true). */
  seedDemo?: boolean;
  /** Most PostgreSQL connections this process opens (default 10). */
  maxConnections?: number;
  /** Clock for timestamps; tests pin it, everything else leaves it alone. */
  now?: () => Date;
  /** Told how long every chart and stat query took, and whether it succeeded (for metrics). */
  observeQuery?: QueryObserver;
  /** The key of live sources' passwords; defaults to SEED_SOURCES_KEY, read when needed. */
  sourcesKey?: string;
}

/** What better-auth's `database` option accepts: a Kysely instance and its dialect name. */
export interface BetterAuthDatabase {
  // biome-ignore lint/suspicious/noExplicitAny: better-auth types this as Kysely<any>.
  db: Kysely<any>;
  type: StoreDialect;
}

/**
 * Everything the app keeps goes through these methods, each write with its audit event in the same
 * transaction. The raw database handle is not part of this API (tests reach it through
 * src/internals.ts, which the package does not export).
 */
export interface Store {
  readonly dialect: StoreDialect;
  /**
   * For better-auth's `database` option and its migrations only: auth keeps its own tables on
   * this connection. Nothing else may write through it.
   */
  readonly authDatabase: BetterAuthDatabase;
  /** Path of the SQLite file, or null on PostgreSQL. */
  readonly sqliteFile: string | null;

  listDatasets(): Promise<Dataset[]>;
  /** A dataset with at most `rowLimit` rows in insertion order (default: datasetLimits.maxRows). */
  getDataset(id: string, rowLimit?: number): Promise<DatasetWithRows | null>;
  /** One page of rows, sorted and filtered in the database. */
  listDatasetRows(id: string, options: RowsPageOptions): Promise<DatasetRowsPage | null>;
  /** The dataset's own table and columns, for the query engine. */
  getDatasetTable(id: string): Promise<DatasetTable | null>;
  /** Runs a chart query over a dataset in the database (see src/query). */
  runChartQuery(
    datasetId: string,
    query: ChartQueryInput,
    options?: RunQueryOptions,
  ): Promise<QueryResult>;
  /** Streams CSV into a dataset (replace or append), all or nothing; throws DatasetImportError. */
  importIntoDataset(input: ImportIntoDatasetInput, actor: Actor): Promise<ImportResult>;
  /** Creates a dataset from a CSV stream, all or nothing; throws DatasetImportError. */
  importNewDataset(input: ImportNewDatasetInput, actor: Actor): Promise<ImportResult>;
  createDataset(input: DatasetInput, actor: Actor): Promise<DatasetWithRows>;
  updateDataset(
    id: string,
    expectedVersion: number,
    patch: DatasetPatch,
    actor: Actor,
  ): Promise<DatasetWithRows>;
  replaceDatasetRows(
    id: string,
    expectedVersion: number,
    rows: ReadonlyArray<Record<string, unknown>>,
    actor: Actor,
  ): Promise<DatasetWithRows>;
  editDatasetRows(
    id: string,
    expectedVersion: number,
    edits: DatasetRowEdits,
    actor: Actor,
  ): Promise<Dataset>;
  deleteDataset(id: string, expectedVersion: number, actor: Actor): Promise<void>;

  /** A push API token for one dataset: the secret is returned this once, only its hash is kept. */
  createDatasetToken(
    input: DatasetTokenInput,
    actor: Actor,
  ): Promise<{ token: DatasetToken; secret: string }>;
  /** Writers only (content.write): who made which token, when it was last used. */
  listDatasetTokens(datasetId: string, actor: Actor): Promise<DatasetToken[]>;
  revokeDatasetToken(datasetId: string, tokenId: string, actor: Actor): Promise<DatasetToken>;
  /**
   * The push API: authenticates the bearer token, counts it against its rate limit, and writes
   * the rows all or nothing (replaying the first answer for a repeated Idempotency-Key). Throws
   * DatasetPushRefusal, or ValidationError for bad rows (each problem with its row and column).
   */
  pushDatasetRows(input: DatasetPushInput): Promise<DatasetPushResult>;

  /** Live PostgreSQL sources (src/sources): never with their passwords. */
  listSources(): Promise<DataSource[]>;
  getSource(id: string): Promise<DataSource | null>;
  /** Refused with a message naming SEED_SOURCES_KEY when that key is missing or malformed. */
  createSource(input: SourceInput, actor: Actor): Promise<DataSource>;
  /** A blank password keeps the stored one. */
  updateSource(
    id: string,
    expectedVersion: number,
    patch: SourcePatch,
    actor: Actor,
  ): Promise<DataSource>;
  /** Refused (InUseError naming them) while datasets read from the source. */
  deleteSource(id: string, expectedVersion: number, actor: Actor): Promise<void>;
  /** Connects with the given settings (blank password + sourceId: the stored one); never throws for remote failures. */
  testSourceConnection(
    input: SourcePatch & { sourceId?: string },
    actor: Actor,
  ): Promise<ConnectionTestResult>;
  /** The tables and views the source's user may read. */
  listSourceTables(sourceId: string, actor: Actor): Promise<RemoteTable[]>;
  /** Adds a remote table or view as a read-only live dataset, its columns from the catalog. */
  createLiveDataset(
    input: LiveDatasetInput,
    actor: Actor,
  ): Promise<{ id: string; note: string | null }>;

  listCharts(filter?: { datasetId?: string }): Promise<Chart[]>;
  getChart(id: string): Promise<Chart | null>;
  createChart(input: ChartInput, actor: Actor): Promise<Chart>;
  updateChart(id: string, expectedVersion: number, patch: ChartPatch, actor: Actor): Promise<Chart>;
  deleteChart(id: string, expectedVersion: number, actor: Actor): Promise<void>;

  listDashboards(filter?: { status?: DashboardStatus }): Promise<DashboardSummary[]>;
  listPublishedDashboards(): Promise<DashboardSummary[]>;
  getDashboard(id: string): Promise<DashboardWithTiles | null>;
  getDashboardBySlug(
    slug: string,
    options?: { includeDrafts?: boolean; filters?: AppliedDashboardFilters; filterQuery?: string },
  ): Promise<RenderedDashboard | null>;
  /** The columns a dashboard's filters may use (from its tiles' datasets). */
  getDashboardFilterColumns(id: string): Promise<DashboardFilterColumns>;
  /** Whether an embed may render and which origins may frame it (read by the web app's proxy). */
  /** The dashboard with this id, rendered (signed embed links name dashboards by id). */
  getRenderedDashboard(
    id: string,
    options?: { includeDrafts?: boolean },
  ): Promise<RenderedDashboard | null>;
  getEmbedAccess(
    target: EmbedTarget,
    options?: { includeDrafts?: boolean },
  ): Promise<EmbedAccess | null>;
  /** One chart for /embed/c/<id>: on a published dashboard, or any with `includeDrafts`. */
  getChartEmbed(
    chartId: string,
    options?: { includeDrafts?: boolean },
  ): Promise<RenderedChartEmbed | null>;
  createDashboard(input: DashboardInput, actor: Actor): Promise<DashboardWithTiles>;
  updateDashboard(
    id: string,
    expectedVersion: number,
    patch: DashboardPatch,
    actor: Actor,
  ): Promise<DashboardWithTiles>;
  addDashboardTile(
    id: string,
    expectedVersion: number,
    tile: TileInput,
    actor: Actor,
    options?: { position?: number },
  ): Promise<DashboardWithTiles>;
  removeDashboardTile(
    id: string,
    expectedVersion: number,
    tileId: string,
    actor: Actor,
  ): Promise<DashboardWithTiles>;
  /** Saves every tile's place at once: one version, one audit event. */
  saveDashboardLayout(
    id: string,
    expectedVersion: number,
    layout: DashboardLayoutInput,
    actor: Actor,
  ): Promise<DashboardWithTiles>;
  publishDashboard(id: string, expectedVersion: number, actor: Actor): Promise<DashboardWithTiles>;
  unpublishDashboard(
    id: string,
    expectedVersion: number,
    actor: Actor,
  ): Promise<DashboardWithTiles>;
  deleteDashboard(id: string, expectedVersion: number, actor: Actor): Promise<void>;

  listAuditEvents(filter?: AuditEventFilter): Promise<AuditEventPage>;
  listRecentActivity(limit?: number): Promise<AuditEvent[]>;
  /** Logs an event the store did not make itself, e.g. a better-auth user's role change. */
  recordAuditEvent(event: AuditEventInput): Promise<AuditEvent>;
  /** Distinct actors and actions in the log, for filter menus. */
  listAuditFilterChoices(): Promise<{ actors: RecordedActor[]; actions: AuditAction[] }>;
  getOverviewCounts(): Promise<OverviewCounts>;

  /** Whether a sign-in may be tried now, from the counters every instance shares. */
  checkSignIn(attempt: SignInAttempt): Promise<SignInVerdict>;
  recordSignInFailure(attempt: SignInAttempt): Promise<void>;
  /** After a successful sign-in: the account's failures are forgotten, the address's are not. */
  clearSignInFailures(account: string): Promise<void>;

  /** A new one-time setup token (printed by the server at start while no user exists). */
  createSetupToken(): Promise<string>;
  isSetupTokenValid(token: string): Promise<boolean>;
  /** Takes the one-time right to create the first admin; of racing callers one gets true. */
  claimFirstAdmin(): Promise<boolean>;
  releaseFirstAdminClaim(): Promise<void>;
  /** The first admin exists: every setup token stops working. */
  endSetup(): Promise<void>;

  /**
   * Runs `work` while holding the database-wide setup lock: a PostgreSQL advisory lock shared by
   * every instance on the database (on SQLite, setups of one file in this process queue). For
   * schema work outside the store's own migrations, such as better-auth's, so instances starting
   * together on an empty database migrate once. openStore takes the same lock.
   */
  runExclusive<T>(work: () => Promise<T>): Promise<T>;

  /** A chart's or dashboard's kept versions, newest first. */
  listVersions(entityType: VersionedEntity, id: string): Promise<EntityVersion[]>;
  /** One kept version with what the entity was then, or null. */
  getVersion(
    entityType: VersionedEntity,
    id: string,
    version: number,
  ): Promise<EntityVersionWithSnapshot | null>;
  /** What changed from version `from` to version `to` (null when either is not kept). */
  compareVersions(
    entityType: VersionedEntity,
    id: string,
    from: number,
    to: number,
  ): Promise<VersionChange[] | null>;
  /** Saves version `fromVersion` again as the next version (audited as chart.restore). */
  restoreChartVersion(
    id: string,
    expectedVersion: number,
    fromVersion: number,
    actor: Actor,
  ): Promise<Chart>;
  /** Saves version `fromVersion` again as the next version (audited as dashboard.restore). */
  restoreDashboardVersion(
    id: string,
    expectedVersion: number,
    fromVersion: number,
    actor: Actor,
  ): Promise<DashboardWithTiles>;

  /** The page cache's generation now: stored with each page the web app caches. */
  currentPageCacheGeneration(): Promise<number>;
  /** The latest generation at which any of `tags` was expired (0 if never). */
  pageCacheTagsGeneration(tags: readonly string[]): Promise<number>;
  /** Expires `tags` for every instance on this database; returns the new generation. */
  expirePageCacheTags(tags: readonly string[]): Promise<number>;

  /** One round trip to the database (for readiness checks); throws when it is unreachable. */
  ping(): Promise<void>;

  /** Runs pending migrations (openStore already does); returns the names it applied. */
  migrate(): Promise<string[]>;
  /** Closes the SQLite file or ends the pg pool. */
  close(): Promise<void>;
}

/**
 * Opens the store: PostgreSQL when a postgres URL is given (or in DATABASE_URL), otherwise the
 * SQLite file <dataDir>/seed.db. Migrates, and seeds the demo dashboards on first open.
 */
export async function openStore(options: OpenStoreOptions = {}): Promise<Store> {
  const databaseUrl = resolveDatabaseUrl(options.databaseUrl);
  const opened = openDatabase({
    databaseUrl,
    dataDir: options.dataDir ?? process.env.SEED_DATA_DIR ?? path.join(process.cwd(), "data"),
    maxConnections: options.maxConnections,
  });
  const { db, runExclusive } = opened;
  const dialect = opened.dialect.engine;
  const sqliteFile = opened.sqliteFile;
  const ctx: StoreContext = {
    db,
    now: options.now ?? (() => new Date()),
    bulk: opened.bulk,
    observeQuery: options.observeQuery,
    sources: new SourcePools(),
    sourcesKey: () => options.sourcesKey ?? process.env.SEED_SOURCES_KEY,
  };
  const prepare = async () => {
    await opened.migrate(true);
    if (options.seedDemo !== false) await seedDemoOnce(ctx);
  };
  try {
    await runExclusive(prepare);
  } catch (error) {
    await opened.failed(error);
  }

  const store: Store = {
    dialect,
    authDatabase: { db, type: dialect },
    sqliteFile,

    listDatasets: () => listDatasets(ctx),
    getDataset: (id, rowLimit) => getDatasetIn(db, id, rowLimit),
    listDatasetRows: (id, rowsOptions) => listDatasetRowsIn(db, id, rowsOptions),
    getDatasetTable: (id) => getDatasetTableIn(db, id),
    runChartQuery: (datasetId, query, queryOptions) =>
      runDatasetQuery(ctx, db, datasetId, query, {
        observe: options.observeQuery,
        ...queryOptions,
      }),
    importIntoDataset: (input, actor) => importIntoDataset(ctx, input, actor),
    importNewDataset: (input, actor) => importNewDataset(ctx, input, actor),
    createDataset: (input, actor) => createDataset(ctx, input, actor),
    updateDataset: (id, version, patch, actor) => updateDataset(ctx, id, version, patch, actor),
    replaceDatasetRows: (id, version, rows, actor) =>
      replaceDatasetRows(ctx, id, version, rows, actor),
    editDatasetRows: (id, version, edits, actor) => editDatasetRows(ctx, id, version, edits, actor),
    deleteDataset: (id, version, actor) => deleteDataset(ctx, id, version, actor),
    createDatasetToken: (input, actor) => createDatasetToken(ctx, input, actor),
    listDatasetTokens: (datasetId, actor) => listDatasetTokens(ctx, datasetId, actor),
    revokeDatasetToken: (datasetId, tokenId, actor) =>
      revokeDatasetToken(ctx, datasetId, tokenId, actor),
    pushDatasetRows: (input) => pushDatasetRows(ctx, input),

    listSources: () => listSources(ctx),
    getSource: (id) => getSource(ctx, id),
    createSource: (input, actor) => createSource(ctx, input, actor),
    updateSource: (id, version, patch, actor) => updateSource(ctx, id, version, patch, actor),
    deleteSource: (id, version, actor) => deleteSource(ctx, id, version, actor),
    testSourceConnection: (input, actor) => testSourceConnection(ctx, input, actor),
    listSourceTables: (sourceId, actor) => listSourceTables(ctx, sourceId, actor),
    createLiveDataset: (input, actor) => createLiveDataset(ctx, input, actor),

    listCharts: (filter) => listCharts(ctx, filter),
    getChart: (id) => getChartIn(db, id),
    createChart: (input, actor) => createChart(ctx, input, actor),
    updateChart: (id, version, patch, actor) => updateChart(ctx, id, version, patch, actor),
    deleteChart: (id, version, actor) => deleteChart(ctx, id, version, actor),

    listDashboards: (filter) => listDashboards(ctx, filter),
    listPublishedDashboards: () => listPublishedDashboards(ctx),
    getDashboard: (id) => getDashboard(ctx, id),
    getDashboardBySlug: (slug, slugOptions) => getDashboardBySlug(ctx, slug, slugOptions),
    getDashboardFilterColumns: (id) => getDashboardFilterColumns(ctx, id),
    getRenderedDashboard: (id, renderOptions) => getRenderedDashboard(ctx, id, renderOptions),
    getEmbedAccess: (target, embedOptions) => getEmbedAccess(ctx, target, embedOptions),
    getChartEmbed: (chartId, embedOptions) => getChartEmbed(ctx, chartId, embedOptions),
    createDashboard: (input, actor) => createDashboard(ctx, input, actor),
    updateDashboard: (id, version, patch, actor) => updateDashboard(ctx, id, version, patch, actor),
    addDashboardTile: (id, version, tile, actor, tileOptions) =>
      addDashboardTile(ctx, id, version, tile, actor, tileOptions),
    removeDashboardTile: (id, version, tileId, actor) =>
      removeDashboardTile(ctx, id, version, tileId, actor),
    saveDashboardLayout: (id, version, layout, actor) =>
      saveDashboardLayout(ctx, id, version, layout, actor),
    publishDashboard: (id, version, actor) => publishDashboard(ctx, id, version, actor),
    unpublishDashboard: (id, version, actor) => unpublishDashboard(ctx, id, version, actor),
    deleteDashboard: (id, version, actor) => deleteDashboard(ctx, id, version, actor),

    listAuditEvents: (filter) => listAuditEvents(ctx, filter),
    listRecentActivity: async (limit = 10) => (await listAuditEvents(ctx, { limit })).events,
    recordAuditEvent: (event) => recordAuditEvent(ctx, event),
    listAuditFilterChoices: () => listAuditFilterChoices(ctx),
    getOverviewCounts: () => getOverviewCounts(ctx),

    checkSignIn: (attempt) => checkSignIn(ctx, attempt),
    recordSignInFailure: (attempt) => recordSignInFailure(ctx, attempt),
    clearSignInFailures: (account) => clearSignInFailures(ctx, account),

    createSetupToken: () => createSetupToken(ctx),
    isSetupTokenValid: (token) => isSetupTokenValid(ctx, token),
    claimFirstAdmin: () => claimFirstAdmin(ctx),
    releaseFirstAdminClaim: () => releaseFirstAdminClaim(ctx),
    endSetup: () => endSetup(ctx),

    listVersions: (entityType, id) => listVersions(ctx, entityType, id),
    getVersion: (entityType, id, version) => getVersionIn(db, entityType, id, version),
    compareVersions: async (entityType, id, from, to) => {
      const [before, after] = await Promise.all([
        getVersionIn(db, entityType, id, from),
        getVersionIn(db, entityType, id, to),
      ]);
      return before && after ? diffSnapshots(before.snapshot, after.snapshot) : null;
    },
    restoreChartVersion: (id, version, fromVersion, actor) =>
      restoreChartVersion(ctx, id, version, fromVersion, actor),
    restoreDashboardVersion: (id, version, fromVersion, actor) =>
      restoreDashboardVersion(ctx, id, version, fromVersion, actor),

    currentPageCacheGeneration: () => currentPageCacheGeneration(ctx),
    pageCacheTagsGeneration: (tags) => pageCacheTagsGeneration(ctx, tags),
    expirePageCacheTags: (tags) => expirePageCacheTags(ctx, tags),

    runExclusive,
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    migrate: () => opened.migrate(),
    close: async () => {
      await ctx.sources.closeAll();
      await db.destroy();
    },
  };
  storeInternals.set(store, { db, database: opened.handle });
  return store;
}
