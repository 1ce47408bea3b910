import type { ChartForm } from "@seed/model";
import type { ContentFormState } from "@/components/admin/content-form-state";
import type { DatasetChoice } from "./draft";

/**
 * What each section of the chart form is handed: the draft, its dataset's columns, the server's
 * field messages, and the ways to change the draft (every change goes through `setDraft`, which
 * resets options the new type or query no longer offers).
 */
export interface SectionProps {
  draft: ChartForm;
  columns: DatasetChoice["columns"];
  errors: NonNullable<ContentFormState["fieldErrors"]>;
  setDraft: (change: (current: ChartForm) => ChartForm) => void;
  update: <Key extends keyof ChartForm>(key: Key, value: ChartForm[Key]) => void;
}
