import "@seed/ui/styles.css";
import "@seed/charts/styles.css";
import "./globals.css";
import { GeistSans } from "geist/font/sans";
import type { Metadata, Viewport } from "next";
import type { ReactNode } from "react";
import { HydrationMarker } from "@/components/hydration-marker";

export const metadata: Metadata = {
  title: { default: "Seed Charts", template: "%s · Seed Charts" },
  description: "Dashboards of charts and KPI tiles.",
};

export const viewport: Viewport = {
  colorScheme: "light dark",
  themeColor: [
    { media: "(prefers-color-scheme: light)", color: "#ffffff" },
    { media: "(prefers-color-scheme: dark)", color: "#0b0b0f" },
  ],
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en" className={GeistSans.variable}>
      <body>
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        {children}
        <HydrationMarker />
      </body>
    </html>
  );
}
