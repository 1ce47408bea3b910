"use server";

import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { z } from "zod";
import { type FormState, fieldErrorsFromZod, formText } from "@/lib/form-state";
import { safeNextPath } from "@/lib/safe-next-path";
import { asAuthRefusal, getAuth } from "@/server/auth-instance";
import {
  checkSignIn,
  clearSignInFailures,
  recordRefusedAttempt,
  recordSignInFailure,
  throttleMessage,
} from "@/server/sign-in-throttle";
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
  try {
    await auth.api.signInEmail({
      body: { email: parsed.data.email, password: parsed.data.password },
      headers: await headers(),
    });
  } catch (error) {
    const refusal = asAuthRefusal(error);
    if (!refusal) throw error;
    await recordSignInFailure(parsed.data.email);
    const banned = refusal.status === "FORBIDDEN";
    return {
      formError: banned
        ? "This account is blocked. Ask an admin to unblock it."
        : "The email or password is not right.",
      values: { email },
    };
  }
  await clearSignInFailures(parsed.data.email);
  redirect(next);
}

/** Ends the session (if any) and goes to the sign-in page. */
export async function signOut(): Promise<void> {
  const auth = await getAuth();
  try {
    await auth.api.signOut({ headers: await headers() });
  } catch (error) {
    // No session to end is fine: the user is signed out either way.
    if (!asAuthRefusal(error)) throw error;
  }
  redirect("/login");
}
