"use client";

import type { ContentAction } from "@/components/admin/content-form-state";
import { FormMessages } from "@/components/admin/form-controls";
import { useContentForm } from "@/components/admin/use-content-form";

/** One button posting one tile change (remove). */
export function TileActionButton({
  action,
  fields,
  label,
  shortLabel,
  disabled = false,
}: {
  action: ContentAction;
  fields: Record<string, string>;
  label: string;
  /** Shown instead of `label` where room is short; `label` stays the accessible name. */
  shortLabel?: string;
  disabled?: boolean;
}) {
  const { state, pending, onSubmit } = useContentForm(action);
  return (
    <form onSubmit={onSubmit}>
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <button
        type="submit"
        className="button button-secondary"
        disabled={disabled || pending}
        aria-label={shortLabel ? label : undefined}
      >
        {shortLabel ?? label}
      </button>
      <FormMessages state={state} />
    </form>
  );
}
