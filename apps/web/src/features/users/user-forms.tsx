"use client";

import { useActionState, useId } from "react";
import {
  banUser,
  type CreateUserState,
  createUser,
  deleteUser,
  type PasswordSignInState,
  resetUserTwoFactor,
  revokeUserSessions,
  setPasswordSignIn,
  setTwoFactorRequirement,
  setUserRole,
  type TwoFactorRequirementState,
  type UserActionState,
  unbanUser,
} from "@/app/admin/users/actions";
import { ConfirmDialogButton } from "@/components/admin/confirm-dialog";
import { FormMessages } from "@/components/admin/form-controls";
import { FormField } from "@/components/form-field";

const roleOptions = [
  { value: "viewer", label: "Viewer (reads only)" },
  { value: "editor", label: "Editor (datasets, charts, dashboards)" },
  { value: "admin", label: "Admin (everything, including users)" },
];

export function CreateUserForm() {
  const [state, action, pending] = useActionState<CreateUserState, FormData>(createUser, {});
  const roleId = useId();
  const roleErrorId = `${roleId}-error`;
  const roleErrors = state.fieldErrors?.role;
  return (
    // The result sits outside the keyed form, so it keeps its place (and focus) when the form
    // is redrawn with the values an error sent back.
    <>
      <FormMessages state={state} />
      <form action={action} className="form" noValidate key={JSON.stringify(state.values ?? {})}>
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
    </>
  );
}

/**
 * One user action behind a button. With `confirm`, the button opens a modal dialog that asks
 * first (Escape or Cancel closes it; focus returns to the button).
 */
function RowButton({
  action,
  userId,
  label,
  confirm,
}: {
  action: (state: UserActionState, formData: FormData) => Promise<UserActionState>;
  userId: string;
  label: string;
  confirm?: { question: string; yes: string };
}) {
  const [state, formAction, pending] = useActionState<UserActionState, FormData>(action, {});
  return (
    <form action={formAction}>
      <input type="hidden" name="userId" value={userId} />
      {confirm ? (
        <ConfirmDialogButton
          label={label}
          question={confirm.question}
          yes={confirm.yes}
          disabled={pending}
        />
      ) : (
        <button type="submit" className="button button-secondary" disabled={pending}>
          {label}
        </button>
      )}
      <FormMessages state={state} withFieldErrors />
    </form>
  );
}

const requirementOptions = [
  ["admin", "Admins"],
  ["editor", "Editors"],
  ["viewer", "Viewers"],
] as const;

/**
 * One checkbox per role, posted as `roles`; the `always` role is shown checked and fixed (the
 * store keeps it whatever is sent).
 */
function RoleChoices({
  legend,
  chosen,
  always,
  describedBy,
}: {
  legend: string;
  chosen: readonly string[];
  always?: string;
  describedBy?: string;
}) {
  return (
    <fieldset className="field">
      <legend>{legend}</legend>
      <div className="inline-list">
        {requirementOptions.map(([value, label]) => (
          <label key={value}>
            <input
              type="checkbox"
              {...(value === always
                ? { defaultChecked: true, disabled: true, "aria-describedby": describedBy }
                : { name: "roles", value, defaultChecked: chosen.includes(value) })}
            />{" "}
            {label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** Which roles must sign in with a second factor: one checkbox per role. */
export function TwoFactorRequirementForm({ required }: { required: readonly string[] }) {
  const [state, formAction, pending] = useActionState<TwoFactorRequirementState, FormData>(
    setTwoFactorRequirement,
    {},
  );
  return (
    <form action={formAction} className="form" key={required.join(",")}>
      <RoleChoices legend="Require two-factor sign-in of" chosen={required} />
      <p className="muted">
        Anyone in a checked role without it is sent to set it up before anything else. An admin who
        loses both phone and recovery codes is reset by another admin here.
      </p>
      <div>
        <button type="submit" className="button button-secondary" disabled={pending}>
          Save requirement
        </button>
      </div>
      <FormMessages state={state} withFieldErrors />
    </form>
  );
}

/** Which roles may sign in with a password beside single sign-on; admins always may. */
export function PasswordSignInForm({
  allowed,
  providerName,
}: {
  allowed: readonly string[];
  providerName: string;
}) {
  const [state, formAction, pending] = useActionState<PasswordSignInState, FormData>(
    setPasswordSignIn,
    {},
  );
  return (
    <form action={formAction} className="form" key={allowed.join(",")}>
      <RoleChoices
        legend="Sign in with a password"
        chosen={allowed}
        always="admin"
        describedBy="password-admins-note"
      />
      <p className="muted" id="password-admins-note">
        An unchecked role signs in with {providerName} only. Admins always keep their password: the
        way in when the provider is unreachable.
      </p>
      <div>
        <button type="submit" className="button button-secondary" disabled={pending}>
          Save password sign-in
        </button>
      </div>
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
  twoFactorEnabled,
}: {
  userId: string;
  email: string;
  role: string;
  banned: boolean;
  isSelf: boolean;
  twoFactorEnabled: boolean;
}) {
  const [state, formAction, pending] = useActionState<UserActionState, FormData>(setUserRole, {});
  const selectId = useId();
  if (isSelf) return <span className="muted">This is you</span>;
  return (
    <div className="stack">
      {/* Keyed by the saved role: after a change the menu shows what was saved. */}
      <form action={formAction} className="filters" key={role}>
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
          <RowButton
            action={banUser}
            userId={userId}
            label={`Block ${email}`}
            confirm={{
              question: `Block ${email}? They are signed out everywhere and cannot sign in until unblocked.`,
              yes: `Yes, block ${email}`,
            }}
          />
        )}
        <RowButton
          action={revokeUserSessions}
          userId={userId}
          label={`Sign out ${email}`}
          confirm={{
            question: `Sign ${email} out on every device? Their open pages stop working.`,
            yes: `Yes, sign out ${email}`,
          }}
        />
        {twoFactorEnabled ? (
          <RowButton
            action={resetUserTwoFactor}
            userId={userId}
            label={`Turn off two-factor for ${email}`}
            confirm={{
              question: `Turn off two-factor sign-in for ${email}? Their key and recovery codes stop working; they sign in with their password alone (and set it up again if their role requires it).`,
              yes: `Yes, turn it off for ${email}`,
            }}
          />
        ) : null}
        <RowButton
          action={deleteUser}
          userId={userId}
          label={`Delete ${email}`}
          confirm={{
            question: `Delete ${email}? The account and its sessions are removed for good; what they made stays, and the audit log keeps their email.`,
            yes: `Yes, delete ${email}`,
          }}
        />
      </div>
    </div>
  );
}
