"use client";

import { useActionState, useId, useState } from "react";
import { ConfirmDialogButton } from "./confirm-dialog";
import type { ContentFormState } from "./content-form-state";
import { FormMessages } from "./form-controls";

/** A token time as the token tables show it: to the minute, in UTC, or "Never". */
/**
 * A token's secret on the one page load it is shown: selectable, copyable, with how to use it.
 * One home for push tokens and personal API tokens.
 */
export function TokenSecret({
  secret,
  name,
  usage,
  example,
}: {
  secret: string;
  name: string;
  /** The sentence before the example ("Push rows with it, for example:"). */
  usage: string;
  example: string;
}) {
  const [copied, setCopied] = useState(false);
  const inputId = useId();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
  return (
    <section aria-label="New token" className="stack">
      <div className="field">
        <label htmlFor={inputId}>Token for {name}</label>
        <span id={`${inputId}-hint`} className="muted">
          Copy it now and keep it secret: it is shown only this once.
        </span>
        <input
          id={inputId}
          readOnly
          value={secret}
          aria-describedby={`${inputId}-hint`}
          onFocus={(event) => event.currentTarget.select()}
          spellCheck={false}
        />
      </div>
      <div className="inline-list">
        <button type="button" className="button button-secondary" onClick={copy}>
          Copy token
        </button>
        <span role="status">{copied ? "Copied." : ""}</span>
      </div>
      <p>{usage}</p>
      <pre className="code-block">
        <code>{example}</code>
      </pre>
    </section>
  );
}

/**
 * Revoke behind a modal question (Escape or Cancel closes it; focus returns to the button). Once
 * revoked the button goes, but the form stays so its message (where focus lands) stays too.
 * `fields` are the hidden fields the revoke action reads (the token's id, its dataset's).
 */
export function RevokeTokenButton({
  action,
  name,
  revoked,
  fields,
}: {
  action: (state: ContentFormState, form: FormData) => Promise<ContentFormState>;
  name: string;
  revoked: boolean;
  fields: Record<string, string>;
}) {
  const [state, formAction, pending] = useActionState<ContentFormState, FormData>(action, {});
  return (
    <form action={formAction}>
      {Object.entries(fields).map(([field, value]) => (
        <input key={field} type="hidden" name={field} value={value} />
      ))}
      {revoked ? null : (
        <ConfirmDialogButton
          label={`Revoke ${name}`}
          question={`Revoke the token "${name}"? Programs using it are refused from now on.`}
          yes={`Yes, revoke ${name}`}
          disabled={pending}
        />
      )}
      <FormMessages state={state} withFieldErrors />
    </form>
  );
}
