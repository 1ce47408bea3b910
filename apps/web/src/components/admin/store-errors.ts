import "server-only";
import { storeErrorOf } from "@seed/model";
import type { Actor } from "@seed/store";
import type { SignedInSession } from "@/server/auth";
import type { ContentFormState } from "./content-form-state";

/** Store paths like "tiles.2.column" or "options.numberFormat.currency" become the form's field names. */
function formFieldName(path: string): string {
  const tileField = /^tiles\.\d+\.(.+)$/.exec(path);
  if (tileField?.[1]) return tileField[1];
  return path.replace(/^options\.numberFormat\./, "format.").replace(/^options\./, "");
}

/** Expected store refusals become form messages by their kind; anything else is rethrown. */
export function storeErrorState(error: unknown): ContentFormState {
  const refusal = storeErrorOf(error);
  if (refusal === null) throw error;
  switch (refusal.kind) {
    case "invalid": {
      const fieldErrors: Record<string, string[]> = {};
      let formError: string | undefined;
      for (const problem of refusal.problems) {
        if (problem.field === "") {
          formError = problem.message;
          continue;
        }
        const name = formFieldName(problem.field);
        fieldErrors[name] = [...(fieldErrors[name] ?? []), problem.message];
      }
      const hasFieldErrors = Object.keys(fieldErrors).length > 0;
      return {
        fieldErrors,
        formError: formError ?? (hasFieldErrors ? "Check the marked fields." : refusal.message),
      };
    }
    case "conflict":
      return { formError: refusal.message, conflict: true };
    case "in_use":
    case "not_found":
    case "forbidden":
      return { formError: refusal.message };
  }
}

/** Who the store is told acts: the signed-in user with the role the store checks again. */
export function actorOf(session: SignedInSession): Actor {
  return { id: session.user.id, email: session.user.email, role: session.user.role };
}

/** A store read for this account's page: what its groups' collections do not grant is left out. */
export function seenBy(session: SignedInSession): { seenBy: Actor } {
  return { seenBy: actorOf(session) };
}
