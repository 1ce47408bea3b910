import { randomBytes } from "node:crypto";
import {
  type CollectionLevel,
  can,
  collectionLevelOf,
  collectionLevels,
  levelIncludes,
  type Role,
  roles,
  storeErrorOf,
} from "@seed/model";
import { describe, expect, it } from "vitest";
import type { Store } from "../src/index.js";
import { actors, admin } from "./actors.js";
import { dialects, openTestStore } from "./helpers.js";
import { cases, type Fixture, makeFixture } from "./policy-cases.js";
import { contentsOf, expectDenialAudited, tracking } from "./refusals.js";

// The permission matrix of issue 28: every Store method that takes an actor (policy-cases.ts), as
// each role, with the fixture's datasets, charts, dashboard and source in a collection that grants
// the group of the editor and the viewer nothing, view, edit or manage. The oracle is the policy
// itself (@seed/model): a call is allowed exactly when the role allows its permission and, for a
// call that acts on those records, the account's level there (collectionLevelOf: the grant, capped
// by the role; admins manage every collection) includes what it needs. A refused call writes
// nothing; with no grant it is told of no such record, and its message names none of them.

/** The fixture's content moved into a new collection granting `grant` to the editor's and viewer's group. */
async function intoCollection(store: Store, f: Fixture, grant: CollectionLevel | null) {
  const group = await store.createGroup(admin, { name: `Matrix ${f.dataset}` });
  await store.setGroupMembers(admin, group.id, { userIds: [actors.editor.id, actors.viewer.id] });
  const vault = await store.createCollection(admin, { name: `Vault ${f.dataset}` });
  if (grant !== null) {
    await store.setCollectionGrants(admin, vault.id, {
      grants: [{ groupId: group.id, level: grant }],
    });
  }
  const records = [
    ["dataset", f.dataset],
    ["dataset", f.spareDataset],
    ["dataset", f.question],
    ["chart", f.chart],
    ["chart", f.spareChart],
    ["dashboard", f.dashboard],
    ["source", f.source],
  ] as const;
  for (const [entityType, id] of records) {
    await store.moveToCollection(admin, { entityType, id }, vault.id);
  }
  // What their names are, which no refusal to an account without a grant may carry.
  const names = [
    (await store.getDataset(f.dataset, 0))?.name,
    (await store.getDataset(f.spareDataset, 0))?.name,
    (await store.getChart(f.chart))?.title,
    (await store.getChart(f.spareChart))?.title,
    (await store.getDashboard(f.dashboard))?.slug,
  ].filter((name): name is string => typeof name === "string" && name !== "");
  expect(names).toHaveLength(5);
  return names;
}

async function runRole(store: Store, role: Role, grant: CollectionLevel | null): Promise<number> {
  const f = await makeFixture(store);
  const hiddenNames = await intoCollection(store, f, grant);
  const level = collectionLevelOf(role, grant === null ? [] : [grant]);
  let refusals = 0;
  for (const test of cases) {
    const label = `${test.name} as ${role}, ${grant ?? "no"} grant`;
    const allowed =
      can(role, test.permission) && (test.acts === undefined || levelIncludes(level, test.acts));
    const before = allowed ? null : await contentsOf(store);
    const tracked = tracking(store);
    let failure: unknown = null;
    try {
      await test.run(tracked.store, f, actors[role]);
    } catch (error) {
      failure = error;
    }
    const error = storeErrorOf(failure);
    if (allowed) {
      // A live source's call meets an unreachable server: only the policy's answer is checked.
      if (test.remote) expect(error?.kind, label).not.toBe("forbidden");
      else expect(failure, label).toBeNull();
      continue;
    }
    refusals++;
    expect(error, `${label}: refused with a typed error, not ${String(failure)}`).not.toBeNull();
    if (!can(role, test.permission) || level !== null) {
      expect(error?.kind, label).toBe("forbidden");
      await expectDenialAudited(store, actors[role], tracked.calls, failure, label);
    } else {
      // No grant: the records are not there for this account; nothing of them is named.
      expect(["not_found", "invalid"], `${label}: ${String(failure)}`).toContain(error?.kind);
      const told = JSON.stringify({ message: String(failure), error });
      for (const name of hiddenNames) expect(told, label).not.toContain(name);
    }
    expect(await contentsOf(store), `${label} wrote nothing`).toEqual(before);
  }
  return refusals;
}

describe.each(dialects)("the grant matrix on %s", (dialect) => {
  it.each([null, ...collectionLevels])(
    "every method, as every role, with its records in a collection granting %s",
    async (grant) => {
      const store = await openTestStore(dialect, {
        seedDemo: false,
        sourcesKey: randomBytes(32).toString("base64"),
      });
      let refusals = 0;
      for (const role of roles) refusals += await runRole(store, role, grant);
      // The matrix refuses something at every grant (a viewer never writes).
      expect(refusals).toBeGreaterThan(0);
    },
  );
});
