"use client";

import { useId, useState } from "react";

/** A token time as the token tables show it: to the minute, in UTC, or "Never". */
export function tokenMinute(stamp: string | null): string {
  return stamp ? `${stamp.replace("T", " ").slice(0, 16)} UTC` : "Never";
}

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
