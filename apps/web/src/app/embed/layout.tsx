import type { Metadata } from "next";
import type { ReactNode } from "react";

// Embeds live inside other sites' pages: search engines should list the dashboards, not these.
export const metadata: Metadata = { robots: { index: false, follow: false } };

export default function EmbedLayout({ children }: { children: ReactNode }) {
  return children;
}
