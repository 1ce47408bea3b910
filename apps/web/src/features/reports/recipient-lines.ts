import { emailLimits, reportLimits } from "@seed/model";

/**
 * A report's or an alert's recipients as typed: one per line, or separated by commas or semicolons, blanks
 * dropped. The action sends this list to the store, and the form reads the store's
 * "recipients.<n>" messages against the same list.
 */
export function recipientLines(text: string): string[] {
  return text
    .slice(0, (reportLimits.recipients + 1) * (emailLimits.address + 2))
    .split(/[\n,;]+/)
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
}

/**
 * The store's messages about recipients, each refused one ("recipients.<n>") named by the line
 * it refers to in the list the action sent (`recipientLines` of the same text).
 */
export function recipientErrors(
  errors: Record<string, string[] | undefined>,
  typed: string,
): string[] | undefined {
  const lines = recipientLines(typed);
  const messages = Object.entries(errors).flatMap(([key, found]) => {
    if (key === "recipients") return found ?? [];
    const index = /^recipients\.(\d+)$/.exec(key)?.[1];
    if (index === undefined) return [];
    const line = lines[Number(index)];
    return (found ?? []).map((message) =>
      line && !message.includes(line) ? `${line}: ${message}` : message,
    );
  });
  return messages.length > 0 ? messages : undefined;
}
