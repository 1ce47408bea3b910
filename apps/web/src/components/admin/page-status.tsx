"use client";

import { useEffect, useState } from "react";

/**
 * The outcome of the write that led to this page ("Tile removed."), gone as soon as another
 * form on the page submits, so status messages replace each other instead of piling up.
 */
export function PageStatus({ message }: { message: string | null }) {
  const [shown, setShown] = useState(message);
  useEffect(() => {
    setShown(message);
    if (!message) return;
    const hide = () => setShown(null);
    document.addEventListener("submit", hide);
    return () => document.removeEventListener("submit", hide);
  }, [message]);
  return (
    <p role="status" className="form-status">
      {shown}
    </p>
  );
}
