import "server-only";
import { ConflictError, InUseError, NotFoundError, ValidationError } from "@seed/store";
import type { Session } from "@/server/auth";
import type { ContentFormState } from "./content-form-state";

/** Store paths like "tiles.2.column" or "options.numberFormat.currency" become the form's field names. */
function formFieldName(path: string): string {
  const tileField = /^tiles\.\d+\.(.+)$/.exec(path);
  if (tileField?.[1]) return tileField[1];
  return path.replace(/^options\.numberFormat\./, "format.").replace(/^options\./, "");
}

/** Expected store refusals become form messages; anything else is a real crash and is rethrown. */
export function storeErrorState(error: unknown): ContentFormState {
  if (error instanceof ValidationError) {
    const fieldErrors: Record<string, string[]> = {};
    for (const [path, messages] of Object.entries(error.fieldErrors)) {
      const name = formFieldName(path);
      fieldErrors[name] = [...(fieldErrors[name] ?? []), ...messages];
    }
    const hasFieldErrors = Object.keys(fieldErrors).length > 0;
    return {
      fieldErrors,
      formError: error.formError ?? (hasFieldErrors ? "Check the marked fields." : error.message),
    };
  }
  if (error instanceof ConflictError) return { formError: error.message, conflict: true };
  if (error instanceof InUseError || error instanceof NotFoundError) {
    return { formError: error.message };
  }
  throw error;
}

export function actorOf(session: Session): { id: string; email: string } {
  return { id: session.user.id, email: session.user.email };
}
