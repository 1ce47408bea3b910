"use client";

import { useActionState, useId } from "react";
import { FormField } from "@/components/form-field";
import {
  banUser,
  type CreateUserState,
  createUser,
  revokeUserSessions,
  setUserRole,
  type UserActionState,
  unbanUser,
} from "./actions";

const roleOptions = [
  { value: "viewer", label: "Viewer (reads only)" },
  { value: "editor", label: "Editor (datasets, charts, dashboards)" },
  { value: "admin", label: "Admin (everything, including users)" },
];

function FormMessages({
  state,
  withFieldErrors = false,
}: {
  state: UserActionState | CreateUserState;
  withFieldErrors?: boolean;
}) {
  const fieldMessages = withFieldErrors ? Object.values(state.fieldErrors ?? {}).flat() : [];
  return (
    <div role="status">
      {state.message ? <p className="form-status">{state.message}</p> : null}
      {state.formError ? <p className="form-error">{state.formError}</p> : null}
      {fieldMessages.length > 0 ? <p className="form-error">{fieldMessages.join(" ")}</p> : null}
    </div>
  );
}

export function CreateUserForm() {
  const [state, action, pending] = useActionState<CreateUserState, FormData>(createUser, {});
  const roleId = useId();
  const roleErrorId = `${roleId}-error`;
  const roleErrors = state.fieldErrors?.role;
  return (
    <form action={action} className="form" noValidate key={JSON.stringify(state.values ?? {})}>
      <FormMessages state={state} />
      <FormField
        name="name"
        label="Name"
        id="new-user-name"
        required
        defaultValue={state.values?.name ?? ""}
        errors={state.fieldErrors?.name}
      />
      <FormField
        name="email"
        label="Email"
        id="new-user-email"
        type="email"
        required
        defaultValue={state.values?.email ?? ""}
        errors={state.fieldErrors?.email}
      />
      <FormField
        name="password"
        label="Password"
        id="new-user-password"
        type="password"
        autoComplete="new-password"
        hint="At least 12 characters, not a common password."
        required
        errors={state.fieldErrors?.password}
      />
      <div className="field">
        <label htmlFor={roleId}>Role</label>
        <select
          id={roleId}
          name="role"
          defaultValue={state.values?.role || "viewer"}
          aria-invalid={roleErrors?.length ? true : undefined}
          aria-describedby={roleErrors?.length ? roleErrorId : undefined}
        >
          {roleOptions.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
        {roleErrors?.length ? (
          <p id={roleErrorId} className="field-error">
            {roleErrors.join(" ")}
          </p>
        ) : null}
      </div>
      <button type="submit" className="button" disabled={pending}>
        {pending ? "Creating…" : "Create user"}
      </button>
    </form>
  );
}

function RowButton({
  action,
  userId,
  label,
}: {
  action: (state: UserActionState, formData: FormData) => Promise<UserActionState>;
  userId: string;
  label: string;
}) {
  const [state, formAction, pending] = useActionState<UserActionState, FormData>(action, {});
  return (
    <form action={formAction}>
      <input type="hidden" name="userId" value={userId} />
      <button type="submit" className="link-button" disabled={pending}>
        {label}
      </button>
      <FormMessages state={state} withFieldErrors />
    </form>
  );
}

export function UserRowActions({
  userId,
  email,
  role,
  banned,
  isSelf,
}: {
  userId: string;
  email: string;
  role: string;
  banned: boolean;
  isSelf: boolean;
}) {
  const [state, formAction, pending] = useActionState<UserActionState, FormData>(setUserRole, {});
  const selectId = useId();
  if (isSelf) return <span className="muted">This is you</span>;
  return (
    <div className="stack">
      <form action={formAction} className="filters">
        <input type="hidden" name="userId" value={userId} />
        <div className="field">
          <label htmlFor={selectId}>Role for {email}</label>
          <select id={selectId} name="role" defaultValue={role}>
            {roleOptions.map((option) => (
              <option key={option.value} value={option.value}>
                {option.value}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="button button-secondary" disabled={pending}>
          Set role
        </button>
      </form>
      <FormMessages state={state} withFieldErrors />
      <div className="inline-list">
        {banned ? (
          <RowButton action={unbanUser} userId={userId} label={`Unblock ${email}`} />
        ) : (
          <RowButton action={banUser} userId={userId} label={`Block ${email}`} />
        )}
        <RowButton action={revokeUserSessions} userId={userId} label={`Sign out ${email}`} />
      </div>
    </div>
  );
}
