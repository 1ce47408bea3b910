import { appliedFilterQuery, describeAppliedRange, hasAppliedFilters } from "@seed/model";
import type { DeliveryOutcome, Mailer, RenderedTile, Store } from "@seed/store";
import { statTileWords } from "@seed/ui";
import { chartView } from "@/components/chart-view";
import { reportChartSvg } from "@/components/server-chart-svg";
import { statFigures } from "@/components/stat-figures";
import { type Report, renderCharts, reportEmail, reportPdf } from "./report-render";

// One run of a scheduled report: the published dashboard read with the report's filters, drawn
// once, and mailed to each recipient on their own (each with their own unsubscribe link).
// Recipients already sent in an earlier try of the same run are skipped, so a retry after a
// crash or a failed recipient never mails anyone twice.

export interface ReportRun {
  dashboardSlug: string;
  /** The report's filters as a dashboard link writes them ("range=last-30-days&region=North"). */
  filterQuery: string;
  recipients: readonly string[];
  /** The schedule in words ("Every Monday at 08:00 (Europe/Paris)"). */
  scheduleText: string;
  /** The app's public address, for the link back. */
  baseUrl: string;
  unsubscribeUrl: (recipient: string) => string;
  /** Recipients an earlier try of this run has sent to. */
  alreadySent?: ReadonlySet<string>;
  /** Told as each recipient is sent (with the message's id), so the caller keeps the mark before the next. */
  onSent?: (recipient: string, messageId: string) => Promise<void>;
  now?: Date;
}

export interface ReportRunResult {
  sent: string[];
  failed: { recipient: string; outcome: Extract<DeliveryOutcome, { ok: false }> }[];
  /** Why nothing was sent at all (the dashboard is gone or unpublished). */
  missing: string | null;
}

const chartWidth = 640;
const chartHeight = 280;

/** A dashboard's tiles as a report holds them: the stats in words, each chart drawn (or why not). */
export function reportTiles(tiles: readonly RenderedTile[]): Pick<Report, "stats" | "charts"> {
  return {
    stats: tiles.flatMap((tile) =>
      tile.kind === "stat" ? [statTileWords(statFigures(tile))] : [],
    ),
    charts: tiles.flatMap((tile) => {
      if (tile.kind !== "chart") return [];
      const svg = reportChartSvg(chartView(tile.chart), tile.result, chartWidth, chartHeight);
      return [
        {
          title: tile.chart.title,
          svg: svg ?? null,
          emptyReason: tile.error ?? "No data to draw.",
        },
      ];
    }),
  };
}

export async function sendReport(
  store: Store,
  mailer: Mailer,
  run: ReportRun,
): Promise<ReportRunResult> {
  const rendered = await store.getDashboardBySlug(run.dashboardSlug, {
    filterQuery: run.filterQuery,
  });
  if (!rendered) {
    return {
      sent: [],
      failed: [],
      missing: `The dashboard ${run.dashboardSlug} is not published.`,
    };
  }
  const applied = rendered.filterBar.applied;
  // Only the filters that applied go into the link and the words: nothing the data did not take.
  const query = appliedFilterQuery(applied);
  const link = `${run.baseUrl.replace(/\/+$/, "")}/d/${encodeURIComponent(rendered.dashboard.slug)}${query ? `?${query}` : ""}`;
  const filterWords = hasAppliedFilters(applied)
    ? [
        describeAppliedRange(applied.range),
        ...Object.entries(applied.categories).map(
          ([column, values]) => `${column}: ${values.join(", ")}`,
        ),
      ].join(" · ")
    : "";
  const when = (run.now ?? new Date()).toISOString().slice(0, 16).replace("T", " ");
  const base: Report = {
    title: rendered.dashboard.title,
    subtitle: [run.scheduleText, filterWords, `Data as of ${when} UTC`].filter(Boolean).join(" · "),
    link,
    unsubscribeUrl: "",
    ...reportTiles(rendered.tiles),
  };
  const images = renderCharts(base, 2);
  const pdf = Buffer.from(await reportPdf(base, images));
  const result: ReportRunResult = { sent: [], failed: [], missing: null };
  for (const recipient of run.recipients) {
    if (run.alreadySent?.has(recipient)) continue;
    const unsubscribeUrl = run.unsubscribeUrl(recipient);
    const email = reportEmail({ ...base, unsubscribeUrl }, images);
    const outcome = await mailer.send({
      to: recipient,
      subject: `${rendered.dashboard.title} (${when.slice(0, 10)})`,
      text: email.text,
      html: email.html,
      images: images.flatMap((image) =>
        image.cid && image.png
          ? [{ cid: image.cid, filename: `${image.cid}.png`, content: image.png }]
          : [],
      ),
      attachments: [
        {
          filename: `${rendered.dashboard.slug}.pdf`,
          contentType: "application/pdf",
          content: pdf,
        },
      ],
      unsubscribeUrl,
    });
    if (outcome.ok) {
      result.sent.push(recipient);
      await run.onSent?.(recipient, outcome.id);
    } else {
      result.failed.push({ recipient, outcome });
    }
  }
  return result;
}
