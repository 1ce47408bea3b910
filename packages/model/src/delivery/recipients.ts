import { z } from "zod";

// Who the app may send mail to: its own users, and addresses in the domains an admin lists, so
// the app is no relay for anyone else's mail. An address is read strictly (a plain
// local@domain, nothing a mail library could read as a second recipient or a header) and
// compared in one normal form.

const atext = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]";
const localPattern = new RegExp(`^${atext}+(\\.${atext}+)*$`);
const labelPattern = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

export const emailLimits = { address: 254, localPart: 64, domain: 253, domains: 100 } as const;

export type EmailCheck =
  /** `address` keeps the local part as written; `key` is its lower-case form, for comparing. */
  { ok: true; address: string; key: string; domain: string } | { ok: false; reason: string };

/**
 * The domain in its ASCII (punycode) lower-case form, or null when it is not a host name of
 * at least two labels. "Bücher.example" becomes "xn--bcher-kva.example".
 */
export function normalizeMailDomain(text: string): string | null {
  let domain = text.trim().toLowerCase();
  if (domain.length === 0 || domain.length > emailLimits.domain) return null;
  if (/[^\x20-\x7e]/.test(domain)) {
    // Only letters beyond ASCII go through IDNA; anything URL parsing would also accept (ports,
    // paths, user info, percent escapes) is refused by the label check below.
    if (/[\s/\\?#@:%[\]]/.test(domain)) return null;
    try {
      domain = new URL(`http://${domain}`).hostname;
    } catch {
      return null;
    }
  }
  const labels = domain.split(".");
  if (labels.length < 2 || domain.length > emailLimits.domain) return null;
  if (!labels.every((label) => labelPattern.test(label))) return null;
  // A last label of digits would make an IP address, never a mail domain.
  if (/^\d+$/.test(labels[labels.length - 1] ?? "")) return null;
  return domain;
}

/** Reads one address written as local@domain; its domain in the normal form. */
export function checkEmailAddress(text: string): EmailCheck {
  const trimmed = text.trim();
  if (trimmed.length === 0) return { ok: false, reason: "Enter an email address." };
  if (trimmed.length > emailLimits.address) {
    return { ok: false, reason: `An email address has at most ${emailLimits.address} characters.` };
  }
  const at = trimmed.lastIndexOf("@");
  if (at <= 0 || at === trimmed.length - 1) {
    return { ok: false, reason: "Write the address as name@example.com." };
  }
  const local = trimmed.slice(0, at);
  const domainText = trimmed.slice(at + 1);
  if (local.length > emailLimits.localPart) {
    return {
      ok: false,
      reason: `The part before @ has at most ${emailLimits.localPart} characters.`,
    };
  }
  if (!localPattern.test(local)) {
    return {
      ok: false,
      reason:
        "The part before @ may hold letters A-Z, digits, dots between them and ! # $ % & ' * + / = ? ^ _ ` { | } ~ - only.",
    };
  }
  const domain = normalizeMailDomain(domainText);
  if (!domain)
    return { ok: false, reason: "The part after @ is not a domain such as example.com." };
  return {
    ok: true,
    address: `${local}@${domain}`,
    key: `${local.toLowerCase()}@${domain}`,
    domain,
  };
}

export interface RecipientRule {
  /** The app's users' addresses (any case). */
  userEmails: Iterable<string>;
  /** Domains an admin allows for other addresses. */
  allowedDomains: Iterable<string>;
}

/** null when the app may send to the address, else the reason it may not. */
export function recipientRefusal(address: string, rule: RecipientRule): string | null {
  const checked = checkEmailAddress(address);
  if (!checked.ok) return checked.reason;
  for (const domain of rule.allowedDomains) {
    if (normalizeMailDomain(domain) === checked.domain) return null;
  }
  for (const email of rule.userEmails) {
    const user = checkEmailAddress(email);
    if (user.ok && user.key === checked.key) return null;
  }
  return `${checked.address} is neither a user of this app nor in an allowed domain; an admin can allow ${checked.domain}.`;
}

/** The admin's list of domains other recipients may be in. */
export const allowedMailDomainsSchema = z
  .array(z.string().max(emailLimits.domain, "A domain has at most 253 characters."))
  .max(emailLimits.domains, `List at most ${emailLimits.domains} domains.`)
  .transform((domains, context) => {
    const normal: string[] = [];
    for (const [index, domain] of domains.entries()) {
      const value = normalizeMailDomain(domain);
      if (value === null) {
        context.addIssue({
          code: "custom",
          path: [index],
          message: `"${domain.trim()}" is not a domain such as example.com.`,
        });
      } else if (!normal.includes(value)) normal.push(value);
    }
    return normal;
  });

/**
 * A list of recipients as a form sends it: each address in its normal form, once; each bad one
 * named at its own place (`recipients.<n>`). Whether each may be sent to is the store's call.
 */
export function recipientListSchema(limits: { min: number; max: number; what: string }) {
  return z
    .array(z.string({ error: "Enter an email address." }), { error: "Add a recipient." })
    .min(limits.min, "Add at least one recipient.")
    .max(limits.max, `${limits.what} goes to at most ${limits.max} addresses.`)
    .transform((list, context) => {
      const seen = new Set<string>();
      const kept: { address: string; key: string; domain: string }[] = [];
      for (const [index, text] of list.entries()) {
        const checked = checkEmailAddress(text);
        if (!checked.ok) {
          context.addIssue({ code: "custom", path: [index], message: checked.reason });
        } else if (!seen.has(checked.key)) {
          seen.add(checked.key);
          kept.push({ address: checked.address, key: checked.key, domain: checked.domain });
        }
      }
      return kept;
    });
}
