import { ForbiddenError } from "@seed/model";
import { sql } from "kysely";
import { expect } from "vitest";
import type { Actor, Store } from "../src/index.js";
import { internalsOf } from "../src/raw-handles.js";

// What the policy tests check of a refused call: it wrote nothing, and its denial is audited.

/**
 * Every row of every table, so "nothing was written" means exactly that; a refusal's own record
 * (src/access/denials.ts) is the one row a refused call adds, and is left out.
 */
export async function contentsOf(store: Store): Promise<Record<string, string[]>> {
  const { db } = internalsOf(store);
  const contents: Record<string, string[]> = {};
  for (const table of await db.introspection.getTables()) {
    const rows = await sql<Record<string, unknown>>`select * from ${sql.table(table.name)}`.execute(
      db,
    );
    const kept =
      table.name === "audit_events"
        ? rows.rows.filter((row) => row.action !== "user.denied")
        : rows.rows;
    contents[table.name] = kept.map((one) => JSON.stringify(one)).sort();
  }
  return contents;
}

/** The store, with the name of each of its methods called through it, in order. */
export function tracking(store: Store): { store: Store; calls: string[] } {
  const calls: string[] = [];
  const proxy = new Proxy(store, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== "function" || typeof property !== "string") return value;
      return (...args: unknown[]) => {
        calls.push(property);
        return (value as (...rest: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { store: proxy, calls };
}

/**
 * A refused call is in the audit log (src/access/denials.ts): "user.denied" on the account,
 * naming the method refused (the last one the case called), the refusal's permission and reason.
 */
export async function expectDenialAudited(
  store: Store,
  actor: Actor,
  calls: readonly string[],
  failure: unknown,
  label: string,
): Promise<void> {
  expect(failure, label).toBeInstanceOf(ForbiddenError);
  const refusal = failure as ForbiddenError;
  const denials = await store.listAuditEvents({
    actorId: actor.id,
    action: "user.denied",
    limit: 200,
  });
  expect(denials.nextCursor, `${label}: fewer denials than a page`).toBeNull();
  const denial = denials.events.find(
    (event) =>
      event.entityType === "user" &&
      event.entityId === actor.id &&
      event.detail.operation === calls.at(-1) &&
      event.detail.permission === refusal.permission &&
      event.detail.reason === refusal.message,
  );
  expect(denial, `${label}: its denial is audited`).toBeDefined();
}
