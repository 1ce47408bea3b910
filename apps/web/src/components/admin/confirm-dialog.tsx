"use client";

import { type ReactNode, useId, useRef } from "react";

/**
 * A button that asks in a modal dialog before submitting its form (Escape or Cancel closes it;
 * the browser returns focus to the button). Place it inside the form it submits.
 */
export function ConfirmDialogButton({
  label,
  question,
  yes,
  disabled,
}: {
  /** The first button's name, e.g. "Block ana@example.com". */
  label: string;
  question: ReactNode;
  /** The confirming (submitting) button's name. */
  yes: string;
  disabled?: boolean;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const questionId = useId();
  return (
    <>
      <button
        type="button"
        className="button button-secondary"
        disabled={disabled}
        onClick={() => dialog.current?.showModal()}
      >
        {label}
      </button>
      <dialog ref={dialog} aria-labelledby={questionId} className="confirm-dialog">
        <p id={questionId}>{question}</p>
        <div className="inline-list">
          <button type="submit" className="button" onClick={() => dialog.current?.close()}>
            {yes}
          </button>
          <button
            type="button"
            className="button button-secondary"
            onClick={() => dialog.current?.close()}
          >
            Cancel
          </button>
        </div>
      </dialog>
    </>
  );
}
