import { ForbiddenError } from "@seed/model";
import { expect } from "vitest";
import type { Actor, Store } from "../src/index.js";

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
