"use server";

import type { ContentFormState } from "@/components/admin/content-form-state";
import { formText } from "@/lib/form-state";
import { done, formAction, readVersionedRecord, refuse, staleForm } from "@/server/form-action";
import { observability } from "@/server/observability";

const sourceFields = [
  "name",
  "host",
  "port",
  "database",
  "user",
  "password",
  "sslMode",
  "statementTimeoutMs",
  "rowCap",
  "cacheTtlSeconds",
] as const;

/** The form's fields as text; the store's schema coerces, bounds and checks them. */
function readSourceForm(formData: FormData) {
  const fields = Object.fromEntries(
    sourceFields.map((field) => [field, formText(formData, field).slice(0, 1_000)]),
  ) as Record<(typeof sourceFields)[number], string>;
  return { ...fields, sslMode: fields.sslMode as "disable" };
}

/** One form, two buttons: "Test connection" (intent=test) reports; "Save" creates or updates. */
export const saveSource = formAction<ContentFormState>(
  "sources.manage",
  async ({ formData, store, actor }) => {
    const fields = readSourceForm(formData);
    const sourceId = formText(formData, "sourceId").slice(0, 200);
    if (formText(formData, "intent") === "test") {
      const result = await store.testSourceConnection(
        { ...fields, sourceId: sourceId || undefined },
        actor,
      );
      if (!result.ok) {
        // The form shows one sentence for every failure (no port probing); the reason is for the log.
        observability().logger.warn(
          {
            event: "source.connection-failed",
            sourceId: sourceId || null,
            actorId: actor.id,
            host: fields.host.slice(0, 255),
            port: fields.port.slice(0, 10),
            ...result.detail,
          },
          "live source connection test failed",
        );
        return refuse({ formError: `Connection failed: ${result.reason}` });
      }
      const warnings = result.warnings.length > 0 ? ` Warning: ${result.warnings.join(" ")}` : "";
      return done({
        message: `Connection OK: PostgreSQL ${result.serverVersion}.${warnings}`,
        revalidate: "none",
      });
    }
    if (sourceId) {
      const record = readVersionedRecord(formData, "sourceId");
      if (!record) return refuse(staleForm);
      await store.updateSource(record.id, record.version, fields, actor);
      return done({ redirectTo: `/admin/sources/${record.id}?saved=1` });
    }
    const created = await store.createSource(fields, actor);
    return done({ redirectTo: `/admin/sources/${created.id}?saved=1`, revalidate: "none" });
  },
);

export const deleteSource = formAction<ContentFormState>(
  "sources.manage",
  async ({ formData, store, actor }) => {
    const record = readVersionedRecord(formData, "sourceId");
    if (!record) return refuse(staleForm);
    await store.deleteSource(record.id, record.version, actor);
    return done({ redirectTo: "/admin/sources?deleted=1", revalidate: "none" });
  },
);

/** Adds one of the source's tables or views as a live dataset and opens it. */
export const addLiveDataset = formAction<ContentFormState>(
  "sources.manage",
  async ({ formData, store, actor }) => {
    const created = await store.createLiveDataset(
      {
        sourceId: formText(formData, "sourceId").slice(0, 200),
        schema: formText(formData, "schema").slice(0, 200),
        table: formText(formData, "table").slice(0, 200),
      },
      actor,
    );
    return done({ redirectTo: `/admin/datasets/${created.id}`, revalidate: "none" });
  },
);
