"use client";

import { addLiveDataset } from "@/app/admin/sources/actions";
import { FormMessages } from "@/components/admin/form-controls";
import { useContentForm } from "@/components/admin/use-content-form";

/** One remote table's "Add as dataset" button. */
export function AddTableButton({
  sourceId,
  schema,
  table,
}: {
  sourceId: string;
  schema: string;
  table: string;
}) {
  const { state, pending, onSubmit } = useContentForm(addLiveDataset);
  return (
    <form onSubmit={onSubmit} aria-label={`Add ${schema}.${table}`}>
      <input type="hidden" name="sourceId" value={sourceId} />
      <input type="hidden" name="schema" value={schema} />
      <input type="hidden" name="table" value={table} />
      <FormMessages state={state} withFieldErrors />
      <button type="submit" className="button button-secondary" disabled={pending}>
        {pending ? "Adding…" : `Add ${schema}.${table} as dataset`}
      </button>
    </form>
  );
}
