/** What a server action hands back to its form: field messages, a form-level message, typed values. */
export interface FormState<Values extends Record<string, string> = Record<string, string>> {
  fieldErrors?: Partial<Record<keyof Values & string, string[]>>;
  formError?: string;
  message?: string;
  values?: Partial<Values>;
}

export function fieldErrorsFromZod(
  issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>,
) {
  const errors: Record<string, string[]> = {};
  for (const issue of issues) {
    const key = String(issue.path[0] ?? "form");
    const messages = errors[key] ?? [];
    messages.push(issue.message);
    errors[key] = messages;
  }
  return errors;
}

export function formText(formData: FormData, name: string): string {
  const value = formData.get(name);
  return typeof value === "string" ? value : "";
}
