"use client";

import Link from "next/link";
import { useActionState } from "react";
import { type SecondFactorState, verifySecondFactor } from "@/app/login/actions";
import { FormField } from "@/components/form-field";
import { loginPath } from "@/lib/safe-next-path";

export function SecondFactorForm({ next }: { next: string }) {
  const [state, action, pending] = useActionState<SecondFactorState, FormData>(
    verifySecondFactor,
    {},
  );
  return (
    <form action={action} className="form" noValidate aria-describedby="second-factor-error">
      <input type="hidden" name="next" value={next} />
      <div id="second-factor-error" role="alert">
        {state.formError ? <p className="form-error">{state.formError}</p> : null}
      </div>
      <FormField
        name="code"
        label="Code"
        autoComplete="one-time-code"
        hint="6 digits from your app, or a recovery code such as Ab3dE-9xYz1."
        required
        errors={state.fieldErrors?.code}
      />
      <div className="inline-list">
        <button type="submit" className="button" disabled={pending}>
          {pending ? "Checking…" : "Sign in"}
        </button>
        <Link href={loginPath(next)}>Start again with your password</Link>
      </div>
    </form>
  );
}
