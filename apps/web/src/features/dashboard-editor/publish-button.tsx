"use client";

import { useActionState } from "react";
import {
  deleteDashboard,
  type PublishState,
  setDashboardPublished,
} from "@/app/admin/dashboards/actions";
import { ConfirmDelete } from "@/components/admin/confirm-delete";
import { FormMessages } from "@/components/admin/form-controls";
import { useEditor } from "./editor-state";
import { RecordFields } from "./record-fields";

/** Publishes or unpublishes the editor's dashboard, or outside an editor the `record` given. */
export function PublishButton({
  record,
  published,
  title,
}: {
  record?: { dashboardId: string; version: number };
  published: boolean;
  title: string;
}) {
  const [state, action, pending] = useActionState<PublishState, FormData>(
    setDashboardPublished,
    {},
  );
  return (
    <form action={action}>
      <RecordFields record={record} />
      <input type="hidden" name="publish" value={published ? "false" : "true"} />
      <button type="submit" className="button button-secondary" disabled={pending}>
        {published ? `Unpublish ${title}` : `Publish ${title}`}
      </button>
      <FormMessages state={state} withFieldErrors />
    </form>
  );
}

/** Deletes the editor's dashboard, at the version the editor holds. */
export function DeleteDashboard({ what }: { what: string }) {
  const { dashboardId, version } = useEditor();
  return (
    <ConfirmDelete
      action={deleteDashboard}
      fields={{ dashboardId, version: String(version) }}
      what={what}
    />
  );
}
