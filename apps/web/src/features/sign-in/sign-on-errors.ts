/**
 * What each of better-auth's single sign-on error codes (the `error` it adds to the sign-in page's
 * address) means to the person signing in. The code is only ever looked up, never shown as sent.
 */
const messages: Readonly<Record<string, string>> = {
  account_not_linked:
    "An account with this email already exists here, and the identity provider does not say the email is verified, so the two are not joined. Ask an admin.",
  unable_to_link_account:
    "An account with this email already exists here and could not be joined to your sign-in. Ask an admin.",
  email_not_found:
    "The identity provider sent no email address. Ask the provider's admin to release the email claim.",
  email_doesn_t_match: "The identity provider's email does not match this account.",
  signup_disabled: "There is no account here for this sign-in. Ask an admin.",
  BANNED_USER: "This account is blocked. Ask an admin to unblock it.",
  access_denied: "The sign-in was cancelled at the identity provider.",
  provider_unreachable:
    "The identity provider cannot be reached right now. Try again in a moment; admins can still sign in with their password.",
};

const restart = "The sign-in through your identity provider did not complete. Start it again.";

/** The message for `code`, or null when there is no error to show. */
export function signOnErrorMessage(code: string | string[] | undefined): string | null {
  if (typeof code !== "string" || code === "") return null;
  return Object.hasOwn(messages, code) ? (messages[code] ?? restart) : restart;
}
