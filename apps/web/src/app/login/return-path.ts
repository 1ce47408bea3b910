import "server-only";
import { redirect } from "next/navigation";
import { safeNextPath } from "@/lib/safe-next-path";
import { getSession } from "@/server/auth";

/**
 * The sign-in steps' return path: the query's `next` if it is a safe same-site path; someone
 * already signed in goes straight there.
 */
export async function returnPathUnlessSignedIn(
  searchParams: Promise<Record<string, string | string[] | undefined>>,
): Promise<string> {
  const { next } = await searchParams;
  const nextPath = safeNextPath(typeof next === "string" ? next : undefined);
  if (await getSession()) redirect(nextPath);
  return nextPath;
}
