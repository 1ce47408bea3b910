import "server-only";
import type { Actor, Store } from "@seed/store";
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { z } from "zod";
import { actorOf, storeErrorState } from "@/components/admin/store-errors";
import { type FormState, formText } from "@/lib/form-state";
import { type Permission, requireAccount, requirePermission, type SignedInSession } from "./auth";
import { revalidateContent } from "./revalidate";
import { getStore } from "./store";

/**
 * The one path of every admin server action: the permission check, the action's own reading and
 * validation, the store write (which records its audit event in the same transaction), then
 * revalidation and the redirect or message. Store refusals become field and form messages by
 * their kind and field, never by their text; anything else is a real error and is thrown.
 */

export interface ActionContext {
  formData: FormData;
  session: SignedInSession;
  actor: Actor;
  store: Store;
}

export interface ActionDone {
  /** Shown in the form's status region when the action does not redirect. */
  message?: string;
  redirectTo?: string;
  /**
   * What the change makes stale: content pages (default), the same without drawing this page
   * again in the answer ("content-in-place": the form updates its page itself), the users page,
   * one admin page, or nothing.
   */
  revalidate?:
    | "content"
    | "content-in-place"
    | "users"
    | "none"
    | { adminPath: `/admin/${string}` };
  /** More of the form's state to hand back with the message (e.g. a secret shown once). */
  extra?: Record<string, unknown>;
}

export type ActionOutcome<State> = { refused: State } | { done: ActionDone };

export function refuse<State>(state: State): { refused: State } {
  return { refused: state };
}

export function done(outcome: ActionDone = {}): { done: ActionDone } {
  return { done: outcome };
}

export function formAction<State extends FormState<Record<string, string>>>(
  permission: Permission,
  body: (context: ActionContext) => Promise<ActionOutcome<State>>,
): (previous: State, formData: FormData) => Promise<State> {
  return gatedAction(() => requirePermission(permission), body);
}

/**
 * An action on the signed-in account itself (its second factor): any role, and open while
 * two-factor setup is due, since that is where it is done.
 */
export function accountAction<State extends FormState<Record<string, string>>>(
  body: (context: ActionContext) => Promise<ActionOutcome<State>>,
): (previous: State, formData: FormData) => Promise<State> {
  return gatedAction(requireAccount, body);
}

function gatedAction<State extends FormState<Record<string, string>>>(
  gate: () => Promise<SignedInSession>,
  body: (context: ActionContext) => Promise<ActionOutcome<State>>,
): (previous: State, formData: FormData) => Promise<State> {
  return async (_previous, formData) => {
    const session = await gate();
    let outcome: ActionOutcome<State>;
    try {
      outcome = await body({ formData, session, actor: actorOf(session), store: await getStore() });
    } catch (error) {
      return storeErrorState(error) as State;
    }
    if ("refused" in outcome) return outcome.refused;
    const { message, redirectTo, revalidate = "content", extra } = outcome.done;
    if (revalidate === "content") await revalidateContent();
    if (revalidate === "content-in-place") await revalidateContent({ inPlace: true });
    if (revalidate === "users") revalidatePath("/admin/users");
    if (typeof revalidate === "object") revalidatePath(revalidate.adminPath);
    // redirect() throws Next's redirect signal, so it stays outside the try above.
    if (redirectTo) redirect(redirectTo);
    return { ...extra, ...(message === undefined ? {} : { message }) } as State;
  };
}

const versionedRecordSchema = z.object({
  id: z.string().min(1).max(200),
  version: z.coerce.number().int().min(1),
});

export const staleForm = { formError: "Reload the page and try again." } as const;

/** The record id (in field `idField`) and the version the form was loaded at, or null. */
export function readVersionedRecord(
  formData: FormData,
  idField: string,
): { id: string; version: number } | null {
  const parsed = versionedRecordSchema.safeParse({
    id: formText(formData, idField),
    version: formText(formData, "version"),
  });
  return parsed.success ? parsed.data : null;
}
