import { type AuditEntityType, auditEntityTypes } from "@seed/model";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Actor, AuditEventFilter } from "../src/index.js";
import { dialects, openTestStore } from "./helpers.js";

// Cursor paging must return every matching event exactly once, whatever the filter, page size,
// and however many events share one timestamp (including the extremes of the Date range).

const instants = [
  new Date(-8.64e15),
  new Date("1970-01-01T00:00:00.000Z"),
  new Date("2026-03-01T12:00:00.000Z"),
  new Date("2026-03-01T12:00:00.001Z"),
  new Date(8.64e15),
];
// Admins: the generated events include user events, which only users.manage may record.
const actors: Actor[] = [
  { id: "a-1", email: "a1@example.com", role: "admin" },
  { id: "a-2", email: "a2@example.com", role: "admin" },
  { id: "a-3", email: "a3@example.com", role: "admin" },
];
const verbs = ["create", "update", "delete"];

const eventArbitrary = fc.record({
  at: fc.nat(instants.length - 1),
  actor: fc.nat(actors.length - 1),
  entityType: fc.constantFrom(...auditEntityTypes),
  verb: fc.constantFrom(...verbs),
});

const filterArbitrary = fc.record(
  {
    actorId: fc.constantFrom(...actors.map((actor) => actor.id), "nobody"),
    entityType: fc.constantFrom(...auditEntityTypes),
    verb: fc.constantFrom(...verbs),
    since: fc.nat(instants.length - 1),
    until: fc.nat(instants.length - 1),
  },
  { requiredKeys: [] },
);

describe.each(dialects)("audit paging on %s", (dialect) => {
  it("returns every event exactly once under generated filters and page sizes", async () => {
    const seed = Date.now() % 2_147_483_647;
    console.log(`audit paging (${dialect}) seed ${seed}`);
    await fc.assert(
      fc.asyncProperty(
        fc.array(eventArbitrary, { maxLength: 30 }),
        filterArbitrary,
        fc.integer({ min: 1, max: 7 }),
        async (generated, choice, limit) => {
          let clock = instants[0] as Date;
          const store = await openTestStore(dialect, { seedDemo: false, now: () => clock });
          const written: {
            id: string;
            at: Date;
            actorId: string;
            type: AuditEntityType;
            action: string;
          }[] = [];
          for (const [index, event] of generated.entries()) {
            clock = instants[event.at] as Date;
            const action = `${event.entityType}.${event.verb}`;
            const recorded = await store.recordAuditEvent({
              actor: actors[event.actor] as (typeof actors)[number],
              action: action as `user.${string}`,
              entityType: event.entityType,
              entityId: `entity-${index}`,
            });
            written.push({
              id: recorded.id,
              at: clock,
              actorId: recorded.actor.id,
              type: event.entityType,
              action,
            });
          }
          const action =
            choice.entityType !== undefined && choice.verb !== undefined
              ? `${choice.entityType}.${choice.verb}`
              : undefined;
          const filter: AuditEventFilter = {
            actorId: choice.actorId,
            entityType: choice.entityType,
            action,
            since: choice.since === undefined ? undefined : instants[choice.since],
            until: choice.until === undefined ? undefined : instants[choice.until],
          };
          const expected = written.filter(
            (event) =>
              (filter.actorId === undefined || event.actorId === filter.actorId) &&
              (filter.entityType === undefined || event.type === filter.entityType) &&
              (action === undefined || event.action === action) &&
              (choice.since === undefined ||
                event.at.toISOString() >= (instants[choice.since] as Date).toISOString()) &&
              (choice.until === undefined ||
                event.at.toISOString() < (instants[choice.until] as Date).toISOString()),
          );
          const seen: string[] = [];
          const pagesOlder: string[][] = [];
          let cursor: string | null = null;
          let lastPage: Awaited<ReturnType<typeof store.listAuditEvents>> | null = null;
          for (let pages = 0; pages <= written.length + 1; pages++) {
            const page = await store.listAuditEvents({ ...filter, limit, cursor });
            expect(page.events.length).toBeLessThanOrEqual(limit);
            expect(page.total).toBe(expected.length);
            expect(page.previousCursor === null).toBe(pages === 0);
            seen.push(...page.events.map((event) => event.id));
            pagesOlder.push(page.events.map((event) => event.id));
            lastPage = page;
            cursor = page.nextCursor;
            if (cursor === null) break;
          }
          expect(cursor).toBeNull();
          expect([...seen].sort()).toEqual(expected.map((event) => event.id).sort());
          expect(new Set(seen).size).toBe(seen.length);
          // Walking back with "newer" from the last page gives the same pages in reverse.
          const pagesNewer: string[][] = [];
          let after = lastPage?.previousCursor ?? null;
          for (let pages = 0; after !== null && pages <= written.length + 1; pages++) {
            const page = await store.listAuditEvents({ ...filter, limit, after });
            pagesNewer.push(page.events.map((event) => event.id));
            after = page.previousCursor;
          }
          await store.close();
          expect(after).toBeNull();
          expect(pagesNewer.flat()).toEqual(pagesOlder.slice(0, -1).reverse().flat());
        },
      ),
      { seed, numRuns: dialect === "sqlite" ? 40 : 15 },
    );
  }, 120_000);
});
