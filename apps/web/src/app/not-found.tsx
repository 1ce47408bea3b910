import type { Metadata } from "next";
import Link from "next/link";
import { statusNames } from "@/lib/http-status";

export const metadata: Metadata = { title: statusNames[404] };

export default function NotFound() {
  return (
    <main id="main" className="status-page">
      <h1 className="status-code">404</h1>
      <p>This page could not be found.</p>
      <p>
        <Link href="/">Go to the home page</Link>
      </p>
    </main>
  );
}
