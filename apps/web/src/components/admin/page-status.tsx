"use client";

import { useEffect, useState } from "react";

/**
 * The outcome of the write that led to this page ("Tile removed."): shown once, dropped from the
 * address so a reload does not repeat it, and gone as soon as another form on the page submits,
 * so status messages replace each other instead of piling up.
 */
export function PageStatus({
  message,
  param = "saved",
}: {
  message: string | null;
  param?: string;
}) {
  const [shown, setShown] = useState(message);
  useEffect(() => {
    setShown(message);
    if (!message) return;
    const url = new URL(window.location.href);
    if (url.searchParams.has(param)) {
      url.searchParams.delete(param);
      window.history.replaceState(window.history.state, "", url);
    }
    const hide = () => setShown(null);
    document.addEventListener("submit", hide);
    return () => document.removeEventListener("submit", hide);
  }, [message, param]);
  return (
    <p role="status" className="form-status">
      {shown}
    </p>
  );
}
