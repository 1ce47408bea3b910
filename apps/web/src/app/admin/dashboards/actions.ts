"use server";

import {
  type Actor,
  type Aggregation,
  type IconName,
  type Store,
  slugify,
  storeErrorOf,
  type TileInput,
} from "@seed/store";
import { redirect } from "next/navigation";
import { z } from "zod";
import type { ContentFormState } from "@/components/admin/content-form-state";
import { readNumberFormat } from "@/components/admin/number-format-input";
import { actorOf, storeErrorState } from "@/components/admin/store-errors";
import { type FormState, fieldErrorsFromZod, formText } from "@/lib/form-state";
import { requireRole } from "@/server/auth";
import { revalidateContent } from "@/server/revalidate";
import { getStore } from "@/server/store";

export type PublishState = FormState<{ dashboardId: string; version: string }>;

const publishSchema = z.object({
  dashboardId: z.string().min(1, { error: "Pick a dashboard." }).max(200),
  version: z.coerce.number().int().min(1, { error: "Reload the page and try again." }),
  publish: z.enum(["true", "false"]),
});

/** Editors and admins publish or unpublish; viewers get 403 like on every other write. */
export async function setDashboardPublished(
  _previous: PublishState,
  formData: FormData,
): Promise<PublishState> {
  const session = await requireRole("admin", "editor");
  const parsed = publishSchema.safeParse({
    dashboardId: formText(formData, "dashboardId"),
    version: formText(formData, "version"),
    publish: formText(formData, "publish"),
  });
  if (!parsed.success) return { fieldErrors: fieldErrorsFromZod(parsed.error.issues) };
  const store = await getStore();
  const actor = actorOf(session);
  const { dashboardId, version, publish } = parsed.data;
  try {
    if (publish === "true") await store.publishDashboard(dashboardId, version, actor);
    else await store.unpublishDashboard(dashboardId, version, actor);
  } catch (error) {
    const refusal = storeErrorOf(error);
    if (refusal?.kind === "conflict" || refusal?.kind === "not_found") {
      return { formError: refusal.message };
    }
    throw error;
  }
  revalidateContent();
  return { message: publish === "true" ? "Published." : "Moved back to draft." };
}

const dashboardRecordSchema = z.object({
  dashboardId: z.string().min(1).max(200),
  version: z.coerce.number().int().min(1),
});

function readDashboardRecord(formData: FormData) {
  return dashboardRecordSchema.safeParse({
    dashboardId: formText(formData, "dashboardId"),
    version: formText(formData, "version"),
  });
}

const staleForm: ContentFormState = { formError: "Reload the page and try again." };

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

type DashboardRecord = { dashboardId: string; version: number };

/**
 * The path every write to an existing dashboard takes: role, the record and version read,
 * the store write (which may answer with form errors instead), revalidation, redirect.
 */
async function writeDashboard(
  formData: FormData,
  write: (
    store: Store,
    record: DashboardRecord,
    actor: Actor,
  ) => Promise<ContentFormState | undefined>,
  redirectTo: (dashboardId: string) => string,
): Promise<ContentFormState> {
  const session = await requireRole("admin", "editor");
  const record = readDashboardRecord(formData);
  if (!record.success) return staleForm;
  try {
    const refused = await write(await getStore(), record.data, actorOf(session));
    if (refused) return refused;
  } catch (error) {
    return storeErrorState(error);
  }
  revalidateContent();
  redirect(redirectTo(record.data.dashboardId));
}

export async function createDashboard(
  _previous: ContentFormState,
  formData: FormData,
): Promise<ContentFormState> {
  const session = await requireRole("admin", "editor");
  let dashboardId: string;
  try {
    const store = await getStore();
    const created = await store.createDashboard(readDetails(formData), actorOf(session));
    dashboardId = created.id;
  } catch (error) {
    return storeErrorState(error);
  }
  revalidateContent();
  redirect(`/admin/dashboards/${dashboardId}`);
}

export async function updateDashboardDetails(
  _previous: ContentFormState,
  formData: FormData,
): Promise<ContentFormState> {
  return writeDashboard(
    formData,
    async (store, { dashboardId, version }, actor) => {
      await store.updateDashboard(dashboardId, version, readDetails(formData), actor);
      return undefined;
    },
    (dashboardId) => `/admin/dashboards/${dashboardId}?saved=details`,
  );
}

async function addTile(
  formData: FormData,
  readTile: (fieldErrors: Record<string, string[]>) => TileInput,
): Promise<ContentFormState> {
  return writeDashboard(
    formData,
    async (store, { dashboardId, version }, actor) => {
      const fieldErrors: Record<string, string[]> = {};
      const tile = readTile(fieldErrors);
      if (Object.keys(fieldErrors).length > 0) {
        return { fieldErrors, formError: "Check the marked fields." };
      }
      await store.addDashboardTile(dashboardId, version, tile, actor);
      return undefined;
    },
    (dashboardId) => `/admin/dashboards/${dashboardId}?saved=tile`,
  );
}

export async function addChartTile(
  _previous: ContentFormState,
  formData: FormData,
): Promise<ContentFormState> {
  return addTile(formData, () => ({ kind: "chart", chartId: formText(formData, "chartId") }));
}

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

export async function addStatTile(
  _previous: ContentFormState,
  formData: FormData,
): Promise<ContentFormState> {
  return addTile(formData, (fieldErrors) => {
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
}

export async function removeTile(
  _previous: ContentFormState,
  formData: FormData,
): Promise<ContentFormState> {
  return writeDashboard(
    formData,
    async (store, { dashboardId, version }, actor) => {
      await store.removeDashboardTile(dashboardId, version, formText(formData, "tileId"), actor);
      return undefined;
    },
    (dashboardId) => `/admin/dashboards/${dashboardId}?saved=removed`,
  );
}

/** Moves one tile a place up or down; the new order is checked against the version read. */
export async function moveTile(
  _previous: ContentFormState,
  formData: FormData,
): Promise<ContentFormState> {
  const direction = formText(formData, "direction");
  const tileId = formText(formData, "tileId");
  return writeDashboard(
    formData,
    async (store, { dashboardId, version }, actor) => {
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
    (dashboardId) =>
      `/admin/dashboards/${dashboardId}?focus=${direction}-${encodeURIComponent(tileId)}`,
  );
}

export async function deleteDashboard(
  _previous: ContentFormState,
  formData: FormData,
): Promise<ContentFormState> {
  return writeDashboard(
    formData,
    async (store, { dashboardId, version }, actor) => {
      await store.deleteDashboard(dashboardId, version, actor);
      return undefined;
    },
    () => "/admin/dashboards",
  );
}
