/** The dashboard id and the version a form was loaded at, for the forms that edit one. */
export function RecordFields({ dashboardId, version }: { dashboardId?: string; version?: number }) {
  if (dashboardId === undefined || version === undefined) return null;
  return (
    <>
      <input type="hidden" name="dashboardId" value={dashboardId} />
      <input type="hidden" name="version" value={version} />
    </>
  );
}
