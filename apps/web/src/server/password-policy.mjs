// @ts-check
// Plain ESM so the web app and scripts/create-admin.mjs (run by bare Node) share one password rule.
import { dictionary } from "@zxcvbn-ts/language-common";

export const minPasswordLength = 12;
export const maxPasswordLength = 128;

/** About 49,000 leaked and common passwords, bundled: checking one makes no network call. */
const commonPasswords = new Set(
  /** @type {string[]} */ (dictionary["passwords-common"]).map((word) => word.toLowerCase()),
);

/**
 * The reason a password is refused, or null when it is acceptable.
 * @param {string} password
 * @returns {string | null}
 */
export function passwordProblem(password) {
  if (password.length < minPasswordLength) return `Use at least ${minPasswordLength} characters.`;
  if (password.length > maxPasswordLength) return `Use at most ${maxPasswordLength} characters.`;
  if (commonPasswords.has(password.toLowerCase())) {
    return "This password is on a list of common passwords; choose another.";
  }
  if (new Set(password).size < 4) return "Use more different characters.";
  return null;
}
