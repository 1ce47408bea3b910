"use client";

import "@seed/ui/styles.css";
import "@seed/charts/styles.css";
import "./globals.css";
import { ErrorBoundaryPage } from "@/components/error-boundary-page";

// Replaces the root layout when it fails, so it brings its own <html> and <body>.
export default function GlobalError(props: {
  error: Error & { digest?: string };
  reset: () => void;
}) {
  return (
    <html lang="en">
      <body>
        <ErrorBoundaryPage {...props} />
      </body>
    </html>
  );
}
