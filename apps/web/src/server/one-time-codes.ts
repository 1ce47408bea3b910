import "server-only";
import { twoFactorPluginOptions } from "./auth-options.mjs";
import { getStore } from "./store";

/**
 * How long an accepted authenticator code stays claimed: better-auth accepts a code in its own
 * 30-second step and one step either side, so no code is accepted for longer than three steps.
 */
const totpClaimSeconds = twoFactorPluginOptions.totpOptions.period * 3 + 30;

/**
 * Claims an authenticator code the server has just accepted for this account: false when it was
 * already used (a replay, NIST SP 800-63B 5.1.4.2), on any instance.
 */
export async function claimTotpCode(userId: string, code: string): Promise<boolean> {
  return (await getStore()).claimOneTimeCode(`totp:${userId}:${code}`, totpClaimSeconds);
}
