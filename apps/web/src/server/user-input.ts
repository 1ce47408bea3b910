import { z } from "zod";
import { roles } from "./auth-options.mjs";

export const passwordSchema = z
  .string()
  .min(12, { error: "Use at least 12 characters." })
  .max(128, { error: "Use at most 128 characters." });

export const newUserSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, { error: "Enter a name." })
    .max(100, { error: "Use at most 100 characters." }),
  email: z.email({ error: "Enter an email address like name@example.com." }),
  password: passwordSchema,
  role: z.enum(roles, { error: "Choose admin, editor or viewer." }),
});
