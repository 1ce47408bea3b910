import { emailLimits, reportLimits } from "@seed/model";

/**
 * A report form's recipients as typed: one per line, or separated by commas or semicolons, blanks
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
