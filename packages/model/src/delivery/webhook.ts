import { z } from "zod";

// Where a webhook may point: an http(s) address an admin sets, with no password in it (the
// signing secret is the webhook's own), of bounded length.

export const webhookFormats = ["json", "slack", "teams"] as const;
export type WebhookFormat = (typeof webhookFormats)[number];

export const webhookUrlSchema = z
  .string({ error: "Enter the webhook's address." })
  .trim()
  .min(1, "Enter the webhook's address.")
  .max(2048, "A webhook address has at most 2,048 characters.")
  .superRefine((text, context) => {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      context.addIssue({
        code: "custom",
        message: "Write a full address such as https://hooks.example.com/seed.",
      });
      return;
    }
    if (url.protocol !== "https:" && url.protocol !== "http:") {
      context.addIssue({
        code: "custom",
        message: "A webhook address starts with https:// (or http://).",
      });
    } else if (url.username || url.password) {
      context.addIssue({
        code: "custom",
        message:
          "Leave the user and password out of the address; the webhook's secret signs each call.",
      });
    }
  });
