import { ForbiddenError, groupLimits, ValidationError } from "@seed/model";
import { describe, expect, it } from "vitest";
import type { Store } from "../src/index.js";
import { internalsOf } from "../src/raw-handles.js";
import { admin, editor, viewer } from "./actors.js";
import { dialects, errorOf, openTestStore } from "./helpers.js";

/** better-auth's user table, as the web app has it, with these accounts. */
async function withAccounts(store: Store, ids: readonly string[]): Promise<void> {
  const { db } = internalsOf(store);
  await db.schema
    .createTable("user")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("email", "text")
    .addColumn("banned", "integer")
    .execute();
  await db
    .insertInto("user" as never)
    .values(ids.map((id) => ({ id, email: `${id}@example.com`, banned: 0 })) as never)
    .execute();
}

function fieldErrorsOf(error: unknown): Record<string, string[]> {
  expect(error).toBeInstanceOf(ValidationError);
  return (error as ValidationError).fieldErrors;
}

const account = (id: string) => ({ id, email: `${id}@example.com`, role: "viewer" as const });

describe.each(dialects)("groups of accounts on %s", (dialect) => {
  it("an admin makes, renames and deletes groups; names are one group whatever their case; audited", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });
    const finance = await store.createGroup(admin, { name: "  Finance   team " });
    expect(finance.name).toBe("Finance team");
    await store.createGroup(admin, { name: "analysts" });

    expect(
      fieldErrorsOf(await errorOf(store.createGroup(admin, { name: "FINANCE TEAM" }))),
    ).toEqual({ name: ["There is already a group named Finance team."] });
    expect(fieldErrorsOf(await errorOf(store.createGroup(admin, { name: "  " })))).toEqual({
      name: ["Enter a name."],
    });
    expect(
      fieldErrorsOf(await errorOf(store.createGroup(admin, { name: "x".repeat(81) }))).name,
    ).toEqual(["Keep the name under 81 characters."]);
    expect(
      fieldErrorsOf(await errorOf(store.renameGroup(admin, finance.id, { name: "Analysts" }))),
    ).toEqual({ name: ["There is already a group named analysts."] });

    await store.renameGroup(admin, finance.id, { name: "Finance" });
    expect((await store.listGroups(admin)).map((group) => group.name)).toEqual([
      "analysts",
      "Finance",
    ]);
    await store.deleteGroup(admin, finance.id);
    expect((await store.listGroups(admin)).map((group) => group.name)).toEqual(["analysts"]);
    const missing = await errorOf(store.deleteGroup(admin, finance.id));
    expect((missing as ValidationError).formError).toBe("This group no longer exists.");

    const { events } = await store.listAuditEvents({ entityType: "group" });
    expect(events.map((event) => [event.action, event.detail])).toEqual([
      ["group.delete", { name: "Finance", members: 0 }],
      ["group.rename", { name: "Finance", previousName: "Finance team" }],
      ["group.create", { name: "analysts" }],
      ["group.create", { name: "Finance team" }],
    ]);
  });

  it("admins making the same group at once: one is made, the others are told the name is taken", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });
    const results = await Promise.allSettled(
      ["Ops", "ops", " OPS ", "Ops", "oPs", "Ops"].map((name) =>
        store.createGroup(admin, { name }),
      ),
    );
    const made = results.filter((result) => result.status === "fulfilled");
    expect(made).toHaveLength(1);
    for (const result of results) {
      if (result.status === "rejected") {
        expect(fieldErrorsOf(result.reason).name?.[0]).toMatch(/^There is already a group named /);
      }
    }
    expect((await store.listGroups(admin)).map((group) => group.name)).toHaveLength(1);
  });

  it("only admins see or change groups", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });
    const group = await store.createGroup(admin, { name: "Sales" });
    for (const actor of [editor, viewer]) {
      // Each asked and awaited in turn: a refusal is audited before it is answered.
      for (const attempt of [
        () => store.listGroups(actor),
        () => store.createGroup(actor, { name: "Mine" }),
        () => store.renameGroup(actor, group.id, { name: "Mine" }),
        () => store.deleteGroup(actor, group.id),
        () => store.setGroupMembers(actor, group.id, { userIds: [actor.id] }),
      ]) {
        expect(await errorOf(attempt())).toBeInstanceOf(ForbiddenError);
      }
    }
    expect((await store.listGroups(admin)).map((one) => one.name)).toEqual(["Sales"]);
  });

  it("an admin's members replace the admin's earlier choice; unknown accounts change nothing", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });
    await withAccounts(store, ["ann", "bob", "cy"]);
    const group = await store.createGroup(admin, { name: "Sales" });

    expect(
      await store.setGroupMembers(admin, group.id, { userIds: ["bob", "ann", "ann"] }),
    ).toEqual({ added: ["ann", "bob"], removed: [] });
    expect(await store.setGroupMembers(admin, group.id, { userIds: ["cy", "bob"] })).toEqual({
      added: ["cy"],
      removed: ["ann"],
    });
    const refused = await errorOf(
      store.setGroupMembers(admin, group.id, { userIds: ["ann", "ghost"] }),
    );
    expect(fieldErrorsOf(refused)).toEqual({
      userIds: ["Some chosen accounts no longer exist. Reload the page."],
    });
    const [listed] = await store.listGroups(admin);
    expect(listed?.members.map((member) => member.userId).sort()).toEqual(["bob", "cy"]);
    expect((await store.groupsOfUser("cy")).map((one) => one.name)).toEqual(["Sales"]);

    const updates = await store.listAuditEvents({ action: "group.update-members" });
    expect(updates.events.map((event) => event.detail)).toEqual([
      { name: "Sales", added: ["cy"], removed: ["ann"] },
      { name: "Sales", added: ["ann", "bob"], removed: [] },
    ]);
  });

  it("a sign-in's claim sets exactly the account's groups from the claim; an admin's stay", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });
    await withAccounts(store, ["ann"]);
    const madeByAdmin = await store.createGroup(admin, { name: "Finance" });
    const other = await store.createGroup(admin, { name: "Support" });
    await store.setGroupMembers(admin, other.id, { userIds: ["ann"] });

    // The claim's "finance" is the admin's Finance; "Ops" is new and made by the sign-in.
    expect(await store.syncSignOnGroups(account("ann"), ["finance", " Ops ", "Support"])).toEqual({
      joined: ["Finance", "Ops", "Support"],
      left: [],
      refused: [],
    });
    expect(
      (await store.groupsOfUser("ann")).map((one) => [one.name, one.sources.join("+")]),
    ).toEqual([
      ["Finance", "sign-on"],
      ["Ops", "sign-on"],
      ["Support", "admin+sign-on"],
    ]);
    const again = await store.syncSignOnGroups(account("ann"), ["Finance", "Ops", "Support"]);
    expect(again).toEqual({ joined: [], left: [], refused: [] });

    // A later sign-in without Support and Finance: out of them by the claim; the admin's Support stays.
    expect(await store.syncSignOnGroups(account("ann"), ["Ops", "", "bad\u0007name"])).toEqual({
      joined: [],
      left: ["Finance", "Support"],
      refused: ["", "bad\u0007name"],
    });
    expect(
      (await store.groupsOfUser("ann")).map((one) => [one.name, one.sources.join("+")]),
    ).toEqual([
      ["Ops", "sign-on"],
      ["Support", "admin"],
    ]);
    const groups = await store.listGroups(admin);
    expect(groups.find((one) => one.name === "Ops")?.createdBy).toBe("sign-on");
    expect(groups.find((one) => one.id === madeByAdmin.id)?.members).toEqual([]);

    const synced = await store.listAuditEvents({ action: "user.groups-from-sign-on" });
    expect(synced.events.map((event) => [event.actor.id, event.entityId, event.detail])).toEqual([
      ["ann", "ann", { joined: [], left: ["Finance", "Support"] }],
      ["ann", "ann", { joined: ["Finance", "Ops", "Support"], left: [] }],
    ]);
  });

  it("a claim naming more groups than allowed takes the first ones and returns the rest", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });
    const names = Array.from({ length: groupLimits.maxFromSignOn + 3 }, (_, n) => `Team ${n}`);
    const result = await store.syncSignOnGroups(account("ann"), names);
    expect(result.joined).toHaveLength(groupLimits.maxFromSignOn);
    expect(result.refused).toEqual(names.slice(groupLimits.maxFromSignOn));
  });

  it("accounts signing in at once with the same new group share one group", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });
    const ids = Array.from({ length: 6 }, (_, n) => `user-${n}`);
    await Promise.all(ids.map((id) => store.syncSignOnGroups(account(id), ["New team"])));
    const groups = await store.listGroups(admin);
    expect(groups.map((group) => group.name)).toEqual(["New team"]);
    expect(groups[0]?.members.map((member) => member.userId).sort()).toEqual(ids);
  });

  it("a deleted account leaves its groups, and is not listed while it lingers", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });
    await withAccounts(store, ["ann", "bob"]);
    const group = await store.createGroup(admin, { name: "Sales" });
    await store.setGroupMembers(admin, group.id, { userIds: ["ann", "bob"] });
    await internalsOf(store)
      .db.deleteFrom("user" as never)
      .where("id" as never, "=", "bob" as never)
      .execute();
    expect((await store.listGroups(admin))[0]?.members.map((member) => member.userId)).toEqual([
      "ann",
    ]);
    await store.forgetGroupMember("ann");
    expect(await store.groupsOfUser("ann")).toEqual([]);
  });
});
