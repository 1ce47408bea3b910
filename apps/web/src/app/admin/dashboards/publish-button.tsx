"use client";

import { useActionState } from "react";
import { type PublishState, setDashboardPublished } from "./actions";

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
      <button type="submit" className="link-button" disabled={pending}>
        {published ? `Unpublish ${title}` : `Publish ${title}`}
      </button>
      <div role="status">
        {state.message ? <p className="form-status">{state.message}</p> : null}
        {state.formError ? <p className="form-error">{state.formError}</p> : null}
      </div>
    </form>
  );
}
