"use client";

import { renameDataset } from "@/app/admin/datasets/actions";
import { FormMessages } from "@/components/admin/form-controls";
import { useContentForm } from "@/components/admin/use-content-form";
import { FormField } from "@/components/form-field";

export function RenameDatasetForm({
  datasetId,
  version,
  name,
  description,
}: {
  datasetId: string;
  version: number;
  name: string;
  description: string;
}) {
  const { state, pending, onSubmit } = useContentForm(renameDataset);
  return (
    <form onSubmit={onSubmit} className="form" noValidate aria-label="Name and description">
      <input type="hidden" name="datasetId" value={datasetId} />
      <input type="hidden" name="version" value={version} />
      <FormMessages state={state} />
      <FormField
        name="name"
        label="Name"
        id="dataset-name"
        required
        defaultValue={name}
        errors={state.fieldErrors?.name}
      />
      <FormField
        name="description"
        label="Description"
        id="dataset-description"
        defaultValue={description}
        errors={state.fieldErrors?.description}
      />
      <div>
        <button type="submit" className="button" disabled={pending}>
          {pending ? "Saving…" : "Save name"}
        </button>
      </div>
    </form>
  );
}
