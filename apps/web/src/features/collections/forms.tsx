"use client";

import { type CollectionLevel, collectionLimits } from "@seed/model";
import { useActionState } from "react";
import {
  type CollectionFormState,
  createCollection,
  deleteCollection,
  moveToCollection,
  setCollectionGrants,
  updateCollection,
} from "@/app/admin/collections/actions";
import { ConfirmDialogButton } from "@/components/admin/confirm-dialog";
import { FormMessages } from "@/components/admin/form-controls";
import { useKeptForm } from "@/components/admin/use-content-form";
import { FormField } from "@/components/form-field";

function DetailsFields({
  idPrefix,
  name,
  description,
  state,
}: {
  idPrefix: string;
  name: string;
  description: string;
  state: CollectionFormState;
}) {
  return (
    <>
      <FormField
        name="name"
        label="Collection name"
        id={`${idPrefix}-name`}
        required
        maxLength={collectionLimits.maxNameLength}
        defaultValue={name}
        errors={state.fieldErrors?.name}
      />
      <FormField
        name="description"
        label="Description (optional)"
        id={`${idPrefix}-description`}
        maxLength={collectionLimits.maxDescriptionLength}
        defaultValue={description}
        errors={state.fieldErrors?.description}
      />
    </>
  );
}

/** A new, empty collection; only admins see it until it grants groups access. */
export function CreateCollectionForm() {
  const [state, action, pending] = useActionState<CollectionFormState, FormData>(
    createCollection,
    {},
  );
  return (
    <>
      <FormMessages state={state} />
      <form action={action} className="form" noValidate key={JSON.stringify(state.values ?? {})}>
        <DetailsFields
          idPrefix="new-collection"
          name={state.values?.name ?? ""}
          description={state.values?.description ?? ""}
          state={state}
        />
        <div>
          <button type="submit" className="button" disabled={pending}>
            {pending ? "Creating…" : "Create collection"}
          </button>
        </div>
      </form>
    </>
  );
}

export function CollectionDetailsForm({
  collectionId,
  name,
  description,
}: {
  collectionId: string;
  name: string;
  description: string;
}) {
  const [state, action, pending] = useActionState<CollectionFormState, FormData>(
    updateCollection,
    {},
  );
  return (
    <form action={action} className="form" noValidate key={`${name}\n${description}`}>
      <input type="hidden" name="collectionId" value={collectionId} />
      <DetailsFields idPrefix="collection" name={name} description={description} state={state} />
      <div>
        <button type="submit" className="button button-secondary" disabled={pending}>
          Save name and description
        </button>
      </div>
      <FormMessages state={state} />
    </form>
  );
}

export interface GrantChoice {
  groupId: string;
  groupName: string;
  level: CollectionLevel | null;
}

const levelLabels: Record<CollectionLevel, string> = {
  view: "View",
  edit: "Edit",
  manage: "Manage",
};

/** One select per group: no access, view, edit or manage. */
export function CollectionGrantsForm({
  collectionId,
  choices,
}: {
  collectionId: string;
  choices: readonly GrantChoice[];
}) {
  // Sent without the form's own reset: a refused save keeps each group's level as chosen.
  const { state, pending, onSubmit } = useKeptForm<CollectionFormState>(setCollectionGrants, {});
  return (
    <form
      onSubmit={onSubmit}
      className="form"
      key={choices.map((choice) => `${choice.groupId}:${choice.level}`).join(",")}
    >
      <input type="hidden" name="collectionId" value={collectionId} />
      <fieldset className="field">
        <legend>Access by group</legend>
        <ul className="plain-list">
          {choices.map((choice) => (
            <li key={choice.groupId} className="field">
              <label htmlFor={`grant-${choice.groupId}`}>{choice.groupName}</label>
              <select
                id={`grant-${choice.groupId}`}
                name={`grant:${choice.groupId}`}
                defaultValue={choice.level ?? ""}
              >
                <option value="">No access</option>
                {(["view", "edit", "manage"] as const).map((level) => (
                  <option key={level} value={level}>
                    {levelLabels[level]}
                  </option>
                ))}
              </select>
            </li>
          ))}
        </ul>
      </fieldset>
      <div>
        <button type="submit" className="button button-secondary" disabled={pending}>
          Save access
        </button>
      </div>
      <FormMessages state={state} withFieldErrors />
    </form>
  );
}

export function DeleteCollectionForm({
  collectionId,
  name,
}: {
  collectionId: string;
  name: string;
}) {
  const [state, action, pending] = useActionState<CollectionFormState, FormData>(
    deleteCollection,
    {},
  );
  return (
    <form action={action}>
      <input type="hidden" name="collectionId" value={collectionId} />
      <ConfirmDialogButton
        label={`Delete the collection ${name}`}
        question={`Delete the collection ${name}? Only an empty collection can be deleted; its access settings go with it.`}
        yes={`Yes, delete ${name}`}
        disabled={pending}
      />
      <FormMessages state={state} />
    </form>
  );
}

export interface CollectionChoice {
  /** "" for Shared. */
  id: string;
  name: string;
}

/** Where a dataset, chart or dashboard lives, and a move to another collection its account edits. */
export function MoveToCollectionForm({
  entityType,
  id,
  current,
  choices,
}: {
  entityType: "dataset" | "chart" | "dashboard" | "source";
  id: string;
  current: string;
  choices: readonly CollectionChoice[];
}) {
  // Sent without the form's own reset: a refused move keeps the collection chosen.
  const { state, pending, onSubmit } = useKeptForm<CollectionFormState>(moveToCollection, {});
  return (
    <form onSubmit={onSubmit} className="form" key={current}>
      <input type="hidden" name="entityType" value={entityType} />
      <input type="hidden" name="id" value={id} />
      <div className="field">
        <label htmlFor={`move-${id}`}>Collection</label>
        <select id={`move-${id}`} name="collectionId" defaultValue={current}>
          {choices.map((choice) => (
            <option key={choice.id} value={choice.id}>
              {choice.name}
            </option>
          ))}
        </select>
      </div>
      <div>
        <button type="submit" className="button button-secondary" disabled={pending}>
          Move
        </button>
      </div>
      <FormMessages state={state} />
    </form>
  );
}
