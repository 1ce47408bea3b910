import {
  boundedAttributes,
  ForbiddenError,
  type GroupRowAccess,
  type QueryFilter,
  type RowLimitConditions,
  resolveRowLimits,
  rowLimitLimits,
  rowLimitPhrase,
  rowLimitProblems,
  rowLimitSchema,
  rowsSeenBy,
  ValidationError,
} from "@seed/model";
import { type Actor, authorize } from "../access/policy.js";
import { type Executor, parseInput, parseJson, type StoreContext, writeAudit } from "../context.js";
import type { SeenBy } from "./collections.js";
import { queryColumnsIn } from "./datasets/fields.js";

// Row limits: an admin narrows a group's access to a dataset to the rows meeting its conditions.
// This module is the one home of what an account reads of a dataset (`rowsSeenIn`); the engine
// adds the answer to every statement that reads the dataset for that account (chart queries,
// dashboard tiles and filter lists, the rows page, exports, previews), and SQL questions, which
// could read around it, are refused to any account a row limit applies to.

/** A group's limit on a dataset, as the dataset's page lists it. */
export interface RowLimit {
  groupId: string;
  groupName: string;
  conditions: RowLimitConditions;
  /** The conditions in words ("region is North"). */
  phrase: string;
  updatedAt: string;
}

async function groupsOf(db: Executor, actor: Actor): Promise<string[]> {
  const rows = await db
    .selectFrom("account_group_members")
    .select("group_id")
    .distinct()
    .where("user_id", "=", actor.id)
    .execute();
  return rows.map((row) => row.group_id);
}

/**
 * The rows of a dataset the reader reads: null for every row (trusted reads, admins, accounts no
 * row limit applies to), else the condition sets of which a row must meet one (@seed/model
 * rowsSeenBy), its attributes put in (resolveRowLimits; none left: no rows).
 */
export async function rowsSeenIn(
  db: Executor,
  reader: SeenBy,
  datasetId: string,
): Promise<QueryFilter[][] | null> {
  const actor = reader.seenBy;
  if (actor === undefined || actor.role === "admin") return null;
  const groups = await groupsOf(db, actor);
  if (groups.length === 0) return null;
  const dataset = await db
    .selectFrom("datasets")
    .select(["collection_id", "question_sql"])
    .where("id", "=", datasetId)
    .executeTakeFirst();
  // A saved question reads other datasets in SQL, around their limits: not for limited accounts.
  if (dataset?.question_sql != null && (await rowLimited(db, actor))) {
    throw new ForbiddenError("sql.run", actor.id, limitedQuestionReason);
  }
  const limits = await db
    .selectFrom("row_limits")
    .select(["group_id", "conditions_json"])
    .where("dataset_id", "=", datasetId)
    .where("group_id", "in", groups)
    .orderBy("group_id")
    .execute();
  if (limits.length === 0) return null;
  const granted = new Set(
    dataset?.collection_id
      ? (
          await db
            .selectFrom("collection_grants")
            .select("group_id")
            .where("collection_id", "=", dataset.collection_id)
            .where("group_id", "in", groups)
            .execute()
        ).map((grant) => grant.group_id)
      : [],
  );
  const limitOf = new Map(
    limits.map((limit) => [limit.group_id, parseJson<RowLimitConditions>(limit.conditions_json)]),
  );
  const access: GroupRowAccess[] = groups.map((group) => ({
    limit: limitOf.get(group) ?? null,
    grantsCollection: granted.has(group),
  }));
  const sets = rowsSeenBy(actor.role, access);
  if (sets === null) return null;
  const named = sets.some((set) => set.some((condition) => condition.op === "is_attribute"));
  return resolveRowLimits(sets, named ? await attributesOf(db, actor.id) : {});
}

/** An account's attributes from its provider's claims, by name. */
async function attributesOf(db: Executor, userId: string): Promise<Record<string, string[]>> {
  const rows = await db
    .selectFrom("account_attributes")
    .select(["name", "values_json"])
    .where("user_id", "=", userId)
    .execute();
  return Object.fromEntries(rows.map((row) => [row.name, parseJson<string[]>(row.values_json)]));
}

/**
 * For the sign-on hooks only: the account's attributes from the provider's claims (named by
 * SEED_OIDC_ATTRIBUTE_CLAIMS), exactly; an attribute the claims no longer give is gone. Bounded
 * (@seed/model boundedAttributes); what is left out is returned, to be logged. A change is
 * audited on the account, by name (the values are the provider's).
 */
async function syncSignOnAttributes(
  ctx: StoreContext,
  account: Actor,
  raw: Readonly<Record<string, readonly unknown[]>>,
): Promise<{ refused: string[] }> {
  const checked = authorize(account, "content.read") as Actor;
  const { attributes, refused } = boundedAttributes(raw);
  await ctx.db.transaction().execute(async (trx) => {
    const before = await attributesOf(trx, checked.id);
    const same = (name: string) =>
      JSON.stringify(before[name] ?? null) === JSON.stringify(attributes[name] ?? null);
    const changed = [...new Set([...Object.keys(before), ...Object.keys(attributes)])]
      .filter((name) => !same(name))
      .sort();
    if (changed.length === 0) return;
    const at = ctx.now().toISOString();
    await trx.deleteFrom("account_attributes").where("user_id", "=", checked.id).execute();
    const rows = Object.entries(attributes).map(([name, values]) => ({
      user_id: checked.id,
      name,
      values_json: JSON.stringify(values),
      updated_at: at,
    }));
    if (rows.length > 0) await trx.insertInto("account_attributes").values(rows).execute();
    await writeAudit(trx, ctx, checked, "user.attributes-from-sign-on", "user", checked.id, {
      changed,
    });
  });
  return { refused };
}

/** The datasets a row limit of one of the reader's groups names (none for trusted reads and admins). */
export async function limitedDatasetIds(db: Executor, reader: SeenBy): Promise<Set<string>> {
  const actor = reader.seenBy;
  if (actor === undefined || actor.role === "admin") return new Set();
  const rows = await db
    .selectFrom("row_limits")
    .innerJoin("account_group_members", "account_group_members.group_id", "row_limits.group_id")
    .select("row_limits.dataset_id")
    .distinct()
    .where("account_group_members.user_id", "=", actor.id)
    .execute();
  return new Set(rows.map((row) => row.dataset_id));
}

/** Whether any row limit applies to the account (its groups limit some dataset). */
export async function rowLimited(db: Executor, actor: Actor): Promise<boolean> {
  return (await limitedDatasetIds(db, { seenBy: actor })).size > 0;
}

/** Why an account a row limit applies to asks no SQL questions. */
export const limitedSqlReason =
  "SQL questions are unavailable to your account: a group of yours sees only some rows of a dataset.";

/** Why an account a row limit applies to reads no saved SQL question. */
export const limitedQuestionReason =
  "This dataset is a saved SQL question, unavailable to your account: a group of yours sees only some rows of a dataset.";

/** Refuses SQL to an account a row limit applies to: a statement could read around it. */
export async function refuseSqlWhenLimited(db: Executor, actor: Actor): Promise<void> {
  if (await rowLimited(db, actor)) {
    throw new ForbiddenError("sql.run", actor.id, limitedSqlReason);
  }
}

async function listRowLimitsIn(db: Executor, datasetId: string): Promise<RowLimit[]> {
  const rows = await db
    .selectFrom("row_limits")
    .innerJoin("account_groups", "account_groups.id", "row_limits.group_id")
    .select([
      "row_limits.group_id",
      "account_groups.name",
      "row_limits.conditions_json",
      "row_limits.updated_at",
    ])
    .where("row_limits.dataset_id", "=", datasetId)
    .orderBy("account_groups.name_key")
    .execute();
  return rows.map((row) => {
    const conditions = parseJson<RowLimitConditions>(row.conditions_json);
    return {
      groupId: row.group_id,
      groupName: row.name,
      conditions,
      phrase: rowLimitPhrase(conditions),
      updatedAt: row.updated_at,
    };
  });
}

/** The row limits set on a dataset, by group name (admins). */
async function listRowLimits(
  ctx: StoreContext,
  actor: Actor,
  datasetId: string,
): Promise<RowLimit[]> {
  authorize(actor, "collections.manage");
  return listRowLimitsIn(ctx.db, datasetId);
}

const missing = (what: string) =>
  new ValidationError({
    fieldErrors: {},
    formError: `This ${what} no longer exists. Reload the page.`,
  });

async function namesOf(trx: Executor, datasetId: string, groupId: string) {
  const dataset = await trx
    .selectFrom("datasets")
    .select(["id", "name"])
    .where("id", "=", datasetId)
    .executeTakeFirst();
  if (!dataset) throw missing("dataset");
  const group = await trx
    .selectFrom("account_groups")
    .select(["id", "name"])
    .where("id", "=", groupId)
    .executeTakeFirst();
  if (!group) throw missing("group");
  return { dataset, group };
}

/**
 * Limits a group's access to a dataset to the rows meeting every condition (replacing its limit
 * there, if any). The conditions are checked against the dataset's columns, as a chart's filters.
 */
async function setRowLimit(
  ctx: StoreContext,
  actor: Actor,
  input: { datasetId: string; groupId: string; conditions: unknown },
): Promise<RowLimit> {
  const checked = authorize(actor, "collections.manage") as Actor;
  const { conditions } = parseInput(rowLimitSchema, { conditions: input.conditions });
  return ctx.db.transaction().execute(async (trx) => {
    const { dataset, group } = await namesOf(trx, input.datasetId, input.groupId);
    const columns = await queryColumnsIn(trx, dataset.id);
    if (!columns) throw missing("dataset");
    const problems = rowLimitProblems(conditions, columns);
    if (Object.keys(problems).length > 0) throw new ValidationError({ fieldErrors: problems });
    const before = await trx
      .selectFrom("row_limits")
      .select("conditions_json")
      .where("dataset_id", "=", dataset.id)
      .where("group_id", "=", group.id)
      .executeTakeFirst();
    if (!before) {
      const count = await trx
        .selectFrom("row_limits")
        .select((eb) => eb.fn.countAll<number | string>().as("n"))
        .where("dataset_id", "=", dataset.id)
        .executeTakeFirstOrThrow();
      if (Number(count.n) >= rowLimitLimits.maxPerDataset) {
        throw new ValidationError({
          fieldErrors: {},
          formError: `A dataset has at most ${rowLimitLimits.maxPerDataset} row limits.`,
        });
      }
    }
    const updatedAt = ctx.now().toISOString();
    const conditionsJson = JSON.stringify(conditions);
    await trx
      .insertInto("row_limits")
      .values({
        group_id: group.id,
        dataset_id: dataset.id,
        conditions_json: conditionsJson,
        updated_at: updatedAt,
      })
      .onConflict((conflict) =>
        conflict
          .columns(["group_id", "dataset_id"])
          .doUpdateSet({ conditions_json: conditionsJson, updated_at: updatedAt }),
      )
      .execute();
    await writeAudit(trx, ctx, checked, "dataset.set-row-limit", "dataset", dataset.id, {
      name: dataset.name,
      group: group.name,
      rows: rowLimitPhrase(conditions),
      ...(before
        ? { previous: rowLimitPhrase(parseJson<RowLimitConditions>(before.conditions_json)) }
        : {}),
    });
    return {
      groupId: group.id,
      groupName: group.name,
      conditions,
      phrase: rowLimitPhrase(conditions),
      updatedAt,
    };
  });
}

/** Lifts a group's row limit on a dataset (its grants then give every row). */
async function clearRowLimit(
  ctx: StoreContext,
  actor: Actor,
  input: { datasetId: string; groupId: string },
): Promise<void> {
  const checked = authorize(actor, "collections.manage") as Actor;
  await ctx.db.transaction().execute(async (trx) => {
    const { dataset, group } = await namesOf(trx, input.datasetId, input.groupId);
    const before = await trx
      .deleteFrom("row_limits")
      .where("dataset_id", "=", dataset.id)
      .where("group_id", "=", group.id)
      .returning("conditions_json")
      .executeTakeFirst();
    if (!before) return;
    await writeAudit(trx, ctx, checked, "dataset.clear-row-limit", "dataset", dataset.id, {
      name: dataset.name,
      group: group.name,
      previous: rowLimitPhrase(parseJson<RowLimitConditions>(before.conditions_json)),
    });
  });
}

/** A deleted group's limits go with it; so do a deleted dataset's. */
export async function forgetRowLimits(
  db: Executor,
  of: { groupId: string } | { datasetId: string },
): Promise<void> {
  if ("groupId" in of)
    await db.deleteFrom("row_limits").where("group_id", "=", of.groupId).execute();
  else await db.deleteFrom("row_limits").where("dataset_id", "=", of.datasetId).execute();
}

/**
 * Whether a row limit applies to the signed-in account anywhere: such an account asks no SQL
 * questions and signs no embed links (a link's reader is not limited).
 */
async function isRowLimited(ctx: StoreContext, actor: Actor): Promise<boolean> {
  return rowLimited(ctx.db, authorize(actor, "content.read") as Actor);
}

export const rowLimitOperations = {
  listRowLimits,
  setRowLimit,
  clearRowLimit,
  isRowLimited,
  /** For the sign-on hooks only: the account's attributes from the provider's claims. */
  syncSignOnAttributes,
};
