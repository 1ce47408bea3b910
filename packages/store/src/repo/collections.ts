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
  isRole,
  levelIncludes,
  NotFoundError,
  nameKey,
  normalName,
  type Permission,
  rowLimitPhrase,
  sharedCollectionLevel,
  ValidationError,
} from "@seed/model";
import { type RawBuilder, type SqlBool, sql } from "kysely";
import { z } from "zod";
import { type Actor, authorize, checkActor } from "../access/policy.js";
import {
  type Executor,
  newId,
  parseInput,
  type RecordedActor,
  type StoreContext,
  writeAudit,
} from "../context.js";
import { refuseAtLimit, refuseTakenName, refusingRaces, takenName } from "./named-records.js";
import { rowsSeenIn } from "./row-limits.js";
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

/** A write refused when another's write of the same name beat it. */
function withNameRace<T>(name: string, write: () => Promise<T>): Promise<T> {
  return refusingRaces(write, () => takenName("collections", name));
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
      await refuseTakenName(trx, "collections", nameKey(name), null);
      await refuseAtLimit(trx, "collections", collectionLimits.maxCollections);
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
      await refuseTakenName(trx, "collections", nameKey(name), row.id);
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
    await refuseRowLimitedChange(trx, checked, item.entityType, record.id);
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

/**
 * Refuses a change to an existing record where the actor may not edit: a record in a collection
 * none of its groups is granted is "not found" (its existence is not told), one it only views is
 * forbidden. Every update and delete passes here (versioned-write.ts); a push token, which acts on
 * its own dataset only, and the store's own jobs carry no role and are not asked.
 */
export async function assertEditable(
  db: Executor,
  actor: RecordedActor,
  entityType: EntityType,
  id: string,
): Promise<void> {
  if (!("role" in actor) || !isRole((actor as Actor).role)) return;
  const home = homes[entityType];
  const record = await db
    .selectFrom(home.table)
    .select("collection_id")
    .where("id", "=", id)
    .executeTakeFirst();
  if (!record) return;
  const access = await accessOf(db, actor as Actor);
  const level = levelIn(access, record.collection_id);
  if (level === null) throw new NotFoundError(entityType, id);
  if (!levelIncludes(level, "edit")) throw new ForbiddenError(home.permission, actor.id);
  await refuseRowLimitedChange(db, actor as Actor, entityType, id);
}

/**
 * Refuses a change to a dataset by an account that reads only some of its rows (a row limit of
 * its group): an import, edit or move could reach the rows it does not see.
 */
async function refuseRowLimitedChange(
  db: Executor,
  actor: Actor,
  entityType: EntityType,
  id: string,
): Promise<void> {
  if (entityType !== "dataset") return;
  if ((await rowsSeenIn(db, { seenBy: actor }, id)) === null) return;
  throw new ForbiddenError(
    homes.dataset.permission,
    actor.id,
    "You see only some rows of this dataset (a row limit of your group), so you cannot change it.",
  );
}

/**
 * Which collections the actor sees records in (null: Shared), for checks of many records in one
 * write (a dashboard's tiles); a push token or the store's own jobs carry no role and see all.
 */
export async function visibilityOf(
  db: Executor,
  actor: RecordedActor,
): Promise<(collectionId: string | null) => boolean> {
  if (!("role" in actor) || !isRole((actor as Actor).role)) return () => true;
  const access = await accessOf(db, actor as Actor);
  return (collectionId) => levelIn(access, collectionId) !== null;
}

/** Whether the actor sees this record (a chart's dataset, a tile's chart); false when there is none. */
export async function recordVisible(
  db: Executor,
  sees: (collectionId: string | null) => boolean,
  entityType: EntityType,
  id: string,
): Promise<boolean> {
  const record = await db
    .selectFrom(homes[entityType].table)
    .select("collection_id")
    .where("id", "=", String(id))
    .executeTakeFirst();
  return record !== undefined && sees(record.collection_id);
}

/** Whom a read is for: given, only what that account sees is read; absent, the caller is trusted. */
export interface SeenBy {
  seenBy?: Actor;
}

/** The collections whose records the account sees (besides Shared); "all" for admins and trusted reads. */
export async function seenCollections(
  db: Executor,
  reader: SeenBy,
): Promise<readonly string[] | "all"> {
  if (reader.seenBy === undefined) return "all";
  const actor = authorize(reader.seenBy, "content.read") as Actor;
  if (actor.role === "admin") return "all";
  return [...(await accessOf(db, actor)).byCollection.keys()];
}

/** A where clause keeping the rows whose `column` (a collection id, null: Shared) is seen. */
export function seenWhere(column: string, seen: readonly string[] | "all"): RawBuilder<SqlBool> {
  if (seen === "all") return sql<SqlBool>`1 = 1`;
  if (seen.length === 0) return sql<SqlBool>`${sql.ref(column)} is null`;
  return sql<SqlBool>`(${sql.ref(column)} is null or ${sql.ref(column)} in (${sql.join([...seen])}))`;
}

/** Whether the reader sees this record (false when there is none); trusted reads see all. */
export async function readable(
  db: Executor,
  reader: SeenBy,
  entityType: EntityType,
  id: string,
): Promise<boolean> {
  if (reader.seenBy === undefined) return true;
  return recordVisible(db, await visibilityOf(db, checkActor(reader.seenBy)), entityType, id);
}

/** Where a record lives and what the account may do with it there. */
export interface RecordPlace {
  /** null: Shared. */
  collectionId: string | null;
  collectionName: string;
  level: CollectionLevel;
  /**
   * A dataset the account reads only some rows of: each limit of its groups in words, a row
   * meeting any one of them (empty: none, a saved question it may not read); null: every row.
   * Such an account changes nothing of the dataset, whatever its level.
   */
  rowLimit: string[] | null;
  /** What the account's role needs to change or move the record (content.write; a source's sources.manage). */
  permission: Permission;
}

/** RecordPlace.rowLimit of a dataset for the account. */
async function rowLimitPhrases(db: Executor, actor: Actor, datasetId: string) {
  try {
    return (await rowsSeenIn(db, { seenBy: actor }, datasetId))?.map(rowLimitPhrase) ?? null;
  } catch (error) {
    if (error instanceof ForbiddenError) return [];
    throw error;
  }
}

/** The collection a record is in, with the account's level there; null when it cannot see it (or there is none). */
async function placeOf(
  ctx: StoreContext,
  actor: Actor,
  item: { entityType: EntityType; id: string },
): Promise<RecordPlace | null> {
  const checked = authorize(actor, "content.read") as Actor;
  const home = homes[item.entityType];
  if (!home) return null;
  const record = await ctx.db
    .selectFrom(home.table)
    .select("collection_id")
    .where("id", "=", String(item.id))
    .executeTakeFirst();
  if (!record) return null;
  const level = levelIn(await accessOf(ctx.db, checked), record.collection_id);
  if (level === null) return null;
  const rowLimit =
    item.entityType === "dataset" ? await rowLimitPhrases(ctx.db, checked, item.id) : null;
  if (record.collection_id === null) {
    return {
      collectionId: null,
      collectionName: "Shared",
      level,
      rowLimit,
      permission: home.permission,
    };
  }
  const collection = await ctx.db
    .selectFrom("collections")
    .select("name")
    .where("id", "=", record.collection_id)
    .executeTakeFirst();
  return {
    collectionId: record.collection_id,
    collectionName: collection?.name ?? "",
    level,
    rowLimit,
    permission: home.permission,
  };
}

/** What a collection (null: Shared) holds, by name, for an account that sees it; null when it does not. */
async function collectionItems(
  ctx: StoreContext,
  actor: Actor,
  collectionId: string | null,
): Promise<{
  datasets: { id: string; name: string }[];
  charts: { id: string; title: string }[];
  dashboards: { id: string; title: string; slug: string }[];
} | null> {
  const checked = authorize(actor, "content.read") as Actor;
  if (levelIn(await accessOf(ctx.db, checked), collectionId) === null) return null;
  const inIt = (column: string) =>
    collectionId === null
      ? sql<SqlBool>`${sql.ref(column)} is null`
      : sql<SqlBool>`${sql.ref(column)} = ${collectionId}`;
  const [datasets, charts, dashboards] = await Promise.all([
    ctx.db
      .selectFrom("datasets")
      .select(["id", "name"])
      .where(inIt("collection_id"))
      .orderBy("name")
      .orderBy("id")
      .execute(),
    ctx.db
      .selectFrom("charts")
      .select(["id", "title"])
      .where(inIt("collection_id"))
      .orderBy("title")
      .orderBy("id")
      .execute(),
    ctx.db
      .selectFrom("dashboards")
      .select(["id", "title", "slug"])
      .where(inIt("collection_id"))
      .orderBy("title")
      .orderBy("id")
      .execute(),
  ]);
  return { datasets, charts, dashboards };
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
  placeOf,
  collectionItems,
};
