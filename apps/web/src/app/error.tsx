"use client";

import { useEffect } from "react";
import { ApplicationError } from "@/components/application-error";

export default function ErrorPage({
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
