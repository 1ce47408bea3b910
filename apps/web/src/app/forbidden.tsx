import type { Metadata } from "next";
import Link from "next/link";

export const metadata: Metadata = { title: "Forbidden" };

export default function Forbidden() {
  return (
    <main id="main" className="status-page">
      <h1 className="status-code">403</h1>
      <p>Your role does not allow this page.</p>
      <p>
        <Link href="/admin">Back to the admin overview</Link> or <Link href="/">the home page</Link>
      </p>
    </main>
  );
}
