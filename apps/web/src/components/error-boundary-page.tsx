"use client";

import { useEffect } from "react";
import { ApplicationError } from "./application-error";

/** What an error boundary shows (app/error.tsx, and inside its own document app/global-error.tsx): the error logged to the console, then Next's wording. */
export function ErrorBoundaryPage({
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
    <>
      <title>Application error · Seed Charts</title>
      <ApplicationError digest={error.digest} onRetry={reset} />
    </>
  );
}
