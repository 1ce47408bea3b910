"use client";

import { useEffect, useId, useRef, useState } from "react";
import styles from "./admin.module.css";
import type { ContentAction } from "./content-form-state";
import { FormMessages } from "./form-controls";
import { useContentForm } from "./use-content-form";

/** Delete in two steps: the first button only asks, the second one posts. */
export function ConfirmDelete({
  action,
  fields,
  what,
}: {
  action: ContentAction;
  fields: Record<string, string>;
  /** e.g. dataset "Sales", used in the button names and the question. */
  what: string;
}) {
  return (
    <ConfirmAction
      action={action}
      fields={fields}
      ask={`Delete ${what}`}
      question={`Delete ${what}? This cannot be undone.`}
      yes={`Yes, delete ${what}`}
      pendingText="Deleting…"
    />
  );
}

/** A change in two steps: the first button only asks, the second one posts. */
export function ConfirmAction({
  action,
  fields,
  ask,
  question,
  yes,
  pendingText,
}: {
  action: ContentAction;
  fields: Record<string, string>;
  /** The first button's name, e.g. "Restore version 2". */
  ask: string;
  question: string;
  /** The confirming button's name. */
  yes: string;
  pendingText: string;
}) {
  const { state, pending, onSubmit } = useContentForm(action);
  const [asking, setAsking] = useState(false);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const askRef = useRef<HTMLButtonElement>(null);
  const questionId = useId();
  const wasAsking = useRef(false);

  useEffect(() => {
    if (asking) confirmRef.current?.focus();
    else if (wasAsking.current) askRef.current?.focus();
    wasAsking.current = asking;
  }, [asking]);

  return (
    <form onSubmit={onSubmit} className="stack">
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {asking ? (
        <fieldset aria-labelledby={questionId} className={styles.confirm}>
          <p id={questionId}>{question}</p>
          <button ref={confirmRef} type="submit" className="button" disabled={pending}>
            {pending ? pendingText : yes}
          </button>
          <button
            type="button"
            className="button button-secondary"
            onClick={() => setAsking(false)}
          >
            Cancel
          </button>
        </fieldset>
      ) : (
        <button
          ref={askRef}
          type="button"
          className="button button-secondary"
          onClick={() => setAsking(true)}
        >
          {ask}
        </button>
      )}
      <FormMessages state={state} />
    </form>
  );
}
