"use server";

import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { after } from "next/server";
import { z } from "zod";
import { type FormState, fieldErrorsFromZod, formText } from "@/lib/form-state";
import { safeNextPath } from "@/lib/safe-next-path";
import {
  accountActor,
  recordRefusedSignIn,
  recordSignIn,
  recordUserEvent,
  type SignInRefusal,
} from "@/server/audit";
import { asAuthRefusal, getAuth } from "@/server/auth-instance";
import { oidcProviderId, oidcSettingsFromEnv } from "@/server/oidc-settings.mjs";
import { claimTotpCode } from "@/server/one-time-codes";
import {
  checkSignIn,
  clearSignInFailures,
  recordRefusedAttempt,
  recordSignInFailure,
  throttleMessage,
} from "@/server/sign-in-throttle";
import { passwordSignInOffCode } from "@/server/sign-on";
import { emailSchema } from "@/server/user-input";

const signInSchema = z.object({
  email: emailSchema,
  password: z
    .string()
    .min(1, { error: "Enter your password." })
    .max(1024, { error: "The password is too long." }),
});

export type SignInState = FormState<{ email: string; password: string }>;

export async function signIn(_previous: SignInState, formData: FormData): Promise<SignInState> {
  const email = formText(formData, "email").trim();
  const next = safeNextPath(formText(formData, "next"));
  const parsed = signInSchema.safeParse({ email, password: formText(formData, "password") });
  if (!parsed.success) {
    return { fieldErrors: fieldErrorsFromZod(parsed.error.issues), values: { email } };
  }
  const verdict = await checkSignIn(parsed.data.email);
  if (!verdict.allowed) {
    if (verdict.reason === "account") await recordRefusedAttempt();
    return { formError: throttleMessage(verdict), values: { email } };
  }
  const auth = await getAuth();
  const requestHeaders = await headers();
  let signedIn: unknown;
  try {
    signedIn = await auth.api.signInEmail({
      body: { email: parsed.data.email, password: parsed.data.password },
      headers: requestHeaders,
    });
  } catch (error) {
    const refusal = asAuthRefusal(error);
    if (!refusal) throw error;
    const passwordOff = refusal.code === passwordSignInOffCode;
    const banned = !passwordOff && refusal.status === "FORBIDDEN";
    const reason: SignInRefusal = passwordOff
      ? "password sign-in off for the role"
      : banned
        ? "account blocked"
        : "wrong password";
    // Audited after the answer is sent, so a known email answers no slower than an unknown one.
    after(async () => {
      const known = await (await auth.$context).internalAdapter.findUserByEmail(parsed.data.email);
      await recordRefusedSignIn(known?.user, reason, requestHeaders);
    });
    // The password was right, but this role signs in through the identity provider only.
    if (passwordOff) return { formError: refusal.message, values: { email } };
    await recordSignInFailure(parsed.data.email);
    return {
      formError: banned
        ? "This account is blocked. Ask an admin to unblock it."
        : "The email or password is not right.",
      values: { email },
    };
  }
  await clearSignInFailures(parsed.data.email);
  // The password was right and the account has a second factor: no session yet, only a
  // short-lived challenge cookie that the code step below completes.
  if (typeof signedIn === "object" && signedIn !== null && "twoFactorRedirect" in signedIn) {
    redirect(twoFactorPath(next));
  }
  await recordSignIn((signedIn as { user?: unknown } | null)?.user, "password", requestHeaders);
  redirect(next);
}

export type SecondFactorState = FormState<{ code: string }>;

/** Where the code is asked after the password, carrying the return path. */
function twoFactorPath(next: string): string {
  return `/login/two-factor?next=${encodeURIComponent(next)}`;
}

/** What each of better-auth's refusals of a second factor means to the person signing in. */
const secondFactorRefusals: Record<string, SecondFactorState> = {
  INVALID_CODE: {
    fieldErrors: { code: ["The code is not right. Enter the newest code from your app."] },
  },
  INVALID_BACKUP_CODE: {
    fieldErrors: { code: ["That recovery code is not right, or it was already used."] },
  },
  TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE: {
    formError: "Too many wrong codes for this sign-in. Sign in again with your password.",
  },
  ACCOUNT_TEMPORARILY_LOCKED: {
    formError: "Too many wrong codes for this account. Try again in 15 minutes.",
  },
};

const expiredChallenge: SecondFactorState = {
  formError: "This sign-in has expired (10 minutes). Sign in again with your password.",
};

/**
 * The second step: a 6-digit code from the app, or a recovery code (used up by this sign-in).
 * better-auth checks it against the challenge cookie, counts wrong codes (5 per sign-in, 10 in a
 * row per account) and, when it is right, starts the session.
 */
export async function verifySecondFactor(
  _previous: SecondFactorState,
  formData: FormData,
): Promise<SecondFactorState> {
  const next = safeNextPath(formText(formData, "next"));
  const code = formText(formData, "code").replace(/\s+/g, "").slice(0, 64);
  if (code === "")
    return { fieldErrors: { code: ["Enter the code from your app, or a recovery code."] } };
  const auth = await getAuth();
  const requestHeaders = await headers();
  const isAppCode = /^\d{6}$/.test(code);
  let signedIn: { token?: string; user: { id: string } };
  try {
    signedIn = isAppCode
      ? await auth.api.verifyTOTP({ body: { code }, headers: requestHeaders })
      : await auth.api.verifyBackupCode({ body: { code }, headers: requestHeaders });
  } catch (error) {
    const refusal = asAuthRefusal(error);
    if (!refusal) throw error;
    if (refusal.code === passwordSignInOffCode) return { formError: refusal.message };
    return secondFactorRefusals[refusal.code ?? ""] ?? expiredChallenge;
  }
  // An app code counts once (recovery codes are used up by better-auth itself): a code seen
  // before ends the session just made, and the challenge is spent, so the password comes first.
  if (isAppCode && !(await claimTotpCode(signedIn.user.id, code))) {
    if (!signedIn.token) throw new Error("better-auth named no session for an accepted code.");
    await (await auth.$context).internalAdapter.deleteSession(signedIn.token);
    return {
      formError:
        "That code was already used. Sign in again with your password, then enter the next code from your app.",
    };
  }
  await recordSignIn(
    signedIn.user,
    isAppCode ? "password and app code" : "password and recovery code",
    requestHeaders,
  );
  redirect(next);
}

/**
 * Starts a sign-in through the configured identity provider: better-auth sets the state, PKCE
 * and nonce cookie and names the provider's authorization URL, where the browser goes next.
 */
export async function signInWithProvider(formData: FormData): Promise<void> {
  const next = safeNextPath(formText(formData, "next"));
  if (!oidcSettingsFromEnv()) redirect(`/login?next=${encodeURIComponent(next)}`);
  const auth = await getAuth();
  let url: string | undefined;
  try {
    const started = await auth.api.signInSocial({
      body: {
        provider: oidcProviderId,
        callbackURL: next,
        errorCallbackURL: `/login?next=${encodeURIComponent(next)}`,
      },
      headers: await headers(),
    });
    url = started.url;
  } catch (error) {
    // The provider's discovery document could not be read (at start, and again now): better-auth
    // has no such provider. The person is told, and the server log says why.
    console.error(
      `[single sign-on] could not start a sign-in: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (!url) redirect(`/login?next=${encodeURIComponent(next)}&error=provider_unreachable`);
  redirect(url);
}

/** Ends the session (if any, audited on its account) and goes to the sign-in page. */
export async function signOut(): Promise<void> {
  const auth = await getAuth();
  const requestHeaders = await headers();
  const session = await auth.api.getSession({ headers: requestHeaders });
  try {
    await auth.api.signOut({ headers: requestHeaders });
  } catch (error) {
    // No session to end is fine: the user is signed out either way.
    if (!asAuthRefusal(error)) throw error;
  }
  const actor = accountActor(session?.user);
  if (actor) await recordUserEvent(actor, "user.sign-out", actor.id, {});
  redirect("/login");
}
