import { randomBytes } from "node:crypto";
import {
  type CollectionLevel,
  collectionLevels,
  ForbiddenError,
  type Role,
  roles,
  storeErrorOf,
  ValidationError,
} from "@seed/model";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Actor, Store } from "../src/index.js";
import { admin, editor, otherEditor, viewer } from "./actors.js";
import { dialects, errorOf, groupOf, openTestStore, salesInput } from "./helpers.js";
import { unreachableSource } from "./policy-cases.js";

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

/**
 * A dataset, a chart over it and a dashboard of the chart, named after `name`, made by an admin
 * and moved into `collectionId` (null: left in Shared).
 */
async function recordsIn(store: Store, name: string, collectionId: string | null) {
  const dataset = await store.createDataset(salesInput(`Sales ${name}`), admin);
  const chart = await store.createChart(
    {
      title: `Revenue ${name}`,
      type: "line",
      datasetId: dataset.id,
      indexColumn: "month",
      seriesColumns: ["revenue"],
    },
    admin,
  );
  const slug = `board-${name}`;
  const dashboard = await store.createDashboard(
    { title: slug, slug, tiles: [{ kind: "chart", chartId: chart.id }] },
    admin,
  );
  if (collectionId !== null) {
    for (const [entityType, id] of [
      ["dataset", dataset.id],
      ["chart", chart.id],
      ["dashboard", dashboard.id],
    ] as const) {
      await store.moveToCollection(admin, { entityType, id }, collectionId);
    }
  }
  return { dataset: dataset.id, chart: chart.id, dashboard: dashboard.id, slug };
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

  it("a record in a collection is changed only by those who edit there; unseen ones are not found", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });
    const team = await groupOf(store, "Team", [editor]);
    const room = await store.createCollection(admin, { name: "Room" });
    const hidden = await store.createCollection(admin, { name: "Hidden" });
    await store.setCollectionGrants(admin, room.id, { grants: [{ groupId: team, level: "view" }] });

    const viewed = await recordsIn(store, "viewed", room.id);
    const unseen = await recordsIn(store, "unseen", hidden.id);

    /** Every kind of change an editor makes to existing records, or that names one. */
    const attempts = (records: typeof viewed) => ({
      "update dataset": () =>
        store.updateDataset(records.dataset, 1, { description: "Mine" }, editor),
      "replace rows": () =>
        store.replaceDatasetRows(
          records.dataset,
          1,
          [{ month: "2025-01-01", region: "East", revenue: 1, orders: 1 }],
          editor,
        ),
      "delete dataset": () => store.deleteDataset(records.dataset, 1, editor),
      "update chart": () => store.updateChart(records.chart, 1, { title: "Mine" }, editor),
      "delete chart": () => store.deleteChart(records.chart, 1, editor),
      "update dashboard": () =>
        store.updateDashboard(records.dashboard, 1, { description: "Mine" }, editor),
      "publish dashboard": () => store.publishDashboard(records.dashboard, 1, editor),
      "delete dashboard": () => store.deleteDashboard(records.dashboard, 1, editor),
      "make a push token": () =>
        store.createDatasetToken(
          { datasetId: records.dataset, name: "Job", scope: "append" },
          editor,
        ),
      "list push tokens": () => store.listDatasetTokens(records.dataset, editor),
    });
    for (const [name, attempt] of Object.entries(attempts(unseen))) {
      expect(storeErrorOf(await errorOf(attempt()))?.kind, name).toBe("not_found");
    }
    for (const [name, attempt] of Object.entries(attempts(viewed))) {
      expect(storeErrorOf(await errorOf(attempt()))?.kind, name).toBe("forbidden");
    }
    // Naming an unseen record in a new chart or tile: as if it did not exist.
    expect(
      fieldErrorsOf(
        await errorOf(
          store.createChart(
            {
              title: "Peek",
              type: "line",
              datasetId: unseen.dataset,
              indexColumn: "month",
              seriesColumns: ["revenue"],
            },
            editor,
          ),
        ),
      ),
    ).toEqual({ datasetId: ["Choose an existing dataset."] });
    expect(
      fieldErrorsOf(
        await errorOf(
          store.createDashboard(
            { title: "Peek", slug: "peek", tiles: [{ kind: "chart", chartId: unseen.chart }] },
            editor,
          ),
        ),
      ),
    ).toEqual({ "tiles.0.chartId": ["Choose an existing chart."] });
    // Nothing the refused attempts named was changed.
    expect((await store.getDataset(unseen.dataset))?.version).toBe(1);
    expect((await store.getDataset(viewed.dataset))?.version).toBe(1);

    // With edit granted, the same editor changes them.
    await store.setCollectionGrants(admin, room.id, { grants: [{ groupId: team, level: "edit" }] });
    await store.updateChart(viewed.chart, 1, { title: "Mine" }, editor);
    await store.updateDashboard(viewed.dashboard, 1, { description: "Mine" }, editor);
    await store.createDatasetToken(
      { datasetId: viewed.dataset, name: "Job", scope: "append" },
      editor,
    );
    await store.createChart(
      {
        title: "Mine too",
        type: "line",
        datasetId: viewed.dataset,
        indexColumn: "month",
        seriesColumns: ["revenue"],
      },
      editor,
    );
  });

  it("reads for an account show only Shared and its collections; a published dashboard is everyone's", async () => {
    const store = await openTestStore(dialect, {
      seedDemo: false,
      sourcesKey: randomBytes(32).toString("base64"),
    });
    const team = await groupOf(store, "Team", [viewer]);
    const room = await store.createCollection(admin, { name: "Room" });
    const hidden = await store.createCollection(admin, { name: "Hidden" });
    await store.setCollectionGrants(admin, room.id, { grants: [{ groupId: team, level: "view" }] });
    const placed = {
      shared: await recordsIn(store, "shared", null),
      room: await recordsIn(store, "room", room.id),
      hidden: await recordsIn(store, "hidden", hidden.id),
    };
    const hiddenOnes = placed.hidden;
    const roomOnes = placed.room;
    if (!hiddenOnes || !roomOnes) throw new Error("fixture");

    for (const actor of [viewer, editor]) {
      const expected = actor === viewer ? ["shared", "room"] : ["shared"];
      const seenBy = actor;
      expect((await store.listDatasets({ seenBy })).map((one) => one.name).sort()).toEqual(
        expected.map((name) => `Sales ${name}`).sort(),
      );
      expect((await store.listCharts({ seenBy })).map((one) => one.title).sort()).toEqual(
        expected.map((name) => `Revenue ${name}`).sort(),
      );
      expect((await store.listDashboards({ seenBy })).map((one) => one.slug).sort()).toEqual(
        expected.map((name) => `board-${name}`).sort(),
      );
      expect(await store.getDataset(hiddenOnes.dataset, 10, { seenBy })).toBeNull();
      expect(await store.listDatasetRows(hiddenOnes.dataset, { limit: 10 }, { seenBy })).toBeNull();
      expect(await store.getChart(hiddenOnes.chart, { seenBy })).toBeNull();
      expect(await store.getDashboard(hiddenOnes.dashboard, { seenBy })).toBeNull();
      expect(
        await store.getDashboardBySlug(hiddenOnes.slug, { includeDrafts: true, seenBy }),
      ).toBeNull();
      expect(
        await store.getChartEmbed(hiddenOnes.chart, { includeDrafts: true, seenBy }),
      ).toBeNull();
    }
    expect((await store.getDataset(roomOnes.dataset, 10, { seenBy: viewer }))?.rows).toHaveLength(
      salesInput().rows.length,
    );
    expect(
      (await store.getDashboardBySlug(roomOnes.slug, { includeDrafts: true, seenBy: viewer }))
        ?.dashboard.slug,
    ).toBe(roomOnes.slug);
    const shared = placed.shared;
    if (!shared) throw new Error("fixture");
    expect(await store.placeOf(viewer, { entityType: "chart", id: roomOnes.chart })).toEqual({
      collectionId: room.id,
      collectionName: "Room",
      level: "view",
      rowLimit: null,
      permission: "content.write",
    });
    expect(await store.placeOf(editor, { entityType: "chart", id: hiddenOnes.chart })).toBeNull();
    expect(await store.placeOf(editor, { entityType: "dataset", id: shared.dataset })).toEqual({
      collectionId: null,
      collectionName: "Shared",
      level: "edit",
      rowLimit: null,
      permission: "content.write",
    });
    // A source's place names the permission its changes need: an admin's.
    const source = await store.createSource(unreachableSource(), admin);
    expect((await store.placeOf(admin, { entityType: "source", id: source.id }))?.permission).toBe(
      "sources.manage",
    );
    expect((await store.collectionItems(viewer, room.id))?.charts.map((one) => one.title)).toEqual([
      "Revenue room",
    ]);
    expect(await store.collectionItems(editor, hidden.id)).toBeNull();
    expect((await store.collectionItems(editor, null))?.datasets.map((one) => one.name)).toEqual([
      "Sales shared",
    ]);
    // The chart editor's preview over an unseen dataset: not found, as for a missing one.
    const hiddenChart = await store.getChart(hiddenOnes.chart);
    if (!hiddenChart) throw new Error("fixture");
    expect(
      storeErrorOf(
        await errorOf(
          store.runChartQuery(hiddenOnes.dataset, hiddenChart.query, { seenBy: editor }),
        ),
      )?.kind,
    ).toBe("not_found");
    expect(
      (await store.runChartQuery(hiddenOnes.dataset, hiddenChart.query, { seenBy: admin })).series
        .length,
    ).toBeGreaterThan(0);
    // SQL questions name only the datasets the account sees (PostgreSQL's reader role is tried in
    // sql-questions.test.ts; the rule is the same query of datasets there).
    if (dialect === "sqlite") {
      const slugs = new Map(
        (await store.listDatasetSlugs()).map((entry) => [entry.id, entry.slug]),
      );
      const hiddenTable = slugs.get(hiddenOnes.dataset) ?? "";
      const tables = (await store.sqlQuestionsStatus(editor)).tables.map((table) => table.name);
      expect(tables).toEqual([slugs.get(shared.dataset)]);
      expect(
        fieldErrorsOf(
          await errorOf(
            store.runSqlQuestion(editor, { sql: `select count(*) as n from ${hiddenTable}` }),
          ),
        ).sql,
      ).toBeDefined();
      expect(
        fieldErrorsOf(
          await errorOf(
            store.createQuestionDataset(editor, {
              name: "Peek",
              sql: `select * from ${hiddenTable}`,
            }),
          ),
        ).sql,
      ).toBeDefined();
      const answer = await store.runSqlQuestion(admin, {
        sql: `select count(*) as n from ${hiddenTable}`,
      });
      expect(answer.rows).toEqual([[salesInput().rows.length]]);
    }
    // Admins and trusted reads (no account named) see everything.
    expect(await store.listDatasets({ seenBy: admin })).toHaveLength(3);
    expect(await store.listDatasets()).toHaveLength(3);

    // Published, the hidden dashboard is public like any other.
    await store.publishDashboard(hiddenOnes.dashboard, 1, admin);
    expect(
      (await store.getDashboardBySlug(hiddenOnes.slug, { includeDrafts: true, seenBy: editor }))
        ?.dashboard.slug,
    ).toBe(hiddenOnes.slug);
    expect(await store.getChartEmbed(hiddenOnes.chart, { seenBy: editor })).not.toBeNull();
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
