import { ValidationError } from "@seed/model";

// A stored secret (source password; later SMTP or webhook credentials) goes only where it was saved for.

/** How one bound field is compared; values are the parsed ones the client would be given. */
export interface BoundField<Value> {
  /** The field's name in the request to enter the secret again ("host", "port"...). */
  label: string;
  /** Whether the saved secret may go with `requested`; default: exactly the saved value. */
  keeps?: (saved: Value, requested: Value) => boolean;
}

/** Every field a kind of secret is bound to, with its comparison. */
export type SecretBinding<Values extends object> = {
  readonly [Field in keyof Values]-?: BoundField<Values[Field]>;
};

/** The labels of the bound fields whose change voids the saved secret; empty when it may be reused. */
export function voidingChanges<Values extends object>(
  binding: SecretBinding<Values>,
  saved: Values,
  requested: Values,
): string[] {
  const changed: string[] = [];
  for (const field of Object.keys(binding) as Array<keyof Values>) {
    const rule = binding[field];
    const keeps = rule.keeps ?? Object.is;
    if (!keeps(saved[field], requested[field])) changed.push(rule.label);
  }
  return changed;
}

function listOf(labels: string[]): string {
  if (labels.length <= 1) return labels.join("");
  return `${labels.slice(0, -1).join(", ")} and ${labels.at(-1)}`;
}

/** The one check before a saved secret is reused: else a field error asking for it again. */
export function requireReusableSecret<Values extends object>(
  binding: SecretBinding<Values>,
  saved: Values,
  requested: Values,
  secret: { field: string; label: string },
): void {
  const changed = voidingChanges(binding, saved, requested);
  if (changed.length === 0) return;
  throw new ValidationError({
    fieldErrors: {
      [secret.field]: [`Enter the ${secret.label} again: the ${listOf(changed)} changed.`],
    },
  });
}
