"use server";

import { headers } from "next/headers";
import QRCode from "qrcode";
import { type FormState, formText } from "@/lib/form-state";
import { recordUserEvent } from "@/server/audit";
import { accountPath, twoFactorRequiredFor } from "@/server/auth";
import { asAuthRefusal, getAuth } from "@/server/auth-instance";
import { accountAction, done, refuse } from "@/server/form-action";
import { claimTotpCode } from "@/server/one-time-codes";
import {
  checkSignIn,
  clearSignInFailures,
  recordSignInFailure,
  throttleMessage,
} from "@/server/sign-in-throttle";

/**
 * The account's second factor. Each step asks better-auth (its two-factor plugin keeps the secret
 * and recovery codes encrypted with the auth secret); this file checks the password against the
 * sign-in throttle, words the refusals and records each change in the audit log.
 */

export type TwoFactorFormState = FormState<{ password: string; code: string }> & {
  /** The key to type into an app, in groups of four (shown while setting up). */
  setupKey?: string;
  /** The same key as a QR code, an SVG data URL. */
  qrCode?: string;
  /** New recovery codes, one per line, shown this once. */
  recoveryCodes?: string;
};

const wrongPassword = "The password is not right.";

type Auth = Awaited<ReturnType<typeof getAuth>>;

/**
 * One better-auth call that checks the account's password: the field read and bounded, the
 * sign-in throttle asked first, a wrong password counted as a failed sign-in (and a right one
 * clearing the count), and better-auth's refusals worded for the form.
 */
async function withPassword<T>(
  formData: FormData,
  email: string,
  call: (auth: Auth, password: string, requestHeaders: Headers) => Promise<T>,
): Promise<{ result: T } | { refused: TwoFactorFormState }> {
  const password = formText(formData, "password");
  if (password === "") return { refused: { fieldErrors: { password: ["Enter your password."] } } };
  if (password.length > 1024) {
    return { refused: { fieldErrors: { password: ["The password is too long."] } } };
  }
  const verdict = await checkSignIn(email);
  if (!verdict.allowed) return { refused: { formError: throttleMessage(verdict) } };
  try {
    const result = await call(await getAuth(), password, await headers());
    await clearSignInFailures(email);
    return { result };
  } catch (error) {
    const refusal = asAuthRefusal(error);
    if (!refusal) throw error;
    if (refusal.code === "INVALID_PASSWORD") {
      await recordSignInFailure(email);
      return { refused: { fieldErrors: { password: [wrongPassword] } } };
    }
    if (refusal.code === "TOTP_ALREADY_ENABLED") {
      return { refused: { formError: "Two-factor sign-in is already on." } };
    }
    return { refused: { formError: refusal.message || "The change was refused." } };
  }
}

function groupedKey(key: string): string {
  return key.replace(/(.{4})(?=.)/g, "$1 ");
}

/** Step 1: a new key and recovery codes; nothing is on until a code from the app is confirmed. */
export const startTwoFactorSetup = accountAction<TwoFactorFormState>(
  async ({ formData, session }) => {
    const outcome = await withPassword(formData, session.user.email, (auth, password, headers) =>
      auth.api.enableTwoFactor({ body: { password, method: "totp" }, headers }),
    );
    if ("refused" in outcome) return refuse(outcome.refused);
    const { totpURI, backupCodes } = outcome.result as { totpURI: string; backupCodes: string[] };
    const key = new URL(totpURI).searchParams.get("secret") ?? "";
    const svg = await QRCode.toString(totpURI, {
      type: "svg",
      margin: 2,
      errorCorrectionLevel: "M",
    });
    return done({
      message:
        "Add the key to your authenticator app, save the recovery codes, then enter the app's code.",
      revalidate: "none",
      extra: {
        setupKey: groupedKey(key),
        qrCode: `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}`,
        recoveryCodes: backupCodes.join("\n"),
      },
    });
  },
);

/** Step 2: the app's current code turns two-factor sign-in on (a new session replaces this one). */
export const confirmTwoFactorSetup = accountAction<TwoFactorFormState>(
  async ({ formData, session, actor }) => {
    const code = formText(formData, "code").replace(/\s+/g, "");
    if (!/^\d{6}$/.test(code)) {
      return refuse({ fieldErrors: { code: ["Enter the 6-digit code your app shows."] } });
    }
    const auth = await getAuth();
    try {
      await auth.api.verifyTOTP({ body: { code }, headers: await headers() });
    } catch (error) {
      const refusal = asAuthRefusal(error);
      if (!refusal) throw error;
      if (refusal.code === "INVALID_CODE") {
        return refuse({
          fieldErrors: {
            code: ["The code is not right. Check your phone's clock and enter the newest code."],
          },
        });
      }
      return refuse({ formError: "Start the setup again: no key is waiting to be confirmed." });
    }
    // The code that turned it on is spent: it cannot also answer a sign-in.
    await claimTotpCode(session.user.id, code);
    await recordUserEvent(actor, "user.enable-two-factor", session.user.id, {});
    return done({ redirectTo: `${accountPath}?two-factor=on`, revalidate: "users" });
  },
);

/** New recovery codes replace the old ones (which stop working), shown this once. */
export const replaceRecoveryCodes = accountAction<TwoFactorFormState>(
  async ({ formData, session, actor }) => {
    const outcome = await withPassword(formData, session.user.email, (auth, password, headers) =>
      auth.api.generateBackupCodes({ body: { password }, headers }),
    );
    if ("refused" in outcome) return refuse(outcome.refused);
    await recordUserEvent(actor, "user.new-recovery-codes", session.user.id, {});
    return done({
      message: "New recovery codes: save them now. The old ones no longer work.",
      revalidate: "none",
      extra: {
        recoveryCodes: (outcome.result as { backupCodes: string[] }).backupCodes.join("\n"),
      },
    });
  },
);

/** Turns the second factor off, unless the account's role must use it. */
export const turnOffTwoFactor = accountAction<TwoFactorFormState>(
  async ({ formData, session, actor }) => {
    if (await twoFactorRequiredFor(session.user.role)) {
      return refuse({
        formError: `Every ${session.user.role} must use two-factor sign-in here, so it stays on. An admin can change that on the Users page.`,
      });
    }
    const outcome = await withPassword(formData, session.user.email, (auth, password, headers) =>
      auth.api.disableTwoFactor({ body: { password }, headers }),
    );
    if ("refused" in outcome) return refuse(outcome.refused);
    await recordUserEvent(actor, "user.disable-two-factor", session.user.id, {});
    return done({ redirectTo: `${accountPath}?two-factor=off`, revalidate: "users" });
  },
);
