// Read-only: what an embed may show and who may frame it (/embed/d, /embed/c, signed links).
import { NotFoundError, type RefreshSeconds } from "@seed/model";
import type { EmbedKind } from "../access/signed-links.js";
import type { Executor, StoreContext } from "../context.js";
import type { QueryResult } from "../engine/result.js";
import { tileError } from "../engine/tile-error.js";
import { withChartEvents } from "../repo/chart-events.js";
import { type Chart, toChart } from "../repo/charts.js";
import { readable, type SeenBy } from "../repo/collections.js";
import { storedEmbedOrigins, toDashboard } from "../repo/dashboards/records.js";
import type { Dashboard } from "../repo/dashboards/types.js";
import { type DatasetTarget, resolveDatasetTarget } from "../repo/sources/target.js";
import { liveCacheSecondsOf } from "./dashboard.js";

/** What an embed response needs before rendering: may it render, and who may frame it. */
export interface EmbedAccess {
  /** The CSP frame-ancestors allowlist; empty means no page may frame it. */
  embedOrigins: string[];
  /** A dashboard's current slug (its embed path's segment); null for a chart. */
  slug: string | null;
}

/** Which embed: a dashboard by its slug (public paths) or id (signed links), a chart by id. */
export type EmbedTarget = { kind: "dashboard"; slug: string } | { kind: EmbedKind; id: string };

/** A chart shown alone (/embed/c/<id>), with the settings of the dashboards that hold it. */
export interface RenderedChartEmbed {
  chart: Chart;
  result: QueryResult | null;
  error: string | null;
  refreshSeconds: RefreshSeconds | null;
  /** The live source's cache time-to-live when the chart reads one; null otherwise. */
  liveCacheSeconds: number | null;
}

/**
 * The dashboards a chart embed takes its settings from: the published ones holding the chart,
 * or with `includeDrafts` (a signed link) every one holding it; ordered by slug.
 */
async function dashboardsHoldingChart(
  trx: Executor,
  chartId: string,
  includeDrafts: boolean,
): Promise<Dashboard[]> {
  let query = trx
    .selectFrom("dashboards")
    .selectAll("dashboards")
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom("dashboard_tiles")
          .select("dashboard_tiles.id")
          .whereRef("dashboard_tiles.dashboard_id", "=", "dashboards.id")
          .where("dashboard_tiles.chart_id", "=", chartId),
      ),
    )
    .orderBy("slug");
  if (!includeDrafts) query = query.where("status", "=", "published");
  return (await query.execute()).map(toDashboard);
}

/** Every origin any of the dashboards allows, once each. */
function unionOfOrigins(dashboards: readonly Dashboard[]): string[] {
  return [...new Set(dashboards.flatMap((dashboard) => dashboard.embedOrigins))];
}

/**
 * One cheap read for the embed routes' headers. A dashboard embed: the published dashboard with
 * this slug (any with `includeDrafts`). A chart embed: a chart on at least one published
 * dashboard, framed by the union of their allowlists; with `includeDrafts` any existing chart,
 * framed by the union over every dashboard holding it. Null when there is nothing to embed.
 */
export async function getEmbedAccess(
  ctx: StoreContext,
  target: EmbedTarget,
  options: { includeDrafts?: boolean } = {},
): Promise<EmbedAccess | null> {
  const includeDrafts = options.includeDrafts ?? false;
  if (target.kind === "dashboard") {
    let query = ctx.db.selectFrom("dashboards").select(["embed_origins_json", "slug"]);
    // by id for a signed link, by slug for the public path
    query =
      "id" in target ? query.where("id", "=", target.id) : query.where("slug", "=", target.slug);
    if (!includeDrafts) query = query.where("status", "=", "published");
    const row = await query.executeTakeFirst();
    return row
      ? { embedOrigins: storedEmbedOrigins(row.embed_origins_json), slug: row.slug }
      : null;
  }
  const chart = await ctx.db
    .selectFrom("charts")
    .select("id")
    .where("id", "=", target.id)
    .executeTakeFirst();
  if (!chart) return null;
  const holders = await dashboardsHoldingChart(ctx.db, target.id, includeDrafts);
  if (holders.length === 0 && !includeDrafts) return null;
  return { embedOrigins: unionOfOrigins(holders), slug: null };
}

/**
 * A chart for /embed/c/<id>, under the rule of getEmbedAccess. It is drawn in the time zone of
 * the first of its dashboards by slug (UTC when none), and refreshes at the shortest interval
 * any of them sets.
 */
export async function getChartEmbed(
  ctx: StoreContext,
  chartId: string,
  options: { includeDrafts?: boolean } & SeenBy = {},
): Promise<RenderedChartEmbed | null> {
  return ctx.db
    .transaction()
    .setAccessMode("read only")
    .execute(async (trx) => {
      // Drafts are shown to those who see the chart; anyone else gets what is published only.
      const includeDrafts =
        (options.includeDrafts ?? false) && (await readable(trx, options, "chart", chartId));
      const row = await trx
        .selectFrom("charts")
        .selectAll()
        .where("id", "=", chartId)
        .executeTakeFirst();
      if (!row) return null;
      const holders = await dashboardsHoldingChart(trx, chartId, includeDrafts);
      if (holders.length === 0 && !includeDrafts) return null;
      const chart = toChart(row);
      const intervals = holders.flatMap((holder) =>
        holder.refreshSeconds === null ? [] : [holder.refreshSeconds],
      );
      const refreshSeconds =
        intervals.length > 0 ? (Math.min(...intervals) as RefreshSeconds) : null;
      const queryOptions = {
        timeZone: holders[0]?.timeZone ?? "UTC",
        now: ctx.now(),
        observe: ctx.observeQuery,
      };
      let target: DatasetTarget | null = null;
      try {
        // A chart a published dashboard shows is everyone's; a draft is read as its reader may.
        const shownPublicly =
          !includeDrafts || (await dashboardsHoldingChart(trx, chartId, false)).length > 0;
        target = await resolveDatasetTarget(
          ctx,
          trx,
          chart.datasetId,
          shownPublicly ? {} : options,
        );
        const table = target;
        if (!table) throw new NotFoundError("dataset", chart.datasetId);
        const result = await withChartEvents(
          ctx,
          trx,
          chart,
          await table.query(chart.query, queryOptions),
          shownPublicly ? {} : options,
          queryOptions,
        );
        return {
          chart,
          result,
          error: null,
          refreshSeconds,
          liveCacheSeconds: liveCacheSecondsOf([target]),
        };
      } catch (error) {
        const liveCacheSeconds = liveCacheSecondsOf([target]);
        return { chart, result: null, error: tileError(error), refreshSeconds, liveCacheSeconds };
      }
    });
}

export const embedOperations = {
  /** Whether an embed may render and which origins may frame it (read by the web app's proxy). */
  getEmbedAccess,
  getChartEmbed,
};
