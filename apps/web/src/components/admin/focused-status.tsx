"use client";

import { type ReactNode, useEffect, useRef } from "react";

/**
 * A status message that takes focus when it appears: for outcomes shown on the page a form
 * redirected to (the form and its own message may be gone, e.g. a deleted user's row).
 */
export function FocusedStatus({ children }: { children: ReactNode }) {
  const ref = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    ref.current?.focus();
  }, []);
  return (
    <p ref={ref} role="status" className="form-status" tabIndex={-1}>
      {children}
    </p>
  );
}
