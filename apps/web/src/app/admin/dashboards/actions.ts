"use server";

import { type Aggregation, type IconName, slugify, type TileInput } from "@seed/store";
import { z } from "zod";
import type { ContentFormState } from "@/components/admin/content-form-state";
import { readNumberFormat } from "@/components/admin/number-format-input";
import { type FormState, fieldErrorsFromZod, formText } from "@/lib/form-state";
import {
  type ActionContext,
  done,
  formAction,
  readVersionedRecord,
  refuse,
  staleForm,
} from "@/server/form-action";

export type PublishState = FormState<{ dashboardId: string; version: string }>;

const publishSchema = z.object({
  dashboardId: z.string().min(1, { error: "Pick a dashboard." }).max(200),
  version: z.coerce.number().int().min(1, { error: "Reload the page and try again." }),
  publish: z.enum(["true", "false"]),
});

const writers = ["admin", "editor"] as const;

/** Editors and admins publish or unpublish; viewers get 403 like on every other write. */
export const setDashboardPublished = formAction<PublishState>(
  writers,
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
  return formAction<ContentFormState>(writers, async (context) => {
    const record = readVersionedRecord(context.formData, "dashboardId");
    if (!record) return refuse(staleForm);
    const refused = await write(context, record);
    if (refused) return refuse(refused);
    return done({ redirectTo: redirectTo(record.id, context.formData) });
  });
}

export const createDashboard = formAction<ContentFormState>(
  writers,
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

function addTile(
  readTile: (formData: FormData, fieldErrors: Record<string, string[]>) => TileInput,
) {
  return dashboardWrite(
    async ({ formData, store, actor }, { id, version }) => {
      const fieldErrors: Record<string, string[]> = {};
      const tile = readTile(formData, fieldErrors);
      if (Object.keys(fieldErrors).length > 0) {
        return { fieldErrors, formError: "Check the marked fields." };
      }
      await store.addDashboardTile(id, version, tile, actor);
      return undefined;
    },
    (dashboardId) => `/admin/dashboards/${dashboardId}?saved=tile`,
  );
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
  const filter = {
    column,
    op: "relative" as const,
    unit: formText(formData, "periodUnit") as "day" | "week" | "month" | "quarter" | "year",
    which,
    ...(which === "last_n" ? { n: Number.isInteger(n) ? n : 0 } : {}),
  };
  return { filters: [filter], compare: formText(formData, "compare") === "on" };
}

export const addStatTile = addTile((formData, fieldErrors) => {
  const icon = formText(formData, "icon");
  const format = readNumberFormat(formData, fieldErrors);
  return {
    kind: "stat",
    label: formText(formData, "label"),
    datasetId: formText(formData, "datasetId"),
    column: formText(formData, "column"),
    aggregation: formText(formData, "aggregation") as Aggregation,
    ...(format ? { format } : {}),
    ...(icon ? { icon: icon as IconName } : {}),
    ...statPeriod(formData),
  };
});

export const removeTile = dashboardWrite(
  async ({ formData, store, actor }, { id, version }) => {
    await store.removeDashboardTile(id, version, formText(formData, "tileId"), actor);
    return undefined;
  },
  (dashboardId) => `/admin/dashboards/${dashboardId}?saved=removed`,
);

/** Moves one tile a place up or down; the new order is checked against the version read. */
export const moveTile = dashboardWrite(
  async ({ formData, store, actor }, { id: dashboardId, version }) => {
    const direction = formText(formData, "direction");
    const tileId = formText(formData, "tileId");
    if (direction !== "up" && direction !== "down") return staleForm;
    const dashboard = await store.getDashboard(dashboardId);
    if (!dashboard) return { formError: "This dashboard no longer exists." };
    const order = dashboard.tiles.map((tile) => tile.id);
    const from = order.indexOf(tileId);
    const to = direction === "up" ? from - 1 : from + 1;
    if (from === -1 || to < 0 || to >= order.length) {
      return { formError: "This tile cannot move further." };
    }
    [order[from], order[to]] = [order[to] as string, order[from] as string];
    await store.reorderDashboardTiles(dashboardId, version, order, actor);
    return undefined;
  },
  // Focus returns to the same button after the page redraws in the new order.
  (dashboardId, formData) =>
    `/admin/dashboards/${dashboardId}?focus=${formText(formData, "direction")}-${encodeURIComponent(formText(formData, "tileId"))}`,
);

export const deleteDashboard = dashboardWrite(
  async ({ store, actor }, { id, version }) => {
    await store.deleteDashboard(id, version, actor);
    return undefined;
  },
  () => "/admin/dashboards",
);
