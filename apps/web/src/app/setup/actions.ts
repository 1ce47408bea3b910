"use server";

import { headers } from "next/headers";
import { notFound, redirect } from "next/navigation";
import { z } from "zod";
import { type FormState, fieldErrorsFromZod, formText } from "@/lib/form-state";
import { recordUserEvent } from "@/server/audit";
import { asAuthRefusal, getAuth } from "@/server/auth-instance";
import {
  claimFirstAdmin,
  countUsers,
  endSetup,
  isSetupTokenValid,
  releaseFirstAdminClaim,
} from "@/server/first-admin";
import { newUserSchema } from "@/server/user-input";

const setupSchema = newUserSchema
  .omit({ role: true })
  .extend({ confirmPassword: z.string() })
  .refine((input) => input.password === input.confirmPassword, {
    path: ["confirmPassword"],
    error: "The two passwords differ.",
  });

export type SetupState = FormState<{
  setupToken: string;
  name: string;
  email: string;
  password: string;
  confirmPassword: string;
}>;

export async function createFirstAdmin(
  _previous: SetupState,
  formData: FormData,
): Promise<SetupState> {
  // The page is gone once a user exists; the action answers the same way.
  if ((await countUsers()) > 0) notFound();
  const values = {
    setupToken: formText(formData, "setupToken").trim().slice(0, 200),
    name: formText(formData, "name").trim(),
    email: formText(formData, "email").trim(),
  };
  const parsed = setupSchema.safeParse({
    ...values,
    password: formText(formData, "password"),
    confirmPassword: formText(formData, "confirmPassword"),
  });
  const tokenValid = await isSetupTokenValid(values.setupToken);
  if (!parsed.success || !tokenValid) {
    const fieldErrors = parsed.success ? {} : fieldErrorsFromZod(parsed.error.issues);
    if (!tokenValid) {
      fieldErrors.setupToken = [
        values.setupToken
          ? "This setup token is not valid. Use the newest one in the server's log."
          : "Enter the setup token from the server's log.",
      ];
    }
    return { fieldErrors, values };
  }
  if (!(await claimFirstAdmin())) notFound();

  const auth = await getAuth();
  let userId: string;
  try {
    const { user } = await auth.api.createUser({
      body: {
        name: parsed.data.name,
        email: parsed.data.email,
        password: parsed.data.password,
        role: "admin",
      },
    });
    userId = user.id;
  } catch (error) {
    await releaseFirstAdminClaim();
    const refusal = asAuthRefusal(error);
    if (refusal) return { formError: refusal.message || "The account was refused.", values };
    throw error;
  }
  await endSetup();
  // The new admin records its own creation: the store allows user events to users.manage only.
  await recordUserEvent(
    { id: userId, email: parsed.data.email, role: "admin" },
    "user.create",
    userId,
    {
      email: parsed.data.email,
      role: "admin",
      via: "setup",
    },
  );
  await auth.api.signInEmail({
    body: { email: parsed.data.email, password: parsed.data.password },
    headers: await headers(),
  });
  redirect("/admin");
}
