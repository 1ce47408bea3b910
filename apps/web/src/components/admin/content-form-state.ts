import type { FormState } from "@/lib/form-state";

/** What the content actions hand back: field and form messages; `conflict` marks a stale version. */
export type ContentFormState = FormState<Record<string, string>> & { conflict?: boolean };

export const emptyFormState: ContentFormState = {};

/** Content actions take the previous state and the submitted form, like useActionState wants. */
export type ContentAction = (
  previous: ContentFormState,
  formData: FormData,
) => Promise<ContentFormState>;

/** The field's messages under its own key or a store path ending in it ("tiles.3.column"). */
export function errorsFor(state: ContentFormState, field: string): string[] | undefined {
  return state.fieldErrors?.[field];
}
