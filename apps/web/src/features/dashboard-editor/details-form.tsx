"use client";

import { textLimits } from "@seed/model";

import type { IconName } from "@seed/ui";
import styles from "@/components/admin/admin.module.css";
import type { ContentAction } from "@/components/admin/content-form-state";
import { FormMessages } from "@/components/admin/form-controls";
import { IconPicker } from "@/components/admin/icon-picker";
import { useContentForm } from "@/components/admin/use-content-form";
import { FormField } from "@/components/form-field";
import { RecordFields } from "./record-fields";

// The runtime's IANA zones, for the time zone field's suggestions.
const timeZoneNames: readonly string[] =
  typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : ["UTC"];

/** Title, slug, description, icon and time zone; creates a dashboard, or edits the one of its editor. */
export function DashboardDetailsForm({
  action,
  initial,
  submitLabel,
}: {
  action: ContentAction;
  initial: {
    title: string;
    slug: string;
    description: string;
    icon: IconName | null;
    timeZone: string | null;
  };
  submitLabel: string;
}) {
  const { state, pending, onSubmit } = useContentForm(action);
  const errors = state.fieldErrors ?? {};
  return (
    <form onSubmit={onSubmit} className={styles.wideForm} noValidate aria-label="Dashboard details">
      <RecordFields />
      <FormMessages state={state} />
      <FormField
        name="title"
        label="Title"
        id="dashboard-title"
        required
        maxLength={textLimits.title}
        defaultValue={initial.title}
        errors={errors.title}
      />
      <FormField
        name="slug"
        label="Slug"
        id="dashboard-slug"
        hint="The address: /d/<slug>. Lowercase letters, digits and hyphens; left blank, it is made from the title."
        maxLength={textLimits.slug}
        defaultValue={initial.slug}
        errors={errors.slug}
      />
      <FormField
        name="description"
        label="Description (optional)"
        id="dashboard-description"
        maxLength={textLimits.description}
        defaultValue={initial.description}
        errors={errors.description}
      />
      <IconPicker
        id="dashboard-icon"
        name="icon"
        legend="Icon"
        defaultValue={initial.icon}
        errors={errors.icon}
      />
      <FormField
        name="timeZone"
        label="Time zone (optional)"
        id="dashboard-time-zone"
        hint="Where days, weeks and months begin for this dashboard's charts, e.g. Europe/Paris. Blank is UTC."
        maxLength={64}
        list="dashboard-time-zones"
        defaultValue={initial.timeZone ?? ""}
        errors={errors.timeZone}
      />
      <datalist id="dashboard-time-zones">
        {timeZoneNames.map((zone) => (
          <option key={zone} value={zone} />
        ))}
      </datalist>
      <div>
        <button type="submit" className="button" disabled={pending}>
          {pending ? "Saving…" : submitLabel}
        </button>
      </div>
    </form>
  );
}
