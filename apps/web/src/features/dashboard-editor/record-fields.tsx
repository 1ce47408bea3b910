"use client";

import { useDashboardEditor } from "./editor-state";

/**
 * The dashboard id and the version the editor holds now, for the forms that edit one; outside an
 * editor, the record given (a row of the dashboards list) or nothing (the new-dashboard page).
 * Read at render, so a tile added in place moves every form of the editor on to the new version.
 */
export function RecordFields({ record }: { record?: { dashboardId: string; version: number } }) {
  const editor = useDashboardEditor();
  const shown = editor ?? record;
  if (!shown) return null;
  return (
    <>
      <input type="hidden" name="dashboardId" value={shown.dashboardId} />
      <input type="hidden" name="version" value={shown.version} />
    </>
  );
}
