import { roles } from "@seed/model";
import { z } from "zod";
import { passwordProblem } from "./password-policy.mjs";

export const passwordSchema = z.string().superRefine((password, context) => {
  const problem = passwordProblem(password);
  if (problem) context.addIssue({ code: "custom", message: problem });
});

export const maxNameLength = 100;
export const maxEmailLength = 254;

export const userNameSchema = z
  .string()
  .trim()
  .min(1, { error: "Enter a name." })
  .max(maxNameLength, { error: `Use at most ${maxNameLength} characters.` });

export const emailSchema = z
  .email({ error: "Enter an email address like name@example.com." })
  .max(maxEmailLength, { error: `Use at most ${maxEmailLength} characters.` });

export const newUserSchema = z.object({
  name: userNameSchema,
  email: emailSchema,
  password: passwordSchema,
  role: z.enum(roles, { error: "Choose admin, editor or viewer." }),
});
