"use client";

import "@seed/ui/styles.css";
import "@seed/charts/styles.css";
import "./globals.css";
import { useEffect } from "react";
import { ApplicationError } from "@/components/application-error";

// Replaces the root layout when it fails, so it brings its own <html> and <body>.
export default function GlobalError({
  error,
  reset,
}: {
  error: Error & { digest?: string };
  reset: () => void;
}) {
  useEffect(() => {
    console.error(error);
  }, [error]);

  return (
    <html lang="en">
      <body>
        <title>Application error · Seed Charts</title>
        <ApplicationError digest={error.digest} onRetry={reset} />
      </body>
    </html>
  );
}
