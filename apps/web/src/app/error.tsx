"use client";

import { ErrorBoundaryPage } from "@/components/error-boundary-page";

export default function ErrorPage(props: {
  error: Error & { digest?: string };
  reset: () => void;
}) {
  return <ErrorBoundaryPage {...props} />;
}
