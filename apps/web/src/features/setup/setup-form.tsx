"use client";

import { useActionState } from "react";
import { createFirstAdmin, type SetupState } from "@/app/setup/actions";
import { FormField } from "@/components/form-field";

export function SetupForm() {
  const [state, action, pending] = useActionState<SetupState, FormData>(createFirstAdmin, {});
  const formKey = JSON.stringify(state.values ?? {});
  return (
    <form action={action} className="form" noValidate key={formKey}>
      <div role="alert">
        {state.formError ? <p className="form-error">{state.formError}</p> : null}
      </div>
      <FormField
        name="setupToken"
        label="Setup token"
        autoComplete="off"
        spellCheck={false}
        hint="The one-time token the server printed to its log when it started."
        required
        defaultValue={state.values?.setupToken ?? ""}
        errors={state.fieldErrors?.setupToken}
      />
      <FormField
        name="name"
        label="Name"
        autoComplete="name"
        required
        defaultValue={state.values?.name ?? ""}
        errors={state.fieldErrors?.name}
      />
      <FormField
        name="email"
        label="Email"
        type="email"
        autoComplete="username"
        required
        defaultValue={state.values?.email ?? ""}
        errors={state.fieldErrors?.email}
      />
      <FormField
        name="password"
        label="Password"
        type="password"
        autoComplete="new-password"
        hint="At least 12 characters, not a common password."
        required
        errors={state.fieldErrors?.password}
      />
      <FormField
        name="confirmPassword"
        label="Repeat the password"
        type="password"
        autoComplete="new-password"
        required
        errors={state.fieldErrors?.confirmPassword}
      />
      <button type="submit" className="button" disabled={pending}>
        {pending ? "Creating…" : "Create admin"}
      </button>
    </form>
  );
}
