"use server";

import {
  type Aggregation,
  type DashboardLayoutInput,
  type IconName,
  jsonInputLimits,
  type RefreshSeconds,
  readBoundedJson,
  slugify,
  type ThresholdRule,
  type TileInput,
} from "@seed/model";
import type { EmbedKind } from "@seed/store";
import { createElement } from "react";
import { z } from "zod";
import type { ContentFormState } from "@/components/admin/content-form-state";
import { readNumberFormat } from "@/components/admin/number-format-input";
import { seenBy, storeErrorState } from "@/components/admin/store-errors";
import { composerTile, TileContent } from "@/components/dashboard-tile";
import type { TileChangeState } from "@/features/dashboard-editor/editor-state";
import { type FormState, fieldErrorsFromZod, formText } from "@/lib/form-state";
import { signedEmbedPath } from "@/server/embed-links";
import {
  type ActionContext,
  type ActionOutcome,
  done,
  formAction,
  readVersionedRecord,
  refuse,
  staleForm,
} from "@/server/form-action";
import { publicOrigin } from "@/server/public-origin";

export type PublishState = FormState<{ dashboardId: string; version: string }>;

const publishSchema = z.object({
  dashboardId: z.string().min(1, { error: "Pick a dashboard." }).max(200),
  version: z.coerce.number().int().min(1, { error: "Reload the page and try again." }),
  publish: z.enum(["true", "false"]),
});

/** Publishing is a content write: a role without content.write gets 403 like on every other write. */
export const setDashboardPublished = formAction<PublishState>(
  "content.write",
  async ({ formData, store, actor }) => {
    const parsed = publishSchema.safeParse({
      dashboardId: formText(formData, "dashboardId"),
      version: formText(formData, "version"),
      publish: formText(formData, "publish"),
    });
    if (!parsed.success) return refuse({ fieldErrors: fieldErrorsFromZod(parsed.error.issues) });
    const { dashboardId, version, publish } = parsed.data;
    if (publish === "true") await store.publishDashboard(dashboardId, version, actor);
    else await store.unpublishDashboard(dashboardId, version, actor);
    return done({ message: publish === "true" ? "Published." : "Moved back to draft." });
  },
);

function readDetails(formData: FormData) {
  const title = formText(formData, "title");
  const slug = formText(formData, "slug").trim();
  const icon = formText(formData, "icon");
  return {
    title,
    // A blank slug is made from the title, so the common case needs no typing.
    slug: slug === "" ? slugify(title) : slug,
    description: formText(formData, "description"),
    icon: icon === "" ? null : (icon as IconName),
    // Blank is UTC; the store checks the zone name.
    timeZone: formText(formData, "timeZone").trim() || null,
  };
}

/**
 * Every write to an existing dashboard: the record and version read, the write (which may
 * refuse with form errors instead), then the redirect.
 */
function dashboardWrite(
  write: (
    context: ActionContext,
    record: { id: string; version: number },
  ) => Promise<ContentFormState | undefined>,
  redirectTo: (dashboardId: string, formData: FormData) => string,
) {
  // Every dashboard write adds one to the version; the page shows a "saved" message only for
  // the version it names, so an old address never shows a stale message again.
  return formAction<ContentFormState>("content.write", async (context) => {
    const record = readVersionedRecord(context.formData, "dashboardId");
    if (!record) return refuse(staleForm);
    const refused = await write(context, record);
    if (refused) return refuse(refused);
    const to = redirectTo(record.id, context.formData);
    const savedAt = to.includes("?saved=") ? `&v=${record.version + 1}` : "";
    return done({ redirectTo: `${to}${savedAt}` });
  });
}

export const createDashboard = formAction<ContentFormState>(
  "content.write",
  async ({ formData, store, actor }) => {
    const created = await store.createDashboard(readDetails(formData), actor);
    return done({ redirectTo: `/admin/dashboards/${created.id}` });
  },
);

export const updateDashboardDetails = dashboardWrite(
  async ({ formData, store, actor }, { id, version }) => {
    await store.updateDashboard(id, version, readDetails(formData), actor);
    return undefined;
  },
  (dashboardId) => `/admin/dashboards/${dashboardId}?saved=details`,
);

/** The allowlist as typed, one origin per line (the store checks and normalises each). */
function readEmbedSettings(formData: FormData) {
  const refresh = formText(formData, "refreshSeconds");
  return {
    embedOrigins: formText(formData, "embedOrigins")
      .split(/[\r\n]+/)
      .map((line) => line.trim())
      .filter((line) => line !== ""),
    // Anything but the listed intervals reaches the store as a number it refuses.
    refreshSeconds: refresh === "" ? null : (Number(refresh) as RefreshSeconds),
  };
}

export const updateDashboardEmbedding = dashboardWrite(
  async ({ formData, store, actor }, { id, version }) => {
    await store.updateDashboard(id, version, readEmbedSettings(formData), actor);
    return undefined;
  },
  (dashboardId) => `/admin/dashboards/${dashboardId}?saved=embedding`,
);

/**
 * The filter columns as chosen: a date column (blank: none) and the filled category slots, with
 * the slot each came from (so a problem with the nth column lands on its own slot).
 */
function readFilterSettings(formData: FormData) {
  const dateColumn = formText(formData, "dateColumn").trim();
  const slots = formData
    .getAll("category")
    .map((value, slot) => ({ slot, column: typeof value === "string" ? value.trim() : "" }))
    .filter(({ column }) => column !== "");
  return {
    filters: {
      dateColumn: dateColumn === "" ? null : dateColumn,
      categories: slots.map(({ column }) => column),
    },
    slots: slots.map(({ slot }) => slot),
  };
}

export const updateDashboardFilters = dashboardWrite(
  async ({ formData, store, actor }, { id, version }) => {
    const { filters, slots } = readFilterSettings(formData);
    try {
      await store.updateDashboard(id, version, { filters }, actor);
      return undefined;
    } catch (error) {
      const state = storeErrorState(error);
      const fieldErrors = Object.fromEntries(
        Object.entries(state.fieldErrors ?? {}).map(([field, messages]) => {
          const at = /^filters\.categories\.(\d+)$/.exec(field);
          return [at ? `filters.categories.${slots[Number(at[1])] ?? at[1]}` : field, messages];
        }),
      );
      return { ...state, fieldErrors };
    }
  },
  (dashboardId) => `/admin/dashboards/${dashboardId}?saved=filters`,
);

/** The signed-link form's state: on success, the link and when it stops working (ISO time). */
export type EmbedLinkState = FormState<{ url: string; expiresAt: string }> & {
  url?: string;
  expiresAt?: string;
};

/** The lifetimes an editor can choose for a signed link, in seconds (at most the store's 30 days). */
const embedLinkLifetimes = new Set([3600, 86_400, 604_800, 2_592_000]);

/**
 * Signs an embed link for the dashboard or one of its charts. Nothing is written but the audit
 * event; the link works until it expires (rotating the secret ends every link at once).
 */
export const createEmbedLink = formAction<EmbedLinkState>(
  "content.write",
  async ({ formData, store, actor }) => {
    const dashboard = await store.getDashboard(formText(formData, "dashboardId"), {
      seenBy: actor,
    });
    if (!dashboard)
      return refuse({ formError: "This dashboard no longer exists. Reload the page." });
    if (await store.isRowLimited(actor)) {
      return refuse({
        formError:
          "Your account sees only some rows of a dataset (a row limit of your group), so it signs no embed links: whoever opens one would see every row. Ask an admin.",
      });
    }
    const lifetime = Number(formText(formData, "expiresIn"));
    if (!embedLinkLifetimes.has(lifetime)) {
      return refuse({ fieldErrors: { expiresAt: ["Choose how long the link works."] } });
    }
    const target = formText(formData, "target");
    const chartId = target.startsWith("chart:") ? target.slice("chart:".length) : null;
    if (
      chartId !== null &&
      !dashboard.tiles.some((tile) => tile.kind === "chart" && tile.chartId === chartId)
    ) {
      return refuse({ fieldErrors: { url: ["Choose the dashboard or one of its charts."] } });
    }
    const kind: EmbedKind = chartId === null ? "dashboard" : "chart";
    const id = chartId ?? dashboard.id;
    const expiresAt = Math.floor(Date.now() / 1000) + lifetime;
    const signedPath = signedEmbedPath(
      chartId === null
        ? { kind: "dashboard", id: dashboard.id, slug: dashboard.slug }
        : { kind: "chart", id: chartId },
      expiresAt,
    );
    const url = `${await publicOrigin()}${signedPath}`;
    await store.recordAuditEvent({
      actor,
      action: "dashboard.sign-embed-link",
      entityType: "dashboard",
      entityId: dashboard.id,
      detail: {
        title: dashboard.title,
        kind,
        id,
        expiresAt: new Date(expiresAt * 1000).toISOString(),
      },
    });
    // Nothing published changes, so nothing is revalidated.
    return done({
      message: "Signed link ready.",
      revalidate: "none",
      extra: { url, expiresAt: new Date(expiresAt * 1000).toISOString() },
    });
  },
);

/**
 * Adds a tile and hands back the dashboard's new version, the tile as the composer shows it and
 * its drawing (only this tile's query runs), so the editor adds it in place: no redirect, and
 * the answer holds no page drawn again.
 */
function addTile(
  readTile: (formData: FormData, fieldErrors: Record<string, string[]>) => TileInput,
) {
  return formAction<TileChangeState>(
    "content.write",
    async ({ formData, store, actor, session }) => {
      const record = readVersionedRecord(formData, "dashboardId");
      if (!record) return refuse(staleForm);
      const fieldErrors: Record<string, string[]> = {};
      const tile = readTile(formData, fieldErrors);
      if (Object.keys(fieldErrors).length > 0) {
        return refuse({ fieldErrors, formError: "Check the marked fields." });
      }
      const saved = await store.addDashboardTile(record.id, record.version, tile, actor);
      // Without a position the store puts a new tile last.
      const added = saved.tiles.at(-1);
      if (!added) return refuse(staleForm);
      const drawn = await store.getDashboardBySlug(saved.slug, {
        includeDrafts: true,
        ...seenBy(session),
        tileIds: [added.id],
      });
      const shown = drawn?.tiles[0];
      const titles = new Map(
        shown?.kind === "chart" ? [[shown.chart.id, shown.chart.title] as const] : [],
      );
      return tileChanged("Tile added.", {
        version: saved.version,
        added: composerTile(added, titles),
        preview: shown ? createElement(TileContent, { tile: shown, headingLevel: 3 }) : null,
      });
    },
  );
}

function tileChanged(
  message: string,
  change: NonNullable<TileChangeState["change"]>,
): ActionOutcome<TileChangeState> {
  return done({ message, revalidate: "content-in-place", extra: { change } });
}

export const addChartTile = addTile((formData) => ({
  kind: "chart",
  chartId: formText(formData, "chartId"),
}));

/** A stat tile's optional period: a relative range on a date column, maybe compared. */
function statPeriod(formData: FormData) {
  const column = formText(formData, "periodColumn");
  if (column === "") return {};
  const which = formText(formData, "periodWhich") as "last_n" | "this" | "previous";
  const n = Number(formText(formData, "periodN"));
  const anchor = formText(formData, "periodAnchor");
  const filter = {
    column,
    op: "relative" as const,
    unit: formText(formData, "periodUnit") as "day" | "week" | "month" | "quarter" | "year",
    which,
    ...(which === "last_n" ? { n: Number.isInteger(n) ? n : 0 } : {}),
    // Anything but today is the store's to check (a field error, never a silent default).
    ...(anchor !== "" && anchor !== "today" ? { anchor: anchor as "latest" } : {}),
  };
  const compare = formText(formData, "compare") === "on";
  const compareWith = formText(formData, "compareWith");
  return {
    filters: [filter],
    compare,
    // Anything but the default is the store's to check.
    ...(compare && compareWith !== "" && compareWith !== "previous_period"
      ? { compareWith: compareWith as "previous_year" }
      : {}),
  };
}

export const addTextTile = addTile((formData) => ({
  kind: "text",
  markdown: formText(formData, "markdown"),
}));

/**
 * Threshold rules from the form's rows ("thresholdWhen.0", "thresholdValue.0", ...); a row with
 * no value is left out. A value that is not a number reaches the store as NaN, so its field says so.
 */
function readThresholds(formData: FormData): ThresholdRule[] {
  const rules: ThresholdRule[] = [];
  for (let index = 0; formData.has(`thresholdWhen.${index}`); index++) {
    const value = formText(formData, `thresholdValue.${index}`).trim();
    if (value === "") continue;
    const label = formText(formData, `thresholdLabel.${index}`).trim();
    rules.push({
      when: formText(formData, `thresholdWhen.${index}`) as ThresholdRule["when"],
      value: Number(value),
      tone: formText(formData, `thresholdTone.${index}`) as ThresholdRule["tone"],
      ...(label === "" ? {} : { label }),
    });
  }
  return rules;
}

export const addStatTile = addTile((formData, fieldErrors) => {
  const icon = formText(formData, "icon");
  const format = readNumberFormat(formData, fieldErrors);
  const thresholds = readThresholds(formData);
  return {
    kind: "stat",
    label: formText(formData, "label"),
    datasetId: formText(formData, "datasetId"),
    column: formText(formData, "column"),
    aggregation: formText(formData, "aggregation") as Aggregation,
    ...(format ? { format } : {}),
    ...(icon ? { icon: icon as IconName } : {}),
    ...statPeriod(formData),
    ...(thresholds.length > 0 ? { thresholds } : {}),
  };
});

/** Removes a tile in place, like addTile: the answer is the new version and the tile's id. */
export const removeTile = formAction<TileChangeState>(
  "content.write",
  async ({ formData, store, actor }) => {
    const record = readVersionedRecord(formData, "dashboardId");
    if (!record) return refuse(staleForm);
    const tileId = formText(formData, "tileId");
    const saved = await store.removeDashboardTile(record.id, record.version, tileId, actor);
    return tileChanged("Tile removed.", { version: saved.version, removed: tileId });
  },
);

/** Reads the composer's layout (JSON of tile ids and places); the store checks it against the grid. */
function readLayout(formData: FormData): { layout?: DashboardLayoutInput; error?: string } {
  const read = readBoundedJson(
    formText(formData, "layout"),
    jsonInputLimits.dashboardLayout,
    "The layout",
  );
  if (!read.ok) return read.reason === "invalid_json" ? {} : { error: read.message };
  return Array.isArray(read.value) ? { layout: read.value as DashboardLayoutInput } : {};
}

/** Saves the whole arrangement as one change: one version, one audit event. */
export const saveLayout = dashboardWrite(
  async ({ formData, store, actor }, { id, version }) => {
    const { layout, error } = readLayout(formData);
    if (!layout) return error ? { formError: `${error} ${staleForm.formError}` } : staleForm;
    await store.saveDashboardLayout(id, version, layout, actor);
    return undefined;
  },
  (dashboardId) => `/admin/dashboards/${dashboardId}?saved=layout`,
);

export const deleteDashboard = dashboardWrite(
  async ({ store, actor }, { id, version }) => {
    await store.deleteDashboard(id, version, actor);
    return undefined;
  },
  () => "/admin/dashboards",
);

/** Saves an older version of the dashboard again as its next version. */
export const restoreDashboard = dashboardWrite(
  async ({ formData, store, actor }, { id, version }) => {
    const fromVersion = Number(formText(formData, "fromVersion"));
    if (!Number.isSafeInteger(fromVersion) || fromVersion < 1) {
      return { formError: "Choose a version to restore." };
    }
    await store.restoreDashboardVersion(id, version, fromVersion, actor);
    return undefined;
  },
  (dashboardId, formData) =>
    `/admin/dashboards/${dashboardId}/history?restored=${Number(formText(formData, "version")) + 1}`,
);
