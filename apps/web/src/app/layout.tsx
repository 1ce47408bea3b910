import "@seed/ui/styles.css";
import "@seed/charts/styles.css";
import "./globals.css";
import type { Metadata, Viewport } from "next";
import localFont from "next/font/local";
import type { ReactNode } from "react";
import { HydrationMarker } from "@/components/hydration-marker";

// Geist for body text, preloaded; "optional" shows it only if it is there for the first paint
// (it nearly always is), and otherwise keeps the size-matched fallback for the page's life, so
// text never re-flows under a reader once drawn (no layout shift from a late font).
const sans = localFont({
  src: "../../node_modules/geist/dist/fonts/geist-sans/Geist-Variable.woff2",
  variable: "--font-geist-sans",
  weight: "100 900",
  display: "optional",
});

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
    <html lang="en" className={sans.variable}>
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
