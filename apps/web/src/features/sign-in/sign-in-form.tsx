"use client";

import { useActionState } from "react";
import { type SignInState, signIn } from "@/app/login/actions";
import { FormField } from "@/components/form-field";

export function SignInForm({ next }: { next: string }) {
  const [state, action, pending] = useActionState<SignInState, FormData>(signIn, {});
  return (
    <form action={action} className="form" noValidate aria-describedby="sign-in-error">
      <input type="hidden" name="next" value={next} />
      <div id="sign-in-error" role="alert">
        {state.formError ? <p className="form-error">{state.formError}</p> : null}
      </div>
      <FormField
        name="email"
        label="Email"
        type="email"
        autoComplete="username"
        required
        defaultValue={state.values?.email ?? ""}
        key={`email-${state.values?.email ?? ""}`}
        errors={state.fieldErrors?.email}
      />
      <FormField
        name="password"
        label="Password"
        type="password"
        autoComplete="current-password"
        required
        errors={state.fieldErrors?.password}
      />
      <button type="submit" className="button" disabled={pending}>
        {pending ? "Signing in…" : "Sign in"}
      </button>
    </form>
  );
}
