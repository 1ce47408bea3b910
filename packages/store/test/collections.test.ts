import {
  type CollectionLevel,
  collectionLevels,
  ForbiddenError,
  type Role,
  roles,
  ValidationError,
} from "@seed/model";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Actor, Store } from "../src/index.js";
import { admin, editor, otherEditor, viewer } from "./actors.js";
import { dialects, errorOf, openTestStore, salesInput } from "./helpers.js";

const seed = Number(process.env.SEED_PROPERTY_SEED ?? Date.now() % 2_147_483_647);
console.log(`collections seed: ${seed} (rerun with SEED_PROPERTY_SEED=${seed})`);

function fieldErrorsOf(error: unknown): Record<string, string[]> {
  expect(error).toBeInstanceOf(ValidationError);
  return (error as ValidationError).fieldErrors;
}

function formErrorOf(error: unknown): string | undefined {
  expect(error).toBeInstanceOf(ValidationError);
  return (error as ValidationError).formError;
}

/** A group of these accounts, made by an admin. */
async function groupOf(store: Store, name: string, members: readonly Actor[]) {
  const group = await store.createGroup(admin, { name });
  await store.setGroupMembers(admin, group.id, { userIds: members.map((one) => one.id) });
  return group.id;
}

const rank: Record<CollectionLevel, number> = { view: 1, edit: 2, manage: 3 };

describe.each(dialects)("collections on %s", (dialect) => {
  it("an admin makes, renames and deletes collections; one name whatever its case; audited", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });
    const finance = await store.createCollection(admin, {
      name: "  Finance   reports ",
      description: "Monthly close",
    });
    expect(finance.name).toBe("Finance reports");
    expect(
      fieldErrorsOf(await errorOf(store.createCollection(admin, { name: "FINANCE REPORTS" }))),
    ).toEqual({ name: ["There is already a collection named Finance reports."] });
    expect(fieldErrorsOf(await errorOf(store.createCollection(admin, { name: "\t" })))).toEqual({
      name: ["Enter a name."],
    });
    expect(
      fieldErrorsOf(
        await errorOf(store.createCollection(admin, { name: "Ok", description: "x".repeat(501) })),
      ),
    ).toEqual({ description: ["Keep the description under 501 characters."] });

    await store.updateCollection(admin, finance.id, { name: "Finance", description: "" });
    const [listed] = await store.listCollections(admin);
    expect(listed).toMatchObject({
      name: "Finance",
      description: "",
      level: "manage",
      counts: { datasets: 0, charts: 0, dashboards: 0, sources: 0 },
      grants: [],
    });
    await store.deleteCollection(admin, finance.id);
    expect(await store.listCollections(admin)).toEqual([]);
    expect(formErrorOf(await errorOf(store.deleteCollection(admin, finance.id)))).toBe(
      "This collection no longer exists.",
    );
    const { events } = await store.listAuditEvents({ entityType: "collection" });
    expect(events.map((event) => [event.action, event.detail])).toEqual([
      ["collection.delete", { name: "Finance" }],
      ["collection.update", { name: "Finance", previousName: "Finance reports" }],
      ["collection.create", { name: "Finance reports" }],
    ]);
  });

  it("an account sees a collection only through its groups, at most its role's level", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });
    const team = await groupOf(store, "Team", [editor, viewer]);
    const leads = await groupOf(store, "Leads", [editor]);
    const room = await store.createCollection(admin, { name: "Room" });
    const hidden = await store.createCollection(admin, { name: "Hidden" });
    await store.setCollectionGrants(admin, room.id, {
      grants: [
        { groupId: team, level: "manage" },
        { groupId: leads, level: "view" },
      ],
    });

    // The viewer's grant is manage, but a viewer never edits; the editor has the best of two.
    expect((await store.collectionAccess(viewer)).byCollection).toEqual(
      new Map([[room.id, "view"]]),
    );
    expect((await store.collectionAccess(editor)).byCollection).toEqual(
      new Map([[room.id, "manage"]]),
    );
    expect((await store.collectionAccess(otherEditor)).byCollection).toEqual(new Map());
    expect((await store.collectionAccess(viewer)).shared).toBe("view");
    expect((await store.collectionAccess(otherEditor)).shared).toBe("edit");

    // Grants are shown to those who manage it, and nothing of a collection to the ungranted.
    const [asViewer] = await store.listCollections(viewer);
    expect(asViewer).toMatchObject({ name: "Room", level: "view", grants: [] });
    expect(asViewer?.counts.sources).toBeNull();
    const [asEditor] = await store.listCollections(editor);
    expect(asEditor?.grants.map((grant) => [grant.groupName, grant.level])).toEqual([
      ["Leads", "view"],
      ["Team", "manage"],
    ]);
    expect(await store.listCollections(otherEditor)).toEqual([]);
    expect(await store.getCollection(otherEditor, room.id)).toBeNull();
    expect(await store.getCollection(editor, hidden.id)).toBeNull();
    expect((await store.listCollections(admin)).map((one) => one.name)).toEqual(["Hidden", "Room"]);

    // A collection one cannot see is "no longer exists" to them, not "forbidden".
    expect(
      formErrorOf(await errorOf(store.updateCollection(otherEditor, room.id, { name: "Mine" }))),
    ).toBe("This collection no longer exists.");
    expect(await errorOf(store.updateCollection(viewer, room.id, { name: "Mine" }))).toBeInstanceOf(
      ForbiddenError,
    );
    await store.updateCollection(editor, room.id, { name: "Team room" });

    // Deleting a group takes its grants with it.
    await store.deleteGroup(admin, team);
    expect((await store.collectionAccess(viewer)).byCollection).toEqual(new Map());
    expect((await store.collectionAccess(editor)).byCollection).toEqual(
      new Map([[room.id, "view"]]),
    );
  });

  it("grants name existing groups once each; a manager cannot lock themselves out; nothing half-written", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });
    const team = await groupOf(store, "Team", [editor]);
    const others = await groupOf(store, "Others", [otherEditor]);
    const room = await store.createCollection(admin, { name: "Room" });
    await store.setCollectionGrants(admin, room.id, {
      grants: [{ groupId: team, level: "manage" }],
    });

    const tries: [unknown, Record<string, string[]>][] = [
      [
        {
          grants: [
            { groupId: others, level: "view" },
            { groupId: others, level: "edit" },
          ],
        },
        { grants: ["Name each group once, with one level."] },
      ],
      [
        { grants: [{ groupId: "ghost", level: "view" }] },
        { grants: ["Some chosen groups no longer exist. Reload the page."] },
      ],
      [
        { grants: [{ groupId: others, level: "own" }] },
        { "grants.0.level": ["Choose view, edit or manage."] },
      ],
      [
        { grants: [{ groupId: others, level: "manage" }] },
        {
          grants: [
            "Keep manage for a group you are in, or you could no longer manage this collection. An admin can change that.",
          ],
        },
      ],
    ];
    for (const [input, expected] of tries) {
      const error = await errorOf(store.setCollectionGrants(editor, room.id, input as never));
      const fields = fieldErrorsOf(error);
      for (const [field, messages] of Object.entries(expected)) {
        expect(fields[field] ?? fields[field.replace(/\.\d+\./, ".")], field).toEqual(messages);
      }
    }
    const [unchanged] = await store.listCollections(admin);
    expect(unchanged?.grants.map((grant) => [grant.groupName, grant.level])).toEqual([
      ["Team", "manage"],
    ]);

    await store.setCollectionGrants(editor, room.id, {
      grants: [
        { groupId: team, level: "manage" },
        { groupId: others, level: "edit" },
      ],
    });
    expect((await store.collectionAccess(otherEditor)).byCollection.get(room.id)).toBe("edit");
    const [event] = (await store.listAuditEvents({ action: "collection.set-grants" })).events;
    expect(event?.detail).toEqual({
      name: "Room",
      grants: ["Team: manage", "Others: edit"],
      previous: ["Team: manage"],
    });
  });

  it("moving records needs edit where they are and where they go; a collection with records is not deleted", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });
    const team = await groupOf(store, "Team", [editor]);
    const readers = await groupOf(store, "Readers", [otherEditor]);
    const room = await store.createCollection(admin, { name: "Room" });
    const shelf = await store.createCollection(admin, { name: "Shelf" });
    await store.setCollectionGrants(admin, room.id, {
      grants: [
        { groupId: team, level: "edit" },
        { groupId: readers, level: "view" },
      ],
    });
    const dataset = await store.createDataset(salesInput("Sales"), admin);
    const item = { entityType: "dataset" as const, id: dataset.id };

    await store.moveToCollection(editor, item, room.id);
    // Into a collection the editor cannot see: "no longer exists"; out of one it only views: forbidden.
    expect(formErrorOf(await errorOf(store.moveToCollection(editor, item, shelf.id)))).toBe(
      "This collection no longer exists.",
    );
    expect(await errorOf(store.moveToCollection(otherEditor, item, null))).toBeInstanceOf(
      ForbiddenError,
    );
    expect(await errorOf(store.moveToCollection(viewer, item, null))).toBeInstanceOf(
      ForbiddenError,
    );
    const [held] = await store.listCollections(editor);
    expect(held?.counts).toMatchObject({ datasets: 1, charts: 0, dashboards: 0 });

    expect(formErrorOf(await errorOf(store.deleteCollection(admin, room.id)))).toBe(
      "This collection holds 1 dataset. Move or delete them first.",
    );
    expect(
      formErrorOf(
        await errorOf(store.moveToCollection(editor, { entityType: "chart", id: "nope" }, null)),
      ),
    ).toBe("This chart no longer exists.");

    await store.moveToCollection(admin, item, shelf.id);
    // Now in a collection the editor cannot see: the dataset "no longer exists" to them.
    expect(formErrorOf(await errorOf(store.moveToCollection(editor, item, room.id)))).toBe(
      "This dataset no longer exists.",
    );
    const moves = await store.listAuditEvents({ action: "collection.move-item" });
    expect(moves.events.map((event) => [event.entityType, event.detail])).toEqual([
      ["dataset", { from: "Room", to: "Shelf" }],
      ["dataset", { from: "Shared", to: "Room" }],
    ]);
  });

  it("only admins make collections; the same name made at once is made once", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });
    for (const actor of [editor, viewer]) {
      expect(await errorOf(store.createCollection(actor, { name: "Mine" }))).toBeInstanceOf(
        ForbiddenError,
      );
    }
    const results = await Promise.allSettled(
      ["Ops", "ops", " OPS ", "oPs"].map((name) => store.createCollection(admin, { name })),
    );
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
    for (const result of results) {
      if (result.status === "rejected") {
        expect(fieldErrorsOf(result.reason).name?.[0]).toMatch(
          /^There is already a collection named /,
        );
      }
    }
  });

  it("property: each account's level is its groups' best grant, capped by its role; admins manage all", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });
    const people: Actor[] = Array.from({ length: 6 }, (_, index) => ({
      id: `person-${index}`,
      email: `person-${index}@example.com`,
      role: roles[index % roles.length] as Role,
    }));
    const groups = await Promise.all(
      ["A", "B", "C", "D"].map((name) => store.createGroup(admin, { name })),
    );
    const collections = await Promise.all(
      ["One", "Two", "Three"].map((name) => store.createCollection(admin, { name })),
    );
    const level = fc.constantFrom(...collectionLevels);
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.subarray(people.map((person) => person.id)), {
          minLength: groups.length,
          maxLength: groups.length,
        }),
        fc.array(fc.array(fc.option(level, { nil: null }), { minLength: 4, maxLength: 4 }), {
          minLength: collections.length,
          maxLength: collections.length,
        }),
        async (memberships, grantTable) => {
          for (const [index, group] of groups.entries()) {
            await store.setGroupMembers(admin, group.id, { userIds: memberships[index] ?? [] });
          }
          for (const [index, collection] of collections.entries()) {
            const grants = (grantTable[index] ?? []).flatMap((one, groupIndex) =>
              one === null ? [] : [{ groupId: groups[groupIndex]?.id ?? "", level: one }],
            );
            await store.setCollectionGrants(admin, collection.id, { grants });
          }
          for (const person of people) {
            const access = await store.collectionAccess(person);
            const listed = new Map(
              (await store.listCollections(person)).map((one) => [one.id, one.level]),
            );
            for (const [index, collection] of collections.entries()) {
              const granted = (grantTable[index] ?? []).filter(
                (one, groupIndex): one is CollectionLevel =>
                  one !== null && (memberships[groupIndex] ?? []).includes(person.id),
              );
              const best = granted.sort((a, b) => rank[b] - rank[a])[0] ?? null;
              const ceiling = person.role === "viewer" ? "view" : "manage";
              const expected =
                person.role === "admin"
                  ? "manage"
                  : best === null
                    ? undefined
                    : rank[best] > rank[ceiling]
                      ? ceiling
                      : best;
              expect(access.byCollection.get(collection.id), person.id).toBe(expected);
              expect(listed.get(collection.id), person.id).toBe(expected);
            }
          }
        },
      ),
      { seed, numRuns: 15 },
    );
  });
});
