import { randomBytes } from "node:crypto";
import { can, type Role, roles, storeErrorOf } from "@seed/model";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Actor, Store, StoreDialect } from "../src/index.js";
import { actors, admin, editor, viewer } from "./actors.js";
import { dialects, errorOf, openTestStore } from "./helpers.js";
import { type Case, cases, type Fixture, makeFixture } from "./policy-cases.js";
import { contentsOf, expectDenialAudited, tracking } from "./refusals.js";

// The store decides who may write, so each role is tried on every method that takes an actor.

/** Fails the test with the case's name when an allowed call fails. */
async function succeeds(name: string, call: Promise<unknown>): Promise<void> {
  try {
    await call;
  } catch (error) {
    throw new Error(`${name} failed: ${String(error)}`, { cause: error });
  }
}

/** Runs one case as one role: refused exactly when the role lacks the permission, and then nothing changes. */
async function check(
  store: Store,
  fixture: Fixture,
  role: Role,
  test: Case & { name: string },
): Promise<void> {
  const allowed = can(role, test.permission);
  const before = allowed ? null : await contentsOf(store);
  const tracked = tracking(store);
  let failure: unknown = null;
  try {
    await test.run(tracked.store, fixture, actors[role]);
  } catch (error) {
    failure = error;
  }
  const label = `${test.name} as ${role}`;
  if (allowed) {
    expect(storeErrorOf(failure)?.kind, label).not.toBe("forbidden");
    return;
  }
  expect(storeErrorOf(failure), label).toMatchObject({
    kind: "forbidden",
    permission: test.permission,
    actorId: actors[role].id,
  });
  expect(await contentsOf(store), label).toEqual(before);
  await expectDenialAudited(store, actors[role], tracked.calls, failure, label);
}

/** Runs a case that must be refused as forbidden to `actor`, and checks nothing was written. */
async function refused(
  store: Store,
  fixture: Fixture,
  test: Case & { name: string },
  actor: Actor,
): Promise<void> {
  const before = await contentsOf(store);
  const tracked = tracking(store);
  const failure = await errorOf(test.run(tracked.store, fixture, actor));
  const error = storeErrorOf(failure);
  expect(error, test.name).toMatchObject({ kind: "forbidden", permission: test.permission });
  expect(await contentsOf(store), test.name).toEqual(before);
  await expectDenialAudited(store, actor, tracked.calls, failure, test.name);
}

const storeOptions = { seedDemo: false, sourcesKey: randomBytes(32).toString("base64") };

/** A store on a fresh database with the cases' fixture in it. */
async function openFixtureStore(dialect: StoreDialect) {
  const store = await openTestStore(dialect, storeOptions);
  return { store, fixture: await makeFixture(store) };
}

describe.each(dialects)("the store's policy on %s", (dialect) => {
  it("refuses every write of a viewer with a typed error, and writes nothing", async () => {
    const { store, fixture } = await openFixtureStore(dialect);
    for (const test of cases) {
      // A viewer reads everything the admin area shows (a dashboard's file too) and keeps its
      // own API tokens; no content write.
      if (can("viewer", test.permission)) {
        expect(test.permission, test.name).toBe("content.read");
        await succeeds(test.name, test.run(store, fixture, viewer));
        continue;
      }
      await refused(store, fixture, test, viewer);
    }
  });

  it("lets an editor write content, and refuses sources and users with nothing written", async () => {
    const { store, fixture } = await openFixtureStore(dialect);
    for (const test of cases) {
      if (can("editor", test.permission)) {
        await succeeds(test.name, test.run(store, fixture, editor));
        continue;
      }
      expect(["sources.manage", "users.manage", "settings.manage", "collections.manage"]).toContain(
        test.permission,
      );
      await refused(store, fixture, test, editor);
    }
    // Each content write is recorded once as the editor's, and no refused one is (a refusal is
    // recorded as a denial instead).
    const written = cases.filter((test) => can("editor", test.permission) && !test.read);
    const events = await store.listAuditEvents({ actorId: editor.id, limit: 200 });
    const writes = events.events.filter((event) => event.action !== "user.denied");
    expect(writes.length).toBe(written.reduce((sum, test) => sum + (test.events ?? 1), 0));
    expect(events.total).toBeLessThan(200);
  });

  it("lets an admin do everything", async () => {
    const { store, fixture } = await openFixtureStore(dialect);
    for (const test of cases) {
      if (test.remote) await check(store, fixture, "admin", test);
      else await succeeds(test.name, test.run(store, fixture, admin));
    }
  });

  it("refuses an actor without a known role, and a forged push token, before anything", async () => {
    const { store, fixture } = await openFixtureStore(dialect);
    const before = await contentsOf(store);
    const forged = [
      { id: "user-x", email: "x@example.com" },
      { id: "user-x", email: "x@example.com", role: "owner" },
      { id: "api-token:x", email: "x", datasetId: fixture.dataset, scope: "replace" },
    ] as unknown as Actor[];
    for (const actor of forged) {
      for (const test of cases) {
        const error = storeErrorOf(await errorOf(test.run(store, fixture, actor)));
        expect(error, test.name).toMatchObject({
          kind: "invalid",
          formError: expect.stringContaining("actor"),
        });
      }
    }
    expect(await contentsOf(store)).toEqual(before);
  });

  it("refuses exactly what each role may not do, in any order (property)", async () => {
    const store = await openTestStore(dialect, storeOptions);
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.constantFrom(...roles), fc.constantFrom(...cases.keys())), {
          minLength: 1,
          maxLength: 12,
        }),
        async (steps) => {
          const fixture = await makeFixture(store);
          for (const [role, index] of steps) {
            await check(store, fixture, role, cases[index] as (typeof cases)[number]);
          }
        },
      ),
      { numRuns: 6 },
    );
  });
});
