"use client";

import { setSqlQuestions } from "@/app/admin/sql/actions";
import { FormMessages } from "@/components/admin/form-controls";
import { useContentForm } from "@/components/admin/use-content-form";

/** An admin's switch: SQL questions on or off for everyone. */
export function SqlSwitch({ enabled }: { enabled: boolean }) {
  const { state, pending, onSubmit } = useContentForm(setSqlQuestions);
  return (
    <form onSubmit={onSubmit} className="form" aria-label="SQL questions setting">
      <FormMessages state={state} />
      <input type="hidden" name="enabled" value={enabled ? "false" : "true"} />
      <p>
        SQL questions are <strong>{enabled ? "on" : "off"}</strong> for editors and admins.{" "}
        <button type="submit" className="button button-secondary" disabled={pending}>
          {enabled ? "Turn SQL questions off" : "Turn SQL questions on"}
        </button>
      </p>
    </form>
  );
}
