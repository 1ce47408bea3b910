"use server";

import { collectionLevels, collectionLimits, type EntityType } from "@seed/model";
import { z } from "zod";
import { storeErrorState } from "@/components/admin/store-errors";
import { type FormState, formText } from "@/lib/form-state";
import { done, formAction, refuse } from "@/server/form-action";

// Collections: made by an admin; renamed, granted and deleted by those who manage them; records
// moved in and out by those who edit both places. The store checks every level again,
// validates and audits each change in the same transaction.

export type CollectionFormState = FormState<{
  name: string;
  description: string;
  grants: string;
  collectionId: string;
}>;

const idSchema = z.string().min(1).max(200);

/** The collection the form is about, or null when the form carries none. */
function collectionIdOf(formData: FormData): string | null {
  const parsed = idSchema.safeParse(formText(formData, "collectionId"));
  return parsed.success ? parsed.data : null;
}

const noCollection = { formError: "Reload the page and try again." } as const;

function detailsOf(formData: FormData) {
  return {
    name: formText(formData, "name").slice(0, collectionLimits.maxNameLength * 4),
    description: formText(formData, "description").slice(
      0,
      collectionLimits.maxDescriptionLength * 4,
    ),
  };
}

export const createCollection = formAction<CollectionFormState>(
  "collections.manage",
  async ({ formData, store, actor }) => {
    const details = detailsOf(formData);
    try {
      const collection = await store.createCollection(actor, details);
      return done({
        redirectTo: `/admin/collections/${collection.id}?created=1`,
        revalidate: { adminPath: "/admin/collections" },
      });
    } catch (error) {
      // What was typed stays in the fields beside their messages (anything else is thrown on).
      return refuse({ ...storeErrorState(error), values: details } as CollectionFormState);
    }
  },
);

export const updateCollection = formAction<CollectionFormState>(
  "content.read",
  async ({ formData, store, actor }) => {
    const collectionId = collectionIdOf(formData);
    if (!collectionId) return refuse(noCollection);
    await store.updateCollection(actor, collectionId, detailsOf(formData));
    return done({
      message: "Name and description saved.",
      revalidate: { adminPath: `/admin/collections/${collectionId}` },
    });
  },
);

/** One select per group, named `grant:<groupId>`: "" (no access) or a level. */
export const setCollectionGrants = formAction<CollectionFormState>(
  "content.read",
  async ({ formData, store, actor }) => {
    const collectionId = collectionIdOf(formData);
    if (!collectionId) return refuse(noCollection);
    const grants: { groupId: string; level: string }[] = [];
    for (const [key, value] of formData.entries()) {
      if (!key.startsWith("grant:") || typeof value !== "string" || value === "") continue;
      if (!(collectionLevels as readonly string[]).includes(value)) {
        return refuse({ fieldErrors: { grants: ["Choose view, edit or manage."] } });
      }
      grants.push({ groupId: key.slice("grant:".length), level: value });
      if (grants.length > collectionLimits.maxGrants) break;
    }
    await store.setCollectionGrants(actor, collectionId, { grants });
    return done({
      message: `Access saved: ${grants.length === 0 ? "no groups" : `${grants.length} group${grants.length === 1 ? "" : "s"}`}.`,
      revalidate: { adminPath: `/admin/collections/${collectionId}` },
    });
  },
);

export const deleteCollection = formAction<CollectionFormState>(
  "content.read",
  async ({ formData, store, actor }) => {
    const collectionId = collectionIdOf(formData);
    if (!collectionId) return refuse(noCollection);
    await store.deleteCollection(actor, collectionId);
    return done({
      redirectTo: "/admin/collections?deleted=1",
      revalidate: { adminPath: "/admin/collections" },
    });
  },
);

const movable = new Set<EntityType>(["dataset", "chart", "dashboard", "source"]);

/** Moves a dataset, chart, dashboard or source (admins') to the chosen collection ("" is Shared). */
export const moveToCollection = formAction<CollectionFormState>(
  "content.write",
  async ({ formData, store, actor }) => {
    const entityType = formText(formData, "entityType") as EntityType;
    const id = idSchema.safeParse(formText(formData, "id"));
    if (!movable.has(entityType) || !id.success) return refuse(noCollection);
    const target = formText(formData, "collectionId");
    await store.moveToCollection(actor, { entityType, id: id.data }, target === "" ? null : target);
    return done({ message: "Moved.", revalidate: "content" });
  },
);
