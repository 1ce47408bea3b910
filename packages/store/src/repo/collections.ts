import {
  type CollectionLevel,
  can,
  collectionLevelOf,
  collectionLevels,
  collectionLimits,
  collectionNameRefusal,
  type EntityType,
  entityTypes,
  ForbiddenError,
  isCollectionLevel,
  levelIncludes,
  nameKey,
  normalName,
  type Permission,
  sharedCollectionLevel,
  ValidationError,
} from "@seed/model";
import { z } from "zod";
import { type Actor, authorize, checkActor } from "../access/policy.js";
import {
  type Executor,
  isUniqueViolation,
  newId,
  parseInput,
  type StoreContext,
  writeAudit,
} from "../context.js";

// Collections hold datasets, charts, dashboards and sources, and grant groups of accounts a level
// there (view, edit, manage). What is in no collection is Shared: everyone's, by role, as before
// collections. An account's level in a collection is the best grant of its groups, no more than
// its role allows (@seed/model collectionLevelOf); admins manage every collection. This module
// is the one home of that decision for the store: `collectionAccess` answers it for an actor.

/** An actor's level in Shared and in each collection it may see (absent: it sees nothing there). */
export interface CollectionAccess {
  shared: CollectionLevel;
  byCollection: ReadonlyMap<string, CollectionLevel>;
}

/** One group's grant in a collection, with the group's name. */
export interface CollectionGrant {
  groupId: string;
  groupName: string;
  level: CollectionLevel;
}

/** A collection as its pages list it, with what the asking account may do there. */
export interface Collection {
  id: string;
  name: string;
  description: string;
  createdAt: string;
  updatedAt: string;
  /** The asking account's level here. */
  level: CollectionLevel;
  /** How many records of each kind it holds (sources only for those who manage sources). */
  counts: { datasets: number; charts: number; dashboards: number; sources: number | null };
  /** Its grants, for those who manage it; empty for everyone else. */
  grants: CollectionGrant[];
}

/** The table each kind of record lives in, and what moving one needs of the role. */
const homes: Readonly<
  Record<
    EntityType,
    { table: "datasets" | "charts" | "dashboards" | "data_sources"; permission: Permission }
  >
> = {
  dataset: { table: "datasets", permission: "content.write" },
  chart: { table: "charts", permission: "content.write" },
  dashboard: { table: "dashboards", permission: "content.write" },
  source: { table: "data_sources", permission: "sources.manage" },
};

const nameSchema = z.string({ error: "Enter a name." }).superRefine((name, issue) => {
  const refusal = collectionNameRefusal(name);
  if (refusal) issue.addIssue({ code: "custom", message: refusal });
});

const descriptionSchema = z
  .string({ error: "Enter a description or leave it empty." })
  .max(
    collectionLimits.maxDescriptionLength,
    `Keep the description under ${collectionLimits.maxDescriptionLength + 1} characters.`,
  );

const detailsSchema = z.object({ name: nameSchema, description: descriptionSchema.default("") });

const grantsSchema = z.object({
  grants: z
    .array(
      z.object({
        groupId: z.string({ error: "Choose a group." }).min(1, "Choose a group.").max(200),
        level: z.enum(collectionLevels, { error: "Choose view, edit or manage." }),
      }),
      { error: "Choose groups and levels." },
    )
    .max(
      collectionLimits.maxGrants,
      `A collection grants at most ${collectionLimits.maxGrants} groups.`,
    ),
});

const missingCollection = () =>
  new ValidationError({ fieldErrors: {}, formError: "This collection no longer exists." });

const takenName = (name: string) =>
  new ValidationError({ fieldErrors: { name: [`There is already a collection named ${name}.`] } });

/** The actor's level in Shared and in every collection it may see; the store's one answer. */
async function accessOf(db: Executor, actor: Actor): Promise<CollectionAccess> {
  const shared = sharedCollectionLevel[actor.role];
  const byCollection = new Map<string, CollectionLevel>();
  if (actor.role === "admin") {
    for (const row of await db.selectFrom("collections").select("id").execute()) {
      byCollection.set(row.id, "manage");
    }
    return { shared, byCollection };
  }
  const rows = await db
    .selectFrom("collection_grants")
    .innerJoin(
      "account_group_members",
      "account_group_members.group_id",
      "collection_grants.group_id",
    )
    .select(["collection_grants.collection_id", "collection_grants.level"])
    .where("account_group_members.user_id", "=", actor.id)
    .execute();
  const grants = new Map<string, CollectionLevel[]>();
  for (const row of rows) {
    if (!isCollectionLevel(row.level)) continue;
    grants.set(row.collection_id, [...(grants.get(row.collection_id) ?? []), row.level]);
  }
  for (const [id, levels] of grants) {
    const level = collectionLevelOf(actor.role, levels);
    if (level) byCollection.set(id, level);
  }
  return { shared, byCollection };
}

/** The actor's level where a record with this collection id lives (null id: Shared). */
function levelIn(access: CollectionAccess, collectionId: string | null): CollectionLevel | null {
  return collectionId === null ? access.shared : (access.byCollection.get(collectionId) ?? null);
}

/** What the signed-in account may do in Shared and in each collection it sees. */
async function collectionAccess(ctx: StoreContext, actor: Actor): Promise<CollectionAccess> {
  const checked = authorize(actor, "content.read") as Actor;
  return accessOf(ctx.db, checked);
}

async function grantsOf(db: Executor, collectionIds: readonly string[]) {
  if (collectionIds.length === 0) return new Map<string, CollectionGrant[]>();
  const rows = await db
    .selectFrom("collection_grants")
    .innerJoin("account_groups", "account_groups.id", "collection_grants.group_id")
    .select([
      "collection_grants.collection_id",
      "collection_grants.group_id",
      "collection_grants.level",
      "account_groups.name",
    ])
    .where("collection_grants.collection_id", "in", [...collectionIds])
    .execute();
  const byCollection = new Map<string, CollectionGrant[]>();
  for (const row of rows) {
    if (!isCollectionLevel(row.level)) continue;
    const list = byCollection.get(row.collection_id) ?? [];
    list.push({ groupId: row.group_id, groupName: row.name, level: row.level });
    byCollection.set(row.collection_id, list);
  }
  for (const list of byCollection.values()) {
    list.sort((a, b) => a.groupName.localeCompare(b.groupName, "en", { sensitivity: "base" }));
  }
  return byCollection;
}

async function countsOf(db: Executor, collectionIds: readonly string[]) {
  const counts = new Map<string, Record<EntityType, number>>();
  for (const id of collectionIds) counts.set(id, { dataset: 0, chart: 0, dashboard: 0, source: 0 });
  if (collectionIds.length === 0) return counts;
  for (const kind of entityTypes) {
    const rows = await db
      .selectFrom(homes[kind].table)
      .select(["collection_id", (eb) => eb.fn.countAll<number | string>().as("n")])
      .where("collection_id", "in", [...collectionIds])
      .groupBy("collection_id")
      .execute();
    for (const row of rows) {
      const entry = row.collection_id ? counts.get(row.collection_id) : undefined;
      if (entry) entry[kind] = Number(row.n);
    }
  }
  return counts;
}

/** The collections the account may see, by name, each with its level and (to managers) grants. */
async function listCollections(ctx: StoreContext, actor: Actor): Promise<Collection[]> {
  const checked = authorize(actor, "content.read") as Actor;
  const access = await accessOf(ctx.db, checked);
  const ids = [...access.byCollection.keys()];
  if (ids.length === 0) return [];
  const rows = await ctx.db.selectFrom("collections").selectAll().where("id", "in", ids).execute();
  const managed = rows.filter((row) => access.byCollection.get(row.id) === "manage");
  const grants = await grantsOf(
    ctx.db,
    managed.map((row) => row.id),
  );
  const counts = await countsOf(ctx.db, ids);
  const seesSources = can(checked.role, "sources.manage");
  return rows
    .map((row) => {
      const count = counts.get(row.id) ?? { dataset: 0, chart: 0, dashboard: 0, source: 0 };
      return {
        id: row.id,
        name: row.name,
        description: row.description,
        createdAt: row.created_at,
        updatedAt: row.updated_at,
        level: access.byCollection.get(row.id) ?? "view",
        counts: {
          datasets: count.dataset,
          charts: count.chart,
          dashboards: count.dashboard,
          sources: seesSources ? count.source : null,
        },
        grants: grants.get(row.id) ?? [],
      };
    })
    .sort((a, b) => a.name.localeCompare(b.name, "en", { sensitivity: "base" }));
}

/** One collection the account may see, or null (none by this id, or none of its groups granted). */
async function getCollection(
  ctx: StoreContext,
  actor: Actor,
  collectionId: string,
): Promise<Collection | null> {
  return (
    (await listCollections(ctx, actor)).find((collection) => collection.id === collectionId) ?? null
  );
}

/**
 * The collection row when the actor's level there includes `needed`; a collection it cannot see
 * is "no longer exists" (its existence is not told), one it sees with less is forbidden.
 */
async function collectionFor(
  db: Executor,
  actor: Actor,
  collectionId: string,
  needed: CollectionLevel,
  permission: Permission,
) {
  const row = await db
    .selectFrom("collections")
    .selectAll()
    .where("id", "=", String(collectionId))
    .executeTakeFirst();
  if (!row) throw missingCollection();
  const level = levelIn(await accessOf(db, actor), row.id);
  if (level === null) throw missingCollection();
  if (!levelIncludes(level, needed)) throw new ForbiddenError(permission, actor.id);
  return row;
}

async function refuseTakenName(db: Executor, key: string, exceptId: string | null) {
  const taken = await db
    .selectFrom("collections")
    .select(["id", "name"])
    .where("name_key", "=", key)
    .executeTakeFirst();
  if (taken && taken.id !== exceptId) throw takenName(taken.name);
}

async function withNameRace<T>(name: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw takenName(name);
    throw error;
  }
}

/** A new, empty collection that grants no group yet (so only admins see it until grants are set). */
async function createCollection(
  ctx: StoreContext,
  actor: Actor,
  input: { name: string; description?: string },
): Promise<{ id: string; name: string }> {
  const checked = authorize(actor, "collections.manage") as Actor;
  const parsed = parseInput(detailsSchema, input);
  const name = normalName(parsed.name);
  const id = newId();
  const at = ctx.now().toISOString();
  await withNameRace(name, () =>
    ctx.db.transaction().execute(async (trx) => {
      await refuseTakenName(trx, nameKey(name), null);
      const count = await trx
        .selectFrom("collections")
        .select((eb) => eb.fn.countAll<number | string>().as("n"))
        .executeTakeFirstOrThrow();
      if (Number(count.n) >= collectionLimits.maxCollections) {
        throw new ValidationError({
          fieldErrors: {},
          formError: `This instance has its most collections (${collectionLimits.maxCollections}); delete one first.`,
        });
      }
      await trx
        .insertInto("collections")
        .values({
          id,
          name,
          name_key: nameKey(name),
          description: parsed.description,
          created_at: at,
          updated_at: at,
        })
        .execute();
      await writeAudit(trx, ctx, checked, "collection.create", "collection", id, { name });
    }),
  );
  return { id, name };
}

/** A collection's new name and description; those who manage it may. */
async function updateCollection(
  ctx: StoreContext,
  actor: Actor,
  collectionId: string,
  input: { name: string; description?: string },
): Promise<void> {
  const checked = authorize(actor, "content.read") as Actor;
  const parsed = parseInput(detailsSchema, input);
  const name = normalName(parsed.name);
  await withNameRace(name, () =>
    ctx.db.transaction().execute(async (trx) => {
      const row = await collectionFor(trx, checked, collectionId, "manage", "collections.manage");
      if (row.name === name && row.description === parsed.description) return;
      await refuseTakenName(trx, nameKey(name), row.id);
      await trx
        .updateTable("collections")
        .set({
          name,
          name_key: nameKey(name),
          description: parsed.description,
          updated_at: ctx.now().toISOString(),
        })
        .where("id", "=", row.id)
        .execute();
      await writeAudit(trx, ctx, checked, "collection.update", "collection", row.id, {
        name,
        ...(row.name === name ? {} : { previousName: row.name }),
      });
    }),
  );
}

/** Deletes an empty collection and its grants; one that holds anything is refused, so nothing lands in Shared unseen. */
async function deleteCollection(
  ctx: StoreContext,
  actor: Actor,
  collectionId: string,
): Promise<void> {
  const checked = authorize(actor, "content.read") as Actor;
  await ctx.db.transaction().execute(async (trx) => {
    const row = await collectionFor(trx, checked, collectionId, "manage", "collections.manage");
    const counts = (await countsOf(trx, [row.id])).get(row.id);
    const held = entityTypes
      .map((kind) => [kind, counts?.[kind] ?? 0] as const)
      .filter(([, n]) => n > 0)
      .map(([kind, n]) => `${n} ${kind}${n === 1 ? "" : "s"}`);
    if (held.length > 0) {
      throw new ValidationError({
        fieldErrors: {},
        formError: `This collection holds ${held.join(", ")}. Move or delete them first.`,
      });
    }
    await trx.deleteFrom("collection_grants").where("collection_id", "=", row.id).execute();
    await trx.deleteFrom("collections").where("id", "=", row.id).execute();
    await writeAudit(trx, ctx, checked, "collection.delete", "collection", row.id, {
      name: row.name,
    });
  });
}

/**
 * The groups a collection grants, and their levels, replacing the grants before. Every group
 * must exist and appear once. Someone who manages it through a group (not an admin) keeps a
 * manage grant, so nobody but an admin can lock themselves out.
 */
async function setCollectionGrants(
  ctx: StoreContext,
  actor: Actor,
  collectionId: string,
  input: { grants: readonly { groupId: string; level: string }[] },
): Promise<void> {
  const checked = authorize(actor, "content.read") as Actor;
  const { grants } = parseInput(grantsSchema, input);
  const seen = new Set<string>();
  for (const grant of grants) {
    if (seen.has(grant.groupId)) {
      throw new ValidationError({
        fieldErrors: { grants: ["Name each group once, with one level."] },
      });
    }
    seen.add(grant.groupId);
  }
  await ctx.db.transaction().execute(async (trx) => {
    const row = await collectionFor(trx, checked, collectionId, "manage", "collections.manage");
    const groups =
      grants.length === 0
        ? []
        : await trx
            .selectFrom("account_groups")
            .select(["id", "name"])
            .where(
              "id",
              "in",
              grants.map((grant) => grant.groupId),
            )
            .execute();
    const names = new Map(groups.map((group) => [group.id, group.name]));
    if (grants.some((grant) => !names.has(grant.groupId))) {
      throw new ValidationError({
        fieldErrors: { grants: ["Some chosen groups no longer exist. Reload the page."] },
      });
    }
    if (checked.role !== "admin") {
      const own = new Set(
        (
          await trx
            .selectFrom("account_group_members")
            .select("group_id")
            .where("user_id", "=", checked.id)
            .execute()
        ).map((member) => member.group_id),
      );
      const kept = collectionLevelOf(
        checked.role,
        grants.filter((grant) => own.has(grant.groupId)).map((grant) => grant.level),
      );
      if (kept !== "manage") {
        throw new ValidationError({
          fieldErrors: {
            grants: [
              "Keep manage for a group you are in, or you could no longer manage this collection. An admin can change that.",
            ],
          },
        });
      }
    }
    const before = await grantsOf(trx, [row.id]);
    await trx.deleteFrom("collection_grants").where("collection_id", "=", row.id).execute();
    if (grants.length > 0) {
      await trx
        .insertInto("collection_grants")
        .values(
          grants.map((grant) => ({
            collection_id: row.id,
            group_id: grant.groupId,
            level: grant.level,
          })),
        )
        .execute();
    }
    const shown = (list: readonly { groupId: string; level: string }[]) =>
      list.map((grant) => `${names.get(grant.groupId) ?? grant.groupId}: ${grant.level}`);
    await writeAudit(trx, ctx, checked, "collection.set-grants", "collection", row.id, {
      name: row.name,
      grants: shown(grants),
      previous: (before.get(row.id) ?? []).map((grant) => `${grant.groupName}: ${grant.level}`),
    });
  });
}

/**
 * Moves a dataset, chart, dashboard or source into a collection (null: Shared). The actor edits
 * both where it is and where it goes; a record it cannot see is "no longer exists".
 */
async function moveToCollection(
  ctx: StoreContext,
  actor: Actor,
  item: { entityType: EntityType; id: string },
  collectionId: string | null,
): Promise<void> {
  const home = homes[item.entityType];
  if (!home) {
    throw new ValidationError({
      fieldErrors: {},
      formError: "Only datasets, charts, dashboards and sources live in collections.",
    });
  }
  const checked = authorize(checkActor(actor), home.permission) as Actor;
  await ctx.db.transaction().execute(async (trx) => {
    const record = await trx
      .selectFrom(home.table)
      .select(["id", "collection_id"])
      .where("id", "=", String(item.id))
      .executeTakeFirst();
    const missingItem = new ValidationError({
      fieldErrors: {},
      formError: `This ${item.entityType} no longer exists.`,
    });
    if (!record) throw missingItem;
    const access = await accessOf(trx, checked);
    const from = levelIn(access, record.collection_id);
    if (from === null) throw missingItem;
    if (!levelIncludes(from, "edit")) throw new ForbiddenError(home.permission, checked.id);
    const target =
      collectionId === null
        ? null
        : await collectionFor(trx, checked, collectionId, "edit", home.permission);
    if ((target?.id ?? null) === record.collection_id) return;
    if (target === null && !levelIncludes(access.shared, "edit")) {
      throw new ForbiddenError(home.permission, checked.id);
    }
    await trx
      .updateTable(home.table)
      .set({ collection_id: target?.id ?? null })
      .where("id", "=", record.id)
      .execute();
    const fromName =
      record.collection_id === null
        ? "Shared"
        : ((
            await trx
              .selectFrom("collections")
              .select("name")
              .where("id", "=", record.collection_id)
              .executeTakeFirst()
          )?.name ?? "Shared");
    await writeAudit(trx, ctx, checked, "collection.move-item", item.entityType, record.id, {
      from: fromName,
      to: target?.name ?? "Shared",
    });
  });
}

/** Drops a deleted group's grants (called as the group is deleted, on its transaction). */
export async function forgetGroupGrants(db: Executor, groupId: string): Promise<void> {
  await db.deleteFrom("collection_grants").where("group_id", "=", groupId).execute();
}

export const collectionOperations = {
  collectionAccess,
  listCollections,
  getCollection,
  createCollection,
  updateCollection,
  deleteCollection,
  setCollectionGrants,
  moveToCollection,
};
