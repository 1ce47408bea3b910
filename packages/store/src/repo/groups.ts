import {
  type GroupMemberSource,
  groupLimits,
  groupNameKey,
  groupNameRefusal,
  normalGroupName,
  ValidationError,
} from "@seed/model";
import { sql } from "kysely";
import { z } from "zod";
import { type Actor, authorize } from "../access/policy.js";
import { type Executor, newId, parseInput, type StoreContext, writeAudit } from "../context.js";
import { dialectOf } from "../db/dialect.js";
import { forgetGroupGrants } from "./collections.js";
import { refuseAtLimit, refuseTakenName, refusingRaces, takenName } from "./named-records.js";
import { forgetRowLimits } from "./row-limits.js";

// Groups of accounts: an admin makes them and chooses members, or the identity provider names
// them in a claim at sign-in. A member is in a group by an admin's choice, by the claim, or both;
// each source is kept apart, so a sign-in never undoes an admin's choice nor the other way round.
// Names are one group per key (normalGroupName, lower case), whoever made it first.

/** A group as the Users pages list it: its members by account id, with how each is in it. */
export interface AccountGroup {
  id: string;
  name: string;
  createdBy: GroupMemberSource;
  createdAt: string;
  members: { userId: string; sources: GroupMemberSource[] }[];
}

/** A group one account is in, with how. */
export interface GroupMembership {
  id: string;
  name: string;
  sources: GroupMemberSource[];
}

const nameSchema = z.string({ error: "Enter a name." }).superRefine((name, issue) => {
  const refusal = groupNameRefusal(name);
  if (refusal) issue.addIssue({ code: "custom", message: refusal });
});

const memberIdsSchema = z
  .array(z.string().min(1).max(200), { error: "Choose members from the list." })
  .max(groupLimits.maxMembers, `A group holds at most ${groupLimits.maxMembers} members.`);

const missingGroup = () =>
  new ValidationError({ fieldErrors: {}, formError: "This group no longer exists." });

/** The accounts among `ids` that exist (all of them before better-auth's tables exist). */
async function existingUserIds(db: Executor, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  if (!(await dialectOf(db).tableExists(db, "user"))) return new Set(ids);
  const found = new Set<string>();
  for (let start = 0; start < ids.length; start += 500) {
    const rows = await sql<{
      id: string;
    }>`select id from ${sql.table("user")} where id in (${sql.join(
      ids.slice(start, start + 500),
    )})`.execute(db);
    for (const row of rows.rows) found.add(row.id);
  }
  return found;
}

function sourcesIn(rows: readonly { source: string }[]): GroupMemberSource[] {
  const sources = new Set(rows.map((row) => row.source));
  return (["admin", "sign-on"] as const).filter((source) => sources.has(source));
}

/** Every group, by name, with members that still have an account. Admins only. */
async function listGroups(ctx: StoreContext, actor: Actor): Promise<AccountGroup[]> {
  authorize(actor, "users.manage");
  const groups = await ctx.db.selectFrom("account_groups").selectAll().execute();
  const members = await ctx.db.selectFrom("account_group_members").selectAll().execute();
  const live = await existingUserIds(ctx.db, [...new Set(members.map((row) => row.user_id))]);
  return groups
    .map((group) => {
      const byUser = new Map<string, { source: string }[]>();
      for (const row of members) {
        if (row.group_id !== group.id || !live.has(row.user_id)) continue;
        byUser.set(row.user_id, [...(byUser.get(row.user_id) ?? []), row]);
      }
      return {
        id: group.id,
        name: group.name,
        createdBy: group.created_by === "sign-on" ? ("sign-on" as const) : ("admin" as const),
        createdAt: group.created_at,
        members: [...byUser].map(([userId, rows]) => ({ userId, sources: sourcesIn(rows) })),
      };
    })
    .sort((a, b) => a.name.localeCompare(b.name, "en", { sensitivity: "base" }));
}

/** One group with its members, or null when there is none by this id. Admins only. */
async function getGroup(
  ctx: StoreContext,
  actor: Actor,
  groupId: string,
): Promise<AccountGroup | null> {
  return (await listGroups(ctx, actor)).find((group) => group.id === groupId) ?? null;
}

/** The groups an account is in, by name (for the session's policy and the Users page). */
async function groupsOfUser(ctx: StoreContext, userId: string): Promise<GroupMembership[]> {
  const rows = await ctx.db
    .selectFrom("account_group_members")
    .innerJoin("account_groups", "account_groups.id", "account_group_members.group_id")
    .select(["account_groups.id", "account_groups.name", "account_group_members.source"])
    .where("account_group_members.user_id", "=", userId)
    .execute();
  const byGroup = new Map<string, { name: string; rows: { source: string }[] }>();
  for (const row of rows) {
    const entry = byGroup.get(row.id) ?? { name: row.name, rows: [] };
    entry.rows.push(row);
    byGroup.set(row.id, entry);
  }
  return [...byGroup]
    .map(([id, entry]) => ({ id, name: entry.name, sources: sourcesIn(entry.rows) }))
    .sort((a, b) => a.name.localeCompare(b.name, "en", { sensitivity: "base" }));
}

/** A new group with no members; its name is taken by no other group (in any case). */
async function createGroup(
  ctx: StoreContext,
  actor: Actor,
  input: { name: string },
): Promise<AccountGroup> {
  const checked = authorize(actor, "users.manage");
  const name = normalGroupName(parseInput(z.object({ name: nameSchema }), input).name);
  const id = newId();
  const createdAt = ctx.now().toISOString();
  await refusingRaces(
    () =>
      ctx.db.transaction().execute(async (trx) => {
        await refuseTakenName(trx, "account_groups", groupNameKey(name), null);
        await refuseAtLimit(trx, "account_groups", groupLimits.maxGroups);
        await trx
          .insertInto("account_groups")
          .values({
            id,
            name,
            name_key: groupNameKey(name),
            created_by: "admin",
            created_at: createdAt,
          })
          .execute();
        await writeAudit(trx, ctx, checked, "group.create", "group", id, { name });
      }),
    () => takenName("account_groups", name),
  );
  return { id, name, createdBy: "admin", createdAt, members: [] };
}

async function groupRow(db: Executor, groupId: string) {
  const row = await db
    .selectFrom("account_groups")
    .selectAll()
    .where("id", "=", String(groupId))
    .executeTakeFirst();
  if (!row) throw missingGroup();
  return row;
}

/** A new name for a group (a provider's claim then finds it by the new name). */
async function renameGroup(
  ctx: StoreContext,
  actor: Actor,
  groupId: string,
  input: { name: string },
): Promise<void> {
  const checked = authorize(actor, "users.manage");
  const name = normalGroupName(parseInput(z.object({ name: nameSchema }), input).name);
  await refusingRaces(
    () =>
      ctx.db.transaction().execute(async (trx) => {
        const group = await groupRow(trx, groupId);
        if (group.name === name) return;
        await refuseTakenName(trx, "account_groups", groupNameKey(name), group.id);
        await trx
          .updateTable("account_groups")
          .set({ name, name_key: groupNameKey(name) })
          .where("id", "=", group.id)
          .execute();
        await writeAudit(trx, ctx, checked, "group.rename", "group", group.id, {
          name,
          previousName: group.name,
        });
      }),
    () => takenName("account_groups", name),
  );
}

/** Deletes a group, every membership of it and its collections' grants; a later sign-in naming it makes it again. */
async function deleteGroup(ctx: StoreContext, actor: Actor, groupId: string): Promise<void> {
  const checked = authorize(actor, "users.manage");
  await ctx.db.transaction().execute(async (trx) => {
    const group = await groupRow(trx, groupId);
    const members = await trx
      .selectFrom("account_group_members")
      .select("user_id")
      .distinct()
      .where("group_id", "=", group.id)
      .execute();
    await trx.deleteFrom("account_group_members").where("group_id", "=", group.id).execute();
    await forgetGroupGrants(trx, group.id);
    await forgetRowLimits(trx, { groupId: group.id });
    await trx.deleteFrom("account_groups").where("id", "=", group.id).execute();
    await writeAudit(trx, ctx, checked, "group.delete", "group", group.id, {
      name: group.name,
      members: members.length,
    });
  });
}

/**
 * The members an admin puts in a group, replacing the admin's earlier choice; members the
 * provider's claim put there stay. Unknown accounts are refused, and nothing is written.
 */
async function setGroupMembers(
  ctx: StoreContext,
  actor: Actor,
  groupId: string,
  input: { userIds: readonly string[] },
): Promise<{ added: string[]; removed: string[] }> {
  const checked = authorize(actor, "users.manage");
  const wanted = [
    ...new Set(parseInput(z.object({ userIds: memberIdsSchema }), input).userIds),
  ].sort();
  return refusingRaces(
    () =>
      ctx.db.transaction().execute(async (trx) => {
        const group = await groupRow(trx, groupId);
        const existing = await existingUserIds(trx, wanted);
        const unknown = wanted.filter((id) => !existing.has(id));
        if (unknown.length > 0) {
          throw new ValidationError({
            fieldErrors: { userIds: ["Some chosen accounts no longer exist. Reload the page."] },
          });
        }
        const before = (
          await trx
            .selectFrom("account_group_members")
            .select("user_id")
            .where("group_id", "=", group.id)
            .where("source", "=", "admin")
            .execute()
        ).map((row) => row.user_id);
        const added = wanted.filter((id) => !before.includes(id));
        const removed = before.filter((id) => !wanted.includes(id));
        if (added.length === 0 && removed.length === 0) return { added, removed };
        if (removed.length > 0) {
          await trx
            .deleteFrom("account_group_members")
            .where("group_id", "=", group.id)
            .where("source", "=", "admin")
            .where("user_id", "in", removed)
            .execute();
        }
        const at = ctx.now().toISOString();
        for (let start = 0; start < added.length; start += 500) {
          await trx
            .insertInto("account_group_members")
            .values(
              added.slice(start, start + 500).map((userId) => ({
                group_id: group.id,
                user_id: userId,
                source: "admin",
                added_at: at,
              })),
            )
            .execute();
        }
        await writeAudit(trx, ctx, checked, "group.update-members", "group", group.id, {
          name: group.name,
          added: added.slice(0, 50),
          removed: removed.slice(0, 50),
          ...(added.length + removed.length > 100
            ? { addedCount: added.length, removedCount: removed.length }
            : {}),
        });
        return { added, removed };
      }),
    () =>
      new ValidationError({
        fieldErrors: {},
        formError:
          "Another admin changed this group's members at the same time. Reload the page and save again.",
      }),
  );
}

/**
 * At a sign-in through the identity provider: the account's groups from the claim become
 * exactly `names` (groups an admin put it in stay). A name no group has yet makes the group.
 * Names that cannot name a group, and names past the first groupLimits.maxFromSignOn, are not
 * taken and are returned, so the caller can say so. The account acts on its own groups (any
 * role), and the change is audited on it.
 */
async function syncSignOnGroups(
  ctx: StoreContext,
  account: Actor,
  names: readonly unknown[],
): Promise<{ joined: string[]; left: string[]; refused: string[] }> {
  const checked = authorize(account, "content.read") as Actor;
  const refused: string[] = [];
  const wanted = new Map<string, string>();
  for (const raw of names) {
    const text = typeof raw === "string" ? raw : String(raw);
    if (groupNameRefusal(text) !== null || wanted.size >= groupLimits.maxFromSignOn) {
      refused.push(text.slice(0, 200));
      continue;
    }
    const name = normalGroupName(text);
    if (!wanted.has(groupNameKey(name))) wanted.set(groupNameKey(name), name);
  }
  return ctx.db.transaction().execute(async (trx) => {
    const at = ctx.now().toISOString();
    const ids = new Map<string, { id: string; name: string }>();
    for (const [key, name] of wanted) {
      await trx
        .insertInto("account_groups")
        .values({ id: newId(), name, name_key: key, created_by: "sign-on", created_at: at })
        .onConflict((conflict) => conflict.column("name_key").doNothing())
        .execute();
      const row = await trx
        .selectFrom("account_groups")
        .select(["id", "name"])
        .where("name_key", "=", key)
        .executeTakeFirstOrThrow();
      ids.set(row.id, row);
    }
    const before = await trx
      .selectFrom("account_group_members")
      .innerJoin("account_groups", "account_groups.id", "account_group_members.group_id")
      .select(["account_groups.id", "account_groups.name"])
      .where("account_group_members.user_id", "=", checked.id)
      .where("account_group_members.source", "=", "sign-on")
      .execute();
    const left = before.filter((row) => !ids.has(row.id));
    const joined = [...ids.values()].filter((group) => !before.some((row) => row.id === group.id));
    if (left.length > 0) {
      await trx
        .deleteFrom("account_group_members")
        .where("user_id", "=", checked.id)
        .where("source", "=", "sign-on")
        .where(
          "group_id",
          "in",
          left.map((row) => row.id),
        )
        .execute();
    }
    if (joined.length > 0) {
      await trx
        .insertInto("account_group_members")
        .values(
          joined.map((group) => ({
            group_id: group.id,
            user_id: checked.id,
            source: "sign-on",
            added_at: at,
          })),
        )
        .execute();
    }
    const result = {
      joined: joined.map((group) => group.name),
      left: left.map((row) => row.name),
      refused,
    };
    if (joined.length > 0 || left.length > 0) {
      await writeAudit(trx, ctx, checked, "user.groups-from-sign-on", "user", checked.id, {
        joined: result.joined,
        left: result.left,
      });
    }
    return result;
  });
}

/** Drops a deleted account from every group (the web app calls this as it deletes the account). */
async function forgetGroupMember(ctx: StoreContext, userId: string): Promise<void> {
  await ctx.db.deleteFrom("account_group_members").where("user_id", "=", userId).execute();
  // Its attributes from the provider (row limits compare with them) go too.
  await ctx.db.deleteFrom("account_attributes").where("user_id", "=", userId).execute();
}

export const groupOperations = {
  listGroups,
  getGroup,
  groupsOfUser,
  createGroup,
  renameGroup,
  deleteGroup,
  setGroupMembers,
  /** For the sign-on hooks only: the account's groups from the provider's claim. */
  syncSignOnGroups,
  forgetGroupMember,
};
