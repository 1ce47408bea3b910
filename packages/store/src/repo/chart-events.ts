// A chart's result with the events its options read from a dataset (annotationSource): read as
// the reader may see that dataset, within the days the result shows. A missing or unreadable
// source is named in the result's notes; the chart itself is drawn either way.

import { type ChartOptions, type ChartQuery, chartLimits, subDayGrains } from "@seed/model";
import type { Executor, StoreContext } from "../context.js";
import { Compiler } from "../engine/compile.js";
import { maxEventLabel, readEvents, shownDays } from "../engine/events.js";
import type { QueryResult } from "../engine/result.js";
import { tileError } from "../engine/tile-error.js";
import { readable, type SeenBy } from "./collections.js";
import { resolveDatasetTarget } from "./sources/target.js";

export async function withChartEvents(
  ctx: StoreContext,
  trx: Executor,
  chart: { query: Pick<ChartQuery, "x">; options: Pick<ChartOptions, "annotationSource"> },
  result: QueryResult,
  reader: SeenBy,
  options: { timeZone: string; now: Date },
): Promise<QueryResult> {
  const source = chart.options.annotationSource;
  if (!source) return result;
  const days = shownDays(chart.query, result, options.timeZone);
  if (!days) return result;
  const note = (sentence: string) => ({ ...result, notes: [...result.notes, sentence] });
  if (!(await readable(trx, reader, "dataset", source.datasetId))) {
    return note("This chart's events come from a dataset you cannot see; they are not drawn.");
  }
  const target = await resolveDatasetTarget(ctx, trx, source.datasetId, reader);
  if (!target) return note("The dataset of this chart's events no longer exists; none are drawn.");
  const grain = chart.query.x.grain;
  const subDay = grain === undefined ? result.x.type === "timestamp" : subDayGrains.includes(grain);
  try {
    const { events, total, cut } = await target.run((executor, table) =>
      readEvents(
        new Compiler(executor, table, options.timeZone, options.now.getTime()),
        source,
        days,
        { timeZone: options.timeZone, subDay },
      ),
    );
    const notes = [...result.notes];
    if (total > events.length && total > chartLimits.maxSourcedAnnotations) {
      notes.push(
        `Showing the first ${chartLimits.maxSourcedAnnotations.toLocaleString("en-US")} of ${total.toLocaleString("en-US")} events in this range.`,
      );
    }
    if (cut > 0) {
      notes.push(
        `${cut === 1 ? "One event's text was" : `${cut} events' texts were`} cut to ${maxEventLabel} characters.`,
      );
    }
    return { ...result, annotations: events, notes };
  } catch (error) {
    return note(`This chart's events could not be read: ${tileError(error)}`);
  }
}
