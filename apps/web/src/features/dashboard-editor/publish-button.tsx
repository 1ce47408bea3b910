"use client";

import { useActionState } from "react";
import { type PublishState, setDashboardPublished } from "@/app/admin/dashboards/actions";
import { FormMessages } from "@/components/admin/form-controls";

export function PublishButton({
  dashboardId,
  version,
  published,
  title,
}: {
  dashboardId: string;
  version: number;
  published: boolean;
  title: string;
}) {
  const [state, action, pending] = useActionState<PublishState, FormData>(
    setDashboardPublished,
    {},
  );
  return (
    <form action={action}>
      <input type="hidden" name="dashboardId" value={dashboardId} />
      <input type="hidden" name="version" value={version} />
      <input type="hidden" name="publish" value={published ? "false" : "true"} />
      <button type="submit" className="button button-secondary" disabled={pending}>
        {published ? `Unpublish ${title}` : `Publish ${title}`}
      </button>
      <FormMessages state={state} withFieldErrors />
    </form>
  );
}
