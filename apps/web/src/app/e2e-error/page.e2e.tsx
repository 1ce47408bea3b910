import type { Metadata } from "next";

export const metadata: Metadata = { title: "Error page check" };
export const dynamic = "force-dynamic";

// Lets the browser tests see the error page with a digest; it takes no input and only throws.
export default function ServerErrorForTests(): never {
  throw new Error("Deliberate server-side failure for the error page test");
}
