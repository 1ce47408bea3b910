import "server-only";
import type { SignInVerdict } from "@seed/store";
import { headers } from "next/headers";
import { cache } from "react";
import { parseTrustedProxies, resolveClientAddress } from "./client-address";
import { getStore } from "./store";

const trustedProxies = cache(() => parseTrustedProxies(process.env.SEED_TRUSTED_PROXIES));

/** Which client a request came from, as the throttle counts it (and the sign-in audit names it). */
export function requestClientAddress(requestHeaders: Headers): string | null {
  return resolveClientAddress(requestHeaders, trustedProxies());
}

/** The throttle's view of this request: who is asking (address) for which account. */
export async function signInAttempt(email: string) {
  return { address: requestClientAddress(await headers()), account: email };
}

export async function checkSignIn(email: string): Promise<SignInVerdict> {
  return (await getStore()).checkSignIn(await signInAttempt(email));
}

export async function recordSignInFailure(email: string): Promise<void> {
  await (await getStore()).recordSignInFailure(await signInAttempt(email));
}

/** An attempt the throttle refused still counts against its address (not the account). */
export async function recordRefusedAttempt(): Promise<void> {
  const { address } = await signInAttempt("");
  await (await getStore()).recordSignInFailure({ address, account: null });
}

export async function clearSignInFailures(email: string): Promise<void> {
  await (await getStore()).clearSignInFailures(email);
}

/** What the form says when the throttle refuses, with the wait in words. */
export function throttleMessage(verdict: Exclude<SignInVerdict, { allowed: true }>): string {
  const seconds = verdict.retryAfterSeconds;
  const wait = seconds >= 90 ? `${Math.ceil(seconds / 60)} minutes` : `${seconds} seconds`;
  return verdict.reason === "address"
    ? `Too many failed sign-ins from your network. Try again in ${wait}.`
    : `Too many failed sign-ins for this account. Try again in ${wait}.`;
}
