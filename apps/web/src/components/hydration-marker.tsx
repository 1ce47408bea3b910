"use client";

import { useEffect } from "react";

/** Marks <html data-hydrated> once React runs, so browser tests can wait for a live page. */
export function HydrationMarker() {
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return null;
}
