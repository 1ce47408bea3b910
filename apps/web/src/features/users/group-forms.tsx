"use client";

import { groupLimits } from "@seed/model";
import { useActionState } from "react";
import {
  createGroup,
  deleteGroup,
  type GroupFormState,
  renameGroup,
  setGroupMembers,
} from "@/app/admin/users/groups/actions";
import { ConfirmDialogButton } from "@/components/admin/confirm-dialog";
import { FormMessages } from "@/components/admin/form-controls";
import { FormField } from "@/components/form-field";

/** A new group by name; its members are chosen on its own page. */
export function CreateGroupForm() {
  const [state, action, pending] = useActionState<GroupFormState, FormData>(createGroup, {});
  return (
    <>
      <FormMessages state={state} />
      <form action={action} className="form" noValidate key={JSON.stringify(state.values ?? {})}>
        <FormField
          name="name"
          label="Group name"
          id="new-group-name"
          required
          maxLength={groupLimits.maxNameLength}
          hint="Names are matched without regard to case, also against the provider's groups claim."
          defaultValue={state.values?.name ?? ""}
          errors={state.fieldErrors?.name}
        />
        <div>
          <button type="submit" className="button" disabled={pending}>
            {pending ? "Creating…" : "Create group"}
          </button>
        </div>
      </form>
    </>
  );
}

export function RenameGroupForm({ groupId, name }: { groupId: string; name: string }) {
  const [state, action, pending] = useActionState<GroupFormState, FormData>(renameGroup, {});
  return (
    <form action={action} className="form" noValidate key={name}>
      <input type="hidden" name="groupId" value={groupId} />
      <FormField
        name="name"
        label="Group name"
        id="group-name"
        required
        maxLength={groupLimits.maxNameLength}
        defaultValue={name}
        errors={state.fieldErrors?.name}
      />
      <div>
        <button type="submit" className="button button-secondary" disabled={pending}>
          Save name
        </button>
      </div>
      <FormMessages state={state} />
    </form>
  );
}

export interface MemberChoice {
  userId: string;
  name: string;
  email: string;
  /** An admin put them in the group (the checkbox). */
  byAdmin: boolean;
  /** The provider's groups claim put them in the group (shown; changed only by the provider). */
  bySignOn: boolean;
}

/** One checkbox per account: the members an admin chooses. The claim's members are named. */
export function GroupMembersForm({
  groupId,
  choices,
  unlisted,
  providerName,
}: {
  groupId: string;
  choices: readonly MemberChoice[];
  /** Members an admin chose who are past the listed accounts: kept as they are. */
  unlisted: readonly string[];
  providerName: string | null;
}) {
  const [state, action, pending] = useActionState<GroupFormState, FormData>(setGroupMembers, {});
  return (
    <form
      action={action}
      className="form"
      key={choices.map((choice) => `${choice.userId}:${choice.byAdmin}`).join(",")}
    >
      <input type="hidden" name="groupId" value={groupId} />
      {unlisted.map((userId) => (
        <input key={userId} type="hidden" name="userIds" value={userId} />
      ))}
      <fieldset className="field">
        <legend>Members chosen by an admin</legend>
        <ul className="plain-list">
          {choices.map((choice) => (
            <li key={choice.userId}>
              <label>
                <input
                  type="checkbox"
                  name="userIds"
                  value={choice.userId}
                  defaultChecked={choice.byAdmin}
                />{" "}
                {choice.name} ({choice.email})
              </label>
              {choice.bySignOn ? (
                <span className="muted">
                  {" "}
                  Also a member through {providerName ?? "single sign-on"}.
                </span>
              ) : null}
            </li>
          ))}
        </ul>
        {unlisted.length > 0 ? (
          <p className="muted">
            And {unlisted.length} more chosen members past the first {choices.length} accounts, kept
            as they are.
          </p>
        ) : null}
      </fieldset>
      <div>
        <button type="submit" className="button button-secondary" disabled={pending}>
          Save members
        </button>
      </div>
      <FormMessages state={state} withFieldErrors />
    </form>
  );
}

export function DeleteGroupForm({ groupId, name }: { groupId: string; name: string }) {
  const [state, action, pending] = useActionState<GroupFormState, FormData>(deleteGroup, {});
  return (
    <form action={action}>
      <input type="hidden" name="groupId" value={groupId} />
      <ConfirmDialogButton
        label={`Delete the group ${name}`}
        question={`Delete the group ${name}? Its members stay as accounts; only the group goes. A sign-in whose groups claim names it makes it again.`}
        yes={`Yes, delete ${name}`}
        disabled={pending}
      />
      <FormMessages state={state} />
    </form>
  );
}
